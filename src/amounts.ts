// Money as integers: lamports and raw token units are bigints from parse to print.
// Every conversion here is exact string work; no amount ever passes through a float.
// Parsers take the raw text of one argument and throw a one-line UsageError that names
// the option and says what is accepted.

import { UsageError } from './errors.js';

/** Largest value of a Solana u64 (lamports, token units). */
export const U64_MAX = 18_446_744_073_709_551_615n;
/** Lamports in one SOL. */
export const LAMPORTS_PER_SOL = 1_000_000_000n;
/** Decimals of SOL. */
export const SOL_DECIMALS = 9;

/** A non-negative integer without leading zeros (a lone `0` is fine). */
const CANONICAL_INTEGER = /^(0|[1-9][0-9]*)$/;
/** A decimal: integer part without leading zeros, optional `.` and at least one fraction digit. */
const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/** True when `s` is a decimal integer string in canonical form (what the API sends for amounts). */
export function isCanonicalIntegerString(s: unknown): s is string {
  return typeof s === 'string' && CANONICAL_INTEGER.test(s);
}

/**
 * Exact value of `intPart.fracPart` in units of 10^-decimals, or null when the fraction has more
 * digits than `decimals` allows. Both parts must be digit strings (fracPart may be empty).
 */
function decimalToUnits(intPart: string, fracPart: string, decimals: number): bigint | null {
  if (fracPart.length > decimals) return null;
  return BigInt(intPart + fracPart.padEnd(decimals, '0'));
}

function quote(s: string): string {
  return JSON.stringify(s);
}

// ---------------------------------------------------------------------------------------------
// Parsers

/**
 * `trader buy` amount, in lamports. Accepted: a positive whole number of lamports (`100000000`),
 * or SOL with a case-insensitive `sol` suffix (`0.1sol`, `1SOL`), at most 9 decimals, converted
 * exactly. Deliberately refused: `.5sol` and `5.sol` (write `0.5sol`, `5sol`), leading zeros,
 * signs, spaces, exponents, hex, thousands separators, zero, and anything above the u64 maximum.
 */
export function parseBuyAmount(s: string): bigint {
  const accepted = 'use lamports as a positive whole number (100000000) or SOL with the suffix sol (0.1sol)';
  const fail = (why: string): never => {
    throw new UsageError(`invalid amount ${quote(s)}: ${why}; ${accepted}`);
  };
  if (typeof s !== 'string' || s === '') fail('it is empty');
  if (/^-[0-9.]/.test(s)) fail('it is negative; a buy spends more than zero');
  let lamports: bigint;
  const sol = /^(.*)sol$/i.exec(s);
  if (sol) {
    const m = DECIMAL.exec(sol[1]!);
    if (!m) fail('not a plain decimal number of SOL');
    const units = decimalToUnits(m![1]!, m![2] ?? '', SOL_DECIMALS);
    if (units === null) fail('SOL has at most 9 decimals');
    lamports = units!;
  } else {
    if (!CANONICAL_INTEGER.test(s)) {
      fail(/^[0-9]*\.[0-9]*$/.test(s) ? 'a decimal amount needs the suffix sol' : 'not a whole number');
    }
    lamports = BigInt(s);
  }
  if (lamports === 0n) fail('it must be more than zero');
  if (lamports > U64_MAX) fail('it is more than the largest possible amount (u64)');
  return lamports;
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

export type SellAmountSpec =
  | { kind: 'raw'; units: bigint }
  | { kind: 'all' }
  | { kind: 'percent'; percent: bigint };

/** `trader sell` amount: raw token units (positive, ≤ u64), `all`, or `N%` with N a whole number 1–100. */
export function parseSellAmount(s: string): SellAmountSpec {
  const accepted = 'use raw token units (1000000), all, or a whole percentage from 1% to 100%';
  const fail = (why: string): never => {
    throw new UsageError(`invalid amount ${quote(s)}: ${why}; ${accepted}`);
  };
  if (typeof s !== 'string' || s === '') fail('it is empty');
  if (/^-[0-9.]/.test(s)) fail('it is negative; a sell sells more than zero');
  if (s.toLowerCase() === 'all') return { kind: 'all' };
  const pct = /^(.*)%$/.exec(s);
  if (pct) {
    if (!CANONICAL_INTEGER.test(pct[1]!)) fail('the percentage must be a whole number');
    const percent = BigInt(pct[1]!);
    if (percent < 1n || percent > 100n) fail('the percentage must be from 1 to 100');
    return { kind: 'percent', percent };
  }
  if (!CANONICAL_INTEGER.test(s)) {
    fail(/^[0-9]*\.[0-9]*$/.test(s) ? 'token amounts are raw units, without decimals' : 'not a whole number');
  }
  const units = BigInt(s);
  if (units === 0n) fail('it must be more than zero');
  if (units > U64_MAX) fail('it is more than the largest possible amount (u64)');
  return { kind: 'raw', units };
}

/**
 * Turns a sell amount into raw units given what is held. A percentage rounds down. Refuses
 * (UsageError) nothing held, a result of zero, and a raw amount above the holding.
 * `describe` formats units for the message (default: raw units with separators).
 */
export function resolveSellAmount(
  spec: SellAmountSpec,
  heldUnits: bigint,
  describe: (units: bigint) => string = (u) => `${formatInteger(u)} raw units`,
): bigint {
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

function parseIntegerInRange(s: string, option: string, min: bigint, max: bigint, what: string): bigint {
  if (typeof s !== 'string' || !CANONICAL_INTEGER.test(s)) {
    throw new UsageError(`invalid ${option} ${quote(String(s))}: use ${what}`);
  }
  const n = BigInt(s);
  if (n < min || n > max) throw new UsageError(`invalid ${option} ${quote(s)}: use ${what}`);
  return n;
}

/** Slippage in basis points: a whole number 0–10000. */
export function parseSlippageBps(s: string, option = '--slippage-bps'): number {
  return Number(parseIntegerInRange(s, option, 0n, 10_000n, 'a whole number of basis points from 0 to 10000'));
}

/** Page size: a whole number 1–100. */
export function parseLimit(s: string, option = '--limit'): number {
  return Number(parseIntegerInRange(s, option, 1n, 100n, 'a whole number from 1 to 100'));
}

/** Lamports option such as --max-fee-lamports: a whole number 0 … u64 max. */
export function parseLamportsOption(s: string, option = '--max-fee-lamports'): bigint {
  return parseIntegerInRange(s, option, 0n, U64_MAX, 'a whole number of lamports (0 or more)');
}

/** Longest wait accepted, in seconds: Node timers cannot go beyond 2^31-1 ms (about 24.8 days). */
export const MAX_SECONDS = 2_147_483;

/**
 * A positive number of seconds (decimals allowed, `1.5`), at least `min` when given and at most
 * MAX_SECONDS. Used by --timeout, --interval (min 2) and --request-timeout. Returns seconds.
 */
export function parseSeconds(s: string, opts: { min?: number; option?: string } = {}): number {
  const option = opts.option ?? 'seconds value';
  const min = opts.min;
  const what =
    min !== undefined ? `a number of seconds, at least ${min}` : 'a positive number of seconds';
  if (typeof s !== 'string' || !DECIMAL.test(s)) {
    throw new UsageError(`invalid ${option} ${quote(String(s))}: use ${what}`);
  }
  const n = Number(s);
  if (!(n > 0) || (min !== undefined && n < min) || n > MAX_SECONDS) {
    throw new UsageError(`invalid ${option} ${quote(s)}: use ${what} (at most ${MAX_SECONDS})`);
  }
  return n;
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
