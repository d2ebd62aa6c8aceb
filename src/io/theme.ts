// Colours for statuses and emphasis, and the width human text is laid out to. chalk is loaded
// only when colour is on, so piped and --json runs never pay for it.
import type { ChalkInstance } from 'chalk';

/** Where human text goes: how wide it may be, and whether a value wider than that is shortened (a terminal) or kept whole (piped). */
export interface Layout {
  width: number;
  shorten: boolean;
}

export interface Theme extends Layout {
  success(text: string): string;
  failure(text: string): string;
  pending(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  /** Marks text the user must look at twice (the message's unexplained parts). */
  highlight(text: string): string;
  /** Colours a status by what it means (green done, red failed, yellow in progress); `text` is shown instead when given. */
  status(status: string, text?: string): string;
}

const plainText = (text: string) => text;

const SUCCESS = new Set(['completed', 'complete', 'open', 'closed', 'authorized', 'funded', 'confirmed']);
const FAILURE = new Set([
  'failed',
  'refunded',
  'expired',
  'cancelled',
  'requires_review',
  'refund_pending',
  'refunding',
]);

/** Colour names a status belongs to: success, failure or pending. */
export function statusTone(status: string): 'success' | 'failure' | 'pending' {
  if (SUCCESS.has(status)) return 'success';
  if (FAILURE.has(status)) return 'failure';
  return 'pending';
}

export const plainTheme: Theme = {
  width: 80,
  shorten: false,
  success: plainText,
  failure: plainText,
  pending: plainText,
  dim: plainText,
  bold: plainText,
  highlight: plainText,
  status: (status, text) => text ?? status,
};

/** The theme for this run: chalk colours when allowed, plain text otherwise; laid out to `layout`. */
export async function loadTheme(color: boolean, layout: Layout = plainTheme): Promise<Theme> {
  if (!color) return { ...plainTheme, ...layout };
  const { Chalk } = await import('chalk');
  const chalk: ChalkInstance = new Chalk({ level: 1 });
  const theme: Theme = {
    ...layout,
    success: (t) => chalk.green(t),
    failure: (t) => chalk.red(t),
    pending: (t) => chalk.yellow(t),
    dim: (t) => chalk.dim(t),
    bold: (t) => chalk.bold(t),
    highlight: (t) => chalk.inverse.yellow(t),
    status: (s, text) => theme[statusTone(s)](text ?? s),
  };
  return theme;
}
