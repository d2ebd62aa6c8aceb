// Money as integers: lamports and raw token units are bigints from parse to print.
// Every conversion here is exact string work; no amount ever passes through a float.
// Parsing what a user types is argument-parsers.ts; this is the arithmetic and the formatting.

import { UsageError } from './errors.js';
import { counted, lamports as lamportCount } from './units.js';

/** Largest value of a Solana u64 (lamports, token units). */
export const U64_MAX = 18_446_744_073_709_551_615n;
/** Lamports in one SOL. */
export const LAMPORTS_PER_SOL = 1_000_000_000n;
/** Decimals of SOL. */
export const SOL_DECIMALS = 9;

/** A non-negative integer without leading zeros (a lone `0` is fine). */
const CANONICAL_INTEGER = /^(0|[1-9][0-9]*)$/;

/** True when `s` is a decimal integer string in canonical form (what the API sends for amounts). */
export function isCanonicalIntegerString(s: unknown): s is string {
  return typeof s === 'string' && CANONICAL_INTEGER.test(s);
}

/**
 * Exact value of `intPart.fracPart` in units of 10^-decimals, or null when the fraction has more
 * digits than `decimals` allows. Both parts must be digit strings (fracPart may be empty).
 */
export function decimalToUnits(intPart: string, fracPart: string, decimals: number): bigint | null {
  if (fracPart.length > decimals) return null;
  return BigInt(intPart + fracPart.padEnd(decimals, '0'));
}

function quote(s: string): string {
  return JSON.stringify(s);
}

/** Whole tokens as typed: the number (`1.5`) and the unit after it (a symbol or `tokens`), as typed. */
export interface WholeTokens {
  /** The amount as typed (`1.5sgld`), for messages and to split again by the real symbol. */
  text: string;
  /** The number part as first split (`1.5`): digits, an optional point and fraction digits. */
  number: string;
  /** What follows the number (`sgld`, `tokens`), as typed. */
  unit: string;
}

/** A sell's amount as typed: raw units, whole tokens with a unit, all of the holding, or a whole percentage of it. */
export type SellAmountSpec =
  | { kind: 'raw'; units: bigint }
  | ({ kind: 'tokens' } & WholeTokens)
  | { kind: 'all' }
  | { kind: 'percent'; percent: bigint };

/** The unit that means whole tokens of whatever token is sold. */
export const WHOLE_TOKENS_UNIT = 'tokens';

/** A plain decimal: integer part without leading zeros, optional `.` and at least one fraction digit. */
export const DECIMAL_NUMBER = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * Whole tokens (`1.5sgld`, `1.5tokens`) in raw units of the token sold, exactly: the unit must be
 * `tokens` or the token's symbol (case-insensitive); the decimals must be known and the number
 * may have at most that many decimal places (never rounded). Throws UsageError (exit 2) otherwise.
 */
export function wholeTokensToUnits(
  amount: WholeTokens,
  token: { symbol: string | null; decimals: number | null } | null,
): bigint {
  const fail = (why: string): never => {
    throw new UsageError(`invalid amount ${quote(amount.text)}: ${why}`);
  };
  const symbol = token?.symbol ?? null;
  const lower = amount.text.toLowerCase();
  // Split again by the real symbol: a symbol may start with digits (`1INCH`: `2.51inch`).
  let number: string;
  if (amount.unit.toLowerCase() === WHOLE_TOKENS_UNIT) number = amount.number;
  else if (
    symbol !== null &&
    symbol !== '' &&
    lower.endsWith(symbol.toLowerCase()) &&
    DECIMAL_NUMBER.test(amount.text.slice(0, -symbol.length))
  ) {
    number = amount.text.slice(0, -symbol.length);
  } else {
    return fail(
      symbol === null
        ? `the service gives no symbol for this token, so "${amount.unit}" cannot be checked; write ${amount.number}tokens`
        : `"${amount.unit}" is not the symbol of the token being sold (${symbol}); write ${amount.number}${symbol.toLowerCase()} or ${amount.number}tokens`,
    );
  }
  const decimals = token?.decimals ?? null;
  if (decimals === null || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    return fail(
      "neither the chain (at --rpc-url) nor the service gives this token's decimals, so whole tokens cannot be converted exactly; give raw units instead",
    );
  }
  const m = DECIMAL_NUMBER.exec(number)!;
  const fraction = m[2] ?? '';
  const units = decimalToUnits(m[1]!, fraction, decimals);
  const name = symbol ?? 'this token';
  if (units === null) {
    return fail(
      decimals === 0
        ? `${name} has 0 decimals: whole tokens only, no decimal places; nothing is rounded`
        : `${name} has ${decimals} decimals, so at most ${decimals} decimal places (got ${fraction.length}); nothing is rounded`,
    );
  }
  if (units === 0n) fail('it must be more than zero');
  if (units > U64_MAX) fail('it is more than the largest possible amount (u64)');
  return units;
}

/**
 * Turns a sell amount into raw units given what is held (and, for whole tokens, the token's
 * symbol and decimals). A percentage rounds down. Refuses (UsageError) nothing held, a result
 * of zero, and an amount above the holding.
 * `describe` formats units for the message (default: raw units with separators).
 */
