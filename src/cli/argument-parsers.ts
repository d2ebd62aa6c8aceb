// The command line's own parsers: the raw text a user typed as an argument or a command's option
// becomes a checked, typed value at the edge, before any request, or a one-line UsageError
// (exit 2) that names what was typed and says what is accepted. Amounts become exact bigints
// here; arithmetic and formatting stay in domain/amounts.ts. Values a profile may hold too
// (slippage, lamports, seconds, addresses) are parsed by config/profile-values.ts, URLs by
// net/urls.ts.
import { ACTIVITY_TYPES, POSITION_STATUSES, type ActivityType } from '../api/types.js';
import {
  DECIMAL_NUMBER as DECIMAL,
  decimalToUnits,
  isCanonicalIntegerString,
  SOL_DECIMALS,
  U64_MAX,
  type SellAmountSpec,
} from '../domain/amounts.js';
import { printable } from '../domain/printable.js';
import { UsageError } from '../domain/errors.js';
import { MIN_MINT_PREFIX } from '../domain/token-meta.js';
import { isAddress } from '../domain/address.js';
import { parseIntegerInRange, parseLamports, withoutGroups } from '../config/profile-values.js';

function quote(s: string): string {
  return JSON.stringify(s);
}

// ---------------------------------------------------------------------------------------------
// Amounts

/** `trader buy` amount, in lamports: profile-values.ts's parseLamports (the one for every lamport value), zero refused. */
export function parseBuyAmount(typed: string): bigint {
  return parseLamports(typed, 'amount', 'a buy spends more than zero');
}

/**
 * A SOL amount such as `--min-sol 0.05`, in lamports: a decimal with at most 9 decimals, zero
 * allowed, optional `sol` suffix. Same strictness as parseBuyAmount otherwise.
 */
export function parseSolToLamports(s: string, option = '--min-sol'): bigint {
  const fail = (why: string): never => {
    throw new UsageError(`invalid ${option} ${quote(s)}: ${why}; use a decimal number of SOL such as 0.05`);
  };
  if (typeof s !== 'string' || s === '') fail('it is empty');
  const m = DECIMAL.exec(s.replace(/sol$/i, ''));
  if (!m) fail('not a plain decimal number');
  const units = decimalToUnits(m![1]!, m![2] ?? '', SOL_DECIMALS);
  if (units === null) fail('SOL has at most 9 decimals');
  if (units! > U64_MAX) fail('it is more than the largest possible amount (u64)');
  return units!;
}

/** Whole tokens as typed: a number, then a unit (a symbol or `tokens`) that starts with a letter. */
const WHOLE_TOKENS = /^([0-9][0-9.]*)([A-Za-z_][A-Za-z0-9._-]*)$/;
/** Longest unit: a symbol as a <token> may be typed (16 characters). */
const MAX_UNIT_LENGTH = 16;

/**
 * `trader sell` amount: raw token units (positive, ≤ u64), whole tokens with the token's symbol
 * or `tokens` as unit (`1.5sgld`, `1.5tokens`: the unit and the decimal places are checked
 * against the token once its holding is read), `all`, or `N%` with N a whole number 1–100. A
 * bare decimal (`1.5`) is refused: it could mean either. `symbol`, when the token was typed as
 * one, makes the error's example that token's.
 */
export function parseSellAmount(typed: string, symbol?: string): SellAmountSpec {
  const accepted = `use raw token units (1000000), whole tokens with the symbol or "tokens" (1.5${symbol?.toLowerCase() ?? 'sgld'}, 1.5tokens), all, or a whole percentage from 1% to 100%`;
  const fail = (why: string): never => {
    throw new UsageError(`invalid amount ${quote(typed)}: ${why}; ${accepted}`);
  };
  if (typeof typed !== 'string' || typed === '') fail('it is empty');
  const s = withoutGroups(typed, fail);
  if (/^-[0-9.]/.test(s)) fail('it is negative; a sell sells more than zero');
  if (s.toLowerCase() === 'all') return { kind: 'all' };
  const pct = /^(.*)%$/.exec(s);
  if (pct) {
    if (!isCanonicalIntegerString(pct[1]!)) fail('the percentage must be a whole number');
    const percent = BigInt(pct[1]!);
    if (percent < 1n || percent > 100n) fail('the percentage must be from 1 to 100');
    return { kind: 'percent', percent };
  }
  if (/^0x/i.test(s) || /^[0-9.]+e[0-9]+$/i.test(s)) fail('not a whole number');
  const whole = WHOLE_TOKENS.exec(s);
  if (whole) {
    const [, number, unit] = whole as unknown as [string, string, string];
    if (!DECIMAL.test(number)) fail(`${quote(number)} is not a plain decimal number (write 0.5, not .5 or 05)`);
    if (unit.length > MAX_UNIT_LENGTH) fail(`${quote(printable(unit))} is not a token symbol`);
    if (/^[0.]*$/.test(number)) fail('it must be more than zero');
    return { kind: 'tokens', text: s, number, unit };
  }
  if (/^[0-9]*\.[0-9]*$/.test(s)) {
    if (!DECIMAL.test(s)) fail('not a plain decimal number (write 0.5, not .5 or 5.)');
    const unit = symbol ? `${s}${symbol.toLowerCase()} or ${s}tokens` : `${s}tokens`;
    fail(`a number with decimal places is whole tokens and needs the unit: ${unit}`);
  }
  if (!isCanonicalIntegerString(s)) fail('not a whole number');
  const units = BigInt(s);
  if (units === 0n) fail('it must be more than zero');
  if (units > U64_MAX) fail('it is more than the largest possible amount (u64)');
  return { kind: 'raw', units };
}

