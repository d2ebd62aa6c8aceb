// Tables for human output, fitted to the terminal (80 columns by default).
import { createRequire } from 'node:module';
import type TableType from 'cli-table3';

const require = createRequire(import.meta.url);
let TableClass: typeof TableType | undefined;

export interface Column {
  header: string;
  /** Right-align numbers. */
  align?: 'left' | 'right';
  /** Maximum width of this column's cells; longer text is shortened with an ellipsis. Never set it on numbers. */
  maxWidth?: number;
  /** Text that may be shortened further (down to this many characters) to fit the table's width. */
  shrinkTo?: number;
}

const GAP = 2;
/** Tables are fitted to 80 columns; numbers are never cut, so very large ones may still widen it. */
export const TABLE_WIDTH = 80;

/** Renders rows under the given columns as a borderless table. cli-table3 loads on first use. */
export function renderTable(columns: Column[], rows: string[][], width = TABLE_WIDTH): string {
  TableClass ??= require('cli-table3') as typeof TableType;
  const widths = fitWidths(columns, rows, width);
  const table = new TableClass({
    head: columns.map((c) => c.header),
    colAligns: columns.map((c) => c.align ?? 'left'),
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
      bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '',
      right: '', 'right-mid': '', middle: ' '.repeat(GAP),
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  for (const row of rows) table.push(row.map((cell, i) => truncate(cell, widths[i])));
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

/** Each column's width: its widest cell (bounded by maxWidth), then shrinkable text narrowed until the table fits. */
function fitWidths(columns: Column[], rows: string[][], width: number): number[] {
  const widths = columns.map((c, i) => {
    let natural = visibleLength(c.header);
    for (const r of rows) natural = Math.max(natural, visibleLength(r[i] ?? '')); // no spread: lists can be long
    return c.maxWidth ? Math.min(natural, Math.max(c.maxWidth, visibleLength(c.header))) : natural;
  });
  const floor = (i: number) => Math.max(columns[i]!.shrinkTo ?? Infinity, visibleLength(columns[i]!.header), 2);
  let total = widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, columns.length - 1);
  const saving = widths.reduce((sum, w, i) => sum + (columns[i]!.shrinkTo === undefined ? 0 : Math.max(0, w - floor(i))), 0);
  if (total - saving > width) return widths; // cannot fit: cutting text would lose it for nothing
  while (total > width) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (columns[i]!.shrinkTo !== undefined && w > floor(i) && (widest < 0 || w > widths[widest]!)) widest = i;
    });
    if (widest < 0) break;
    widths[widest]! -= 1;
    total -= 1;
  }
  return widths;
}

/** Key–value lines for a single object, labels aligned. */
export function renderFields(fields: Array<[label: string, value: string]>): string {
  const width = Math.max(...fields.map(([label]) => label.length));
  return fields.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}

/** Shortens a long identifier in the middle: `7xKXtg2C…sgAsU`. */
export function shortId(id: string, keep = 6): string {
  return id.length <= keep * 2 + 1 ? id : `${id.slice(0, keep)}…${id.slice(-keep)}`;
}

function truncate(text: string, max: number | undefined): string {
  if (!max || visibleLength(text) <= max) return text;
  // Colour codes do not survive being cut in the middle: shorten the plain text.
  const plain = Array.from(stripAnsi(text));
  return plain.slice(0, Math.max(1, max - 1)).join('') + '…';
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

function visibleLength(text: string): number {
  return Array.from(stripAnsi(text)).length;
}

/** Text shown exactly as it is, each line behind a bar (a message to sign, a pinned wording). */
export function renderQuoted(text: string): string {
  return text
    .split('\n')
    .map((line) => `  │ ${line}`)
    .join('\n');
}
