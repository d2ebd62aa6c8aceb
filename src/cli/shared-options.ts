// Options more than one command takes, declared and parsed once: a trade's slippage, key,
// waiting and dry run; a list's pages; a table's output format.
import {
  parseCsvFlag,
  parseCursor,
  parseIdempotencyKey,
  parseLimit,
  parseTokenArgument,
  type TokenArgument,
} from './argument-parsers.js';
import { DEFAULT_MAX_SLIPPAGE_BPS, SERVICE_PAGE_LIMIT } from '../domain/defaults.js';
import { MIN_MINT_PREFIX } from '../domain/token-meta.js';
import { optionFlag, parsedOption, type ArgumentSpec, type OptionSpec, type RawInput } from './definition.js';
import { parseSlippageBps } from '../config/profile-values.js';

/** Buy's and sell's arguments: `whose` says which tokens a symbol may name, `amount` what the amount is. */
export function tradeArguments(whose: string, amount: string): ArgumentSpec[] {
  return [
    { name: '<token>', help: `mint (or its first ${MIN_MINT_PREFIX}+ chars) or a ${whose} symbol` },
    { name: '<amount>', help: amount },
  ];
}

/** The slippage option's help: its unit, its default and its cap, from the constants the trade applies. */
export const SLIPPAGE_HELP = `in bps (100 = 1%); default maxSlippageBps, else the service's; cap maxSlippageBps, else ${DEFAULT_MAX_SLIPPAGE_BPS}`;

/**
 * Buy's and sell's options: slippage and key, the command's own, then waiting and the dry run, in
 * their words (`dryRun`: what it shows, and what it leaves on the service).
 */
export function tradeOptions(words: {
  trades: string;
  own: OptionSpec[];
  accepted: string;
  dryRun: string;
}): OptionSpec[] {
  return [
    { flags: '--slippage-bps <bps>', help: SLIPPAGE_HELP },
    { flags: '--idempotency-key <key>', help: `resume or repeat safely: never ${words.trades} twice` },
    ...words.own,
    { flags: '--no-wait', help: `return once the ${words.accepted}` },
    { flags: '--dry-run', help: words.dryRun },
  ];
}

/** What buy and sell share: the slippage and key typed (undefined when not), whether to wait, whether to sign at all. */
interface TradeFlags {
  slippageBps: number | undefined;
  /** A new key is made when none is typed. */
  idempotencyKey: string | undefined;
  /** False with --no-wait: stop once the deposit or authorization is accepted. */
  wait: boolean;
  dryRun: boolean;
}

/** What buy and sell both read from argv: the token, the amount (parsed, and as typed), and the TradeFlags. */
export interface TradeInput<A> extends TradeFlags {
  token: TokenArgument;
  amount: A;
  /** The amount as typed, for the command that resumes the trade. */
  amountText: string;
}

/**
 * Parses `<token> <amount>` and the options buy and sell share, in the order they are typed:
 * `whose` says which tokens a symbol may name, `parseAmount` what the amount is.
 */
export function parseTradeInput<A>(raw: RawInput, whose: string, parseAmount: (text: string) => A): TradeInput<A> {
  const [token, amount] = raw.args as [string, string];
  return {
    token: parseTokenArgument(token, whose),
    amount: parseAmount(amount),
    amountText: amount,
    ...parseTradeFlags(raw),
  };
}

/** Parses the options buy and sell share. */
function parseTradeFlags(raw: RawInput): TradeFlags {
  return {
    slippageBps: parsedOption(raw, 'slippageBps', parseSlippageBps),
    idempotencyKey: parsedOption(raw, 'idempotencyKey', parseIdempotencyKey),
    wait: raw.options.wait !== false,
    dryRun: optionFlag(raw, 'dryRun'),
  };
}

export const CSV_OPTION: OptionSpec = {
  flags: '--csv',
  help: 'RFC 4180 CSV: raw and decimal amounts (not with --json)',
};
export const WIDE_OPTION: OptionSpec = { flags: '--wide', help: 'every column in full, however wide the terminal' };

/** `--csv` (never with --json). */
export function parseCsv(raw: RawInput): boolean {
  return parseCsvFlag(optionFlag(raw, 'csv'), raw.globals.json);
}

/** How a table is printed: `--csv`, `--wide`. */
export interface TableFlags {
  csv: boolean;
  wide: boolean;
}

/** Parses `--csv` and `--wide`. */
export function parseTableFlags(raw: RawInput): TableFlags {
  return { csv: parseCsv(raw), wide: optionFlag(raw, 'wide') };
}

/** The paged lists' options after their own: `--limit`, `--cursor`, `--all`, `--csv`, `--wide`. */
export const LIST_OPTIONS: readonly OptionSpec[] = [
  { flags: '--limit <n>', help: 'items per page, 1-100', default: SERVICE_PAGE_LIMIT },
  { flags: '--cursor <cursor>', help: 'continue from a previous page' },
  { flags: '--all', help: 'follow every page' },
  CSV_OPTION,
  WIDE_OPTION,
];

export interface ListFlags extends TableFlags {
  /** Undefined: the service's default page size (SERVICE_PAGE_LIMIT), not sent. */
  limit: number | undefined;
  cursor: string | undefined;
  all: boolean;
}

/** Parses the LIST_OPTIONS (`--csv` first: with --json it is refused whatever else is wrong). */
export function parseListFlags(raw: RawInput): ListFlags {
  const table = parseTableFlags(raw);
  return {
    limit: parsedOption(raw, 'limit', parseLimit),
    cursor: parsedOption(raw, 'cursor', parseCursor),
    all: optionFlag(raw, 'all'),
    ...table,
  };
}