// ---------------------------------------------------------------------------------------------
// Page sizes

/** Page size: a whole number 1–100. */
export function parseLimit(s: string, option = '--limit'): number {
  return Number(parseIntegerInRange(s, option, 1n, 100n, 'a whole number from 1 to 100'));
}

// ---------------------------------------------------------------------------------------------
// Addresses and tokens

/** The <token> of buy and sell: a mint, or a symbol or mint prefix looked up once the service is reachable. */
export type TokenArgument = { kind: 'mint'; mint: string } | { kind: 'lookup'; text: string };

const SYMBOL = /^\$?[A-Za-z0-9._-]{1,16}$/;
const MINT_PREFIX = new RegExp(`^[1-9A-HJ-NP-Za-km-z]{${MIN_MINT_PREFIX},44}$`);

/** A typed token (buy's and sell's <token>, pnl's --token); `whose` says which tokens a symbol may name, `what` names the value in the error. */
export function parseTokenArgument(value: string, whose: string, what = 'token'): TokenArgument {
  if (isAddress(value)) return { kind: 'mint', mint: value };
  if (SYMBOL.test(value) || MINT_PREFIX.test(value)) return { kind: 'lookup', text: value };
  throw new UsageError(
    `${what} must be a mint address (base58, 32 bytes), or the symbol or first ${MIN_MINT_PREFIX}+ characters of the mint of a token ${whose}; got "${printable(value)}"`,
  );
}

// ---------------------------------------------------------------------------------------------
// Ids

/** Fewest characters of an id that may be typed for it. */
export const MIN_PREFIX_LENGTH = 8;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_SHAPE = 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';

/** A uuid id (buy intents, positions), lower-cased. */
function parseUuid(value: string, what: string): string {
  if (!UUID.test(value)) throw new UsageError(`${what} must be a uuid like 3f0c2a9e-…, got "${printable(value)}"`);
  return value.toLowerCase();
}

/** An id as typed: whole, or a prefix to look up among the account's ids. */
export type TypedId = { kind: 'full'; id: string } | { kind: 'prefix'; prefix: string };

/** True when `value` could be the start of a uuid (hex digits, dashes where a uuid has them). */
function uuidShaped(value: string): boolean {
  if (value.length === 0 || value.length > UUID_SHAPE.length) return false;
  return Array.from(value).every((c, i) => (UUID_SHAPE[i] === '-' ? c === '-' : /[0-9a-f]/i.test(c)));
}

/** What a table shows after a shortened id, dropped when it is copied with the id. */
const ELLIPSIS = /(…|\.\.\.)$/;

/**
 * A typed uuid or uuid prefix (a trailing `…` copied from a table is dropped). Exit 2 for what
 * can be neither, and for a prefix shorter than 8 characters.
 */
export function parseUuidOrPrefix(value: string, what: string): TypedId {
  const typed = value.replace(ELLIPSIS, '');
  if (typed.length === UUID_SHAPE.length) return { kind: 'full', id: parseUuid(typed, what) };
  if (!uuidShaped(typed)) {
    throw new UsageError(
      `${what} must be a uuid like 3f0c2a9e-…, or its first ${MIN_PREFIX_LENGTH} or more characters; got "${printable(value)}"`,
    );
  }
  if (typed.length < MIN_PREFIX_LENGTH) {
    throw new UsageError(
      `${what} "${printable(value)}" is too short: type at least ${MIN_PREFIX_LENGTH} characters of it, or the whole id`,
    );
  }
  return { kind: 'prefix', prefix: typed.toLowerCase() };
}

/**
 * A trade id as typed whole: a buy uuid, a `sell_…` authorization id, or a sell group key (whose
 * format the API does not show, so only what can never be an id is refused).
 */
function parseTradeId(value: string): string {
  if (value.startsWith('sell_')) {
    if (!/^sell_[A-Za-z0-9_-]{1,128}$/.test(value))
      throw new UsageError(`sell id must be sell_ followed by letters or digits, got "${printable(value)}"`);
    return value;
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9_:.-]{0,199}$/.test(value)) {
    throw new UsageError(
      `trade id must be a buy id (uuid), a sell_… id or a trade id of letters, digits and _ : . -, got "${printable(value)}"`,
    );
  }
  return value;
}

