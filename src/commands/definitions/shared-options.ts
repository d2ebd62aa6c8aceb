// Options more than one command takes, declared and parsed once: a trade's slippage, key,
// waiting and dry run; a list's pages; a table's output format.
import { parseCsvFlag, parseCursor, parseIdempotencyKey, parseLimit, parseSlippageBps } from '../../argument-parsers.js';
import { SERVICE_PAGE_LIMIT } from '../../defaults.js';
import { optionFlag, optionText, type OptionSpec, type RawInput } from '../definition.js';

/** `--slippage-bps` of buy and sell. */
export const SLIPPAGE_OPTION: OptionSpec = { flags: '--slippage-bps <bps>', help: 'slippage tolerance in basis points, 0-10000 (100 = 1%)' };

/** `--idempotency-key` of buy and sell; `trade` is "buys" or "sells". */
export function idempotencyKeyOption(trade: string): OptionSpec {
  return { flags: '--idempotency-key <key>', help: `resume or repeat safely: the same key never ${trade} twice` };
}

/** What buy and sell share: the slippage and key typed (undefined when not), whether to wait, whether to sign at all. */
export interface TradeFlags {
  slippageBps: number | undefined;
  /** A new key is made when none is typed. */
  idempotencyKey: string | undefined;
  /** False with --no-wait: stop once the deposit or authorization is accepted. */
  wait: boolean;
  dryRun: boolean;
}

/** Parses the options buy and sell share. */
export function parseTradeFlags(raw: RawInput): TradeFlags {
  const slippage = optionText(raw, 'slippageBps');
  const key = optionText(raw, 'idempotencyKey');
  return {
    slippageBps: slippage === undefined ? undefined : parseSlippageBps(slippage),
    idempotencyKey: key === undefined ? undefined : parseIdempotencyKey(key),
    wait: raw.options.wait !== false,
    dryRun: optionFlag(raw, 'dryRun'),
  };
}

/** `--limit`, `--cursor` and `--all` of the paged lists. */
export const PAGE_OPTIONS: readonly OptionSpec[] = [
  { flags: '--limit <n>', help: 'items per page, 1-100', default: SERVICE_PAGE_LIMIT },
  { flags: '--cursor <cursor>', help: 'continue from a previous page' },
  { flags: '--all', help: 'follow every page' },
];

export interface PageFlags {
  /** Undefined: the service's default page size (SERVICE_PAGE_LIMIT), not sent. */
  limit: number | undefined;
  cursor: string | undefined;
  all: boolean;
}

/** Parses `--limit`, `--cursor` and `--all`. */
export function parsePageFlags(raw: RawInput): PageFlags {
  const limit = optionText(raw, 'limit');
  const cursor = optionText(raw, 'cursor');
  return {
    limit: limit === undefined ? undefined : parseLimit(limit),
    cursor: cursor === undefined ? undefined : parseCursor(cursor),
    all: optionFlag(raw, 'all'),
  };
}

export const CSV_OPTION: OptionSpec = {
  flags: '--csv',
  help: 'RFC 4180 CSV on stdout: header row, raw and decimal amounts, formula-like text neutralised (not with --json)',
};
export const WIDE_OPTION: OptionSpec = { flags: '--wide', help: 'every column in full, however wide the terminal' };

/** `--csv` (never with --json). */
export function parseCsv(raw: RawInput): boolean {
  return parseCsvFlag(optionFlag(raw, 'csv'), raw.globals.json);
}