export function resolveSellAmount(
  spec: SellAmountSpec,
  heldUnits: bigint,
  describe: (units: bigint) => string = (u) => counted(u, 'raw unit', formatInteger(u)),
  token: { symbol: string | null; decimals: number | null } | null = null,
): bigint {
  // Whole tokens are raw units once converted; a mistyped unit or too many places is the error to fix first.
  if (spec.kind === 'tokens')
    return resolveSellAmount({ kind: 'raw', units: wholeTokensToUnits(spec, token) }, heldUnits, describe);
  if (heldUnits <= 0n) throw new UsageError('nothing of this token is held, so there is nothing to sell');
  switch (spec.kind) {
    case 'all':
      return heldUnits;
    case 'percent': {
      const units = (heldUnits * spec.percent) / 100n;
      if (units === 0n) {
        throw new UsageError(
          `${spec.percent}% of the holding (${describe(heldUnits)}) rounds down to zero; sell a larger share or all`,
        );
      }
      return units;
    }
    case 'raw':
      if (spec.units > heldUnits) {
        throw new UsageError(
          `cannot sell ${describe(spec.units)}: only ${describe(heldUnits)} held; use all or a smaller amount`,
        );
      }
      return spec.units;
  }
}

// ---------------------------------------------------------------------------------------------
// Formatting

function toBigInt(v: bigint | string, what: string): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'string' && /^-?[0-9]+$/.test(v)) return BigInt(v);
  throw new TypeError(`${what} is not an integer: ${quote(String(v))}`);
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * `units` as an exact decimal with `decimals` places, trailing zeros trimmed, no separators:
 * (49500000n, 9) → "0.0495", (1500n, 0) → "1500". Used by the message checks.
 */
export function toDecimalString(units: bigint, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`invalid decimals: ${decimals}`);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString();
  if (decimals === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(decimals + 1, '0');
  const intPart = padded.slice(0, padded.length - decimals);
  const frac = padded.slice(padded.length - decimals).replace(/0+$/, '');
  return (negative ? '-' : '') + intPart + (frac ? `.${frac}` : '');
}

function withSeparators(decimal: string): string {
  const negative = decimal.startsWith('-');
  const body = negative ? decimal.slice(1) : decimal;
  const [intPart, frac] = body.split('.');
  return (negative ? '-' : '') + groupThousands(intPart!) + (frac !== undefined ? `.${frac}` : '');
}

/** An integer with thousands separators: 1234567 → "1,234,567". Throws TypeError on a non-integer string. */
export function formatInteger(v: bigint | string): string {
  return withSeparators(toBigInt(v, 'value').toString());
}

/** Lamports as SOL, exact, separators in the integer part: 1234500000000 → "1,234.5". No unit appended. */
export function formatSol(lamports: bigint | string): string {
  return withSeparators(toDecimalString(toBigInt(lamports, 'lamports'), SOL_DECIMALS));
}

/** `0.01 SOL (10000000 lamports)`: a SOL amount, its lamports beside it. */
export function solAndLamports(lamports: bigint | string): string {
  return `${formatSol(lamports)} SOL (${lamportCount(lamports)})`;
}

/** `1000000000 lamports (1 SOL)`: a value held in lamports (a config key), its SOL beside it. */
export function lamportsAndSol(lamports: bigint | string): string {
  return `${lamportCount(lamports)} (${formatSol(lamports)} SOL)`;
}

/**
 * Raw token units as a decimal in whole tokens, exact, separators in the integer part.
 * Unknown or invalid decimals (null, not an integer 0–255) → the raw units with separators.
 */
export function formatTokenAmount(units: bigint | string, decimals: number | null): string {
  const n = toBigInt(units, 'token amount');
  if (decimals === null || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    return formatInteger(n);
  }
  return withSeparators(toDecimalString(n, decimals));
}

/**
 * A USD value from the API (already a float there): "$1,234.56", "-$3.10"; "—" for null or a
 * non-finite number. Amounts below one cent keep four significant digits ("$0.00001234"), so
 * memecoin prices stay readable.
 */
export function formatUsd(n: number | null): string {
  if (n === null || typeof n !== 'number' || !Number.isFinite(n)) return '—';
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  let text: string;
  if (abs !== 0 && abs < 0.01) {
    // toPrecision may use exponent notation for tiny numbers; toFixed with enough places does not.
    const places = Math.min(20, Math.max(2, -Math.floor(Math.log10(abs)) + 3));
    text = abs.toFixed(places).replace(/0+$/, '');
    if (text.endsWith('.')) text = '0.00'; // below 10^-20: nothing worth showing
  } else {
    text = abs.toFixed(2);
  }
  return `${sign}$${withSeparators(text)}`;
}

/**
 * SOL per whole token when `lamports` buy `units` raw units of a token with `decimals`, rounded
 * to `significant` significant digits (half up), as an exact decimal with separators:
 * (500000000n, 3710663221700n, 5) → "0.0000001347". Bigint arithmetic throughout.
 */
export function solPerToken(lamports: bigint, units: bigint, decimals: number, significant = 4): string {
  if (units <= 0n || lamports < 0n || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new RangeError('solPerToken needs a positive token amount, non-negative lamports and valid decimals');
  }
  if (lamports === 0n) return '0';
  // The value is lamports × 10^decimals ÷ (units × 10^9); scaled by 10^scale it has at least `significant` digits.
  const numerator = lamports * 10n ** BigInt(decimals);
  const denominator = units * LAMPORTS_PER_SOL;
  const floor = 10n ** BigInt(significant - 1);
  let scale = 0;
  while ((numerator * 10n ** BigInt(scale)) / denominator < floor) scale++;
  const scaled = numerator * 10n ** BigInt(scale);
  let digits = scaled / denominator;
  let extra = digits.toString().length - significant;
  if (extra > 0) {
    const unit = 10n ** BigInt(extra);
    digits = (digits + unit / 2n) / unit; // half up
  } else {
    // Exactly `significant` digits: round on what the division left over.
    if ((scaled % denominator) * 2n >= denominator) digits += 1n;
    extra = 0;
  }
  const exponent = extra - scale; // value = digits × 10^exponent
  if (exponent >= 0) return formatInteger(digits * 10n ** BigInt(exponent));
  return withSeparators(toDecimalString(digits, -exponent));
}