/** `trades <id>`: a whole id, or what has the shape of the start of a uuid (`typed` is it as typed, for a group key). */
export type TypedTradeId = { kind: 'full'; id: string } | { kind: 'prefix'; prefix: string; typed: string };

/**
 * `trades <id>`: a `sell_…` id, a sell group key or a buy id is taken whole; what has the shape
 * of the start of a uuid is a prefix, looked up among the account's buys later.
 */
export function parseTradeIdArgument(value: string): TypedTradeId {
  const typed = value.replace(ELLIPSIS, '');
  // A sell id as a table shows it (`sell_Xjk…`) is looked up in the journal later (journal/opened-journal.ts).
  if (typed.startsWith('sell_')) return { kind: 'full', id: parseTradeId(typed) };
  if (typed.length === UUID_SHAPE.length || !uuidShaped(typed)) return { kind: 'full', id: parseTradeId(value) };
  const id = parseUuidOrPrefix(typed, 'trade id');
  return id.kind === 'full' ? id : { kind: 'prefix', prefix: id.prefix, typed };
}

/** An idempotency key typed to resume a trade: printable, no spaces, at most 128 characters. */
export function parseIdempotencyKey(value: string): string {
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(value)) {
    throw new UsageError(`--idempotency-key must be 1-128 letters, digits or . _ : -, got "${printable(value)}"`);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Lists

/** `--type buy,sell`: each value one of the documented activity types. */
export function parseActivityTypes(value: string): ActivityType[] {
  const types = value.split(',').map((t) => t.trim());
  for (const t of types) {
    if (!(ACTIVITY_TYPES as readonly string[]).includes(t)) {
      throw new UsageError(
        `--type must be a comma-separated list of ${ACTIVITY_TYPES.join(', ')}; "${printable(t)}" is not one`,
      );
    }
  }
  return [...new Set(types)] as ActivityType[];
}

/** `--status` of positions: one of the documented statuses. */
export function parsePositionStatus(value: string): string {
  if (!(POSITION_STATUSES as readonly string[]).includes(value)) {
    throw new UsageError(`--status must be one of ${POSITION_STATUSES.join(', ')}; got "${printable(value)}"`);
  }
  return value;
}

/** `--cursor`: opaque, but never empty and never with control characters. */
export function parseCursor(value: string): string {
  if (value === '' || value.length > 2048 || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new UsageError('--cursor must be the nextCursor value from a previous page');
  }
  return value;
}

/** `--csv`: one output format per run, so never with --json. */
export function parseCsvFlag(csv: boolean, json: boolean): boolean {
  if (csv && json) throw new UsageError('--csv and --json cannot be used together: choose one output format');
  return csv;
}

/**
 * `--since`: a date (`2026-01-01`, the start of that day in local time) or an ISO 8601 date-time
 * with its zone (`2026-01-01T00:00:00Z`, `…+02:00`). Returns epoch ms.
 */
export function parseSince(value: string): number {
  const fail = (): never => {
    throw new UsageError(
      `--since must be a date like 2026-01-01 or an ISO date-time like 2026-01-01T00:00:00Z, got "${printable(value)}"`,
    );
  };
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const date = new Date(y, m - 1, d);
    // Refuse what the Date constructor would quietly roll over (2026-02-30 → March 2).
    if (date.getFullYear() !== y || date.getMonth() !== m - 1 || date.getDate() !== d) fail();
    return date.getTime();
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(value)) fail();
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? fail() : ms;
}

// ---------------------------------------------------------------------------------------------
// The service URL: one rule for --base-url, TRADER_BASE_URL, `config set baseUrl`, `config init` and the client

// ---------------------------------------------------------------------------------------------
// Words from a fixed list, profile names, ports

/** One of a fixed list of words (a shell, what to forget). */
export function parseChoice<T extends string>(value: string, choices: readonly T[], what: string): T {
  if (!(choices as readonly string[]).includes(value))
    throw new UsageError(`${what} must be one of ${choices.join(', ')}; got "${printable(value)}"`);
  return value as T;
}

/** A config profile's name to write: letters, digits, `.`, `_` and `-`, at most 64 (what `--profile` then takes as typed). */
export function parseProfileName(value: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(value))
    throw new UsageError(
      `--write-profile takes a profile name of letters, digits, ".", "_" and "-" (at most 64), got "${printable(value)}"`,
    );
  return value;
}

/** A TCP port to listen on, 0 (any free port) to 65535. */
export function parsePort(value: string, option = '--port'): number {
  if (!/^\d+$/.test(value) || Number(value) > 65_535)
    throw new UsageError(`${option} must be 0-65535, got "${printable(value)}"`);
  return Number(value);
}
