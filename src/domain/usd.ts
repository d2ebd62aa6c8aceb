// USD as integers: the API reports USD as JSON numbers; P&L arithmetic takes each one at its
// exact decimal value (the shortest text that round-trips, as JSON printed it) and works in
// bigint cents, so sums and differences never drift. Rounding is stated, never implicit.

/** An exact fraction `num / den` (den > 0). */
export interface Fraction {
  num: bigint;
  den: bigint;
}

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/** The exact decimal a finite JSON number stands for (`0.1` → 1/10, `1e-7` → 1/10000000; den a power of ten, reduced); null if not finite. */
export function numberToFraction(n: number): Fraction | null {
  if (typeof n !== 'number' || !Number.isFinite(n)) return null;
  const m = NUMBER_TEXT.exec(String(n));
  if (!m) return null;
  const [, sign, int, frac = '', exp = '0'] = m;
  let num = BigInt(`${sign}${int}${frac}`);
  let den = 10n ** BigInt(frac.length);
  const e = Number(exp);
  if (e >= 0) num *= 10n ** BigInt(e);
  else den *= 10n ** BigInt(-e);
  while (den > 1n && num % 10n === 0n) {
    num /= 10n;
    den /= 10n;
  }
  return { num, den };
}

/** `n / d` rounded to the nearest integer, halves away from zero (d ≠ 0). */
export function divRound(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new RangeError('division by zero');
  if (d < 0n) return divRound(-n, -d);
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const q = (abs * 2n + d) / (2n * d);
  return negative ? -q : q;
}

/** A USD number from the API in whole cents, halves away from zero (`15.605` → 1561); null for null or non-finite. */
export function usdToCents(n: number | null): bigint | null {
  if (n === null) return null;
  const f = numberToFraction(n);
  return f === null ? null : divRound(f.num * 100n, f.den);
}

/** Cents as a plain decimal with two places: 1234n → "12.34", -5n → "-0.05". */
export function centsToDecimal(cents: bigint): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Hundredths (of a percent) as a plain decimal with two places: 1490n → "14.90". */
export const hundredthsToDecimal = centsToDecimal;

/** Cents for people: "$1,234.56", "-$3.10"; with `signed`, gains get a "+" ("+$7.79"). */
export function formatCents(cents: bigint, opts: { signed?: boolean } = {}): string {
  const text = centsToDecimal(cents < 0n ? -cents : cents);
  const [int, frac] = text.split('.');
  const sign = cents < 0n ? '-' : opts.signed && cents > 0n ? '+' : '';
  return `${sign}$${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/** `part / whole` as hundredths of a percent, halves away from zero (whole > 0): 42.1% → 4210n. */
export function percentHundredths(part: bigint, whole: bigint): bigint {
  return divRound(part * 10_000n, whole);
}
