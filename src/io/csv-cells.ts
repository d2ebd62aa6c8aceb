// What goes into one CSV cell: plain text a spreadsheet shows as it is. Text that a
// spreadsheet would run as a formula is neutralised; numbers we write stay numbers.
import { numberToFraction } from '../domain/usd.js';

/** Text columns hold service text (names, ids, statuses); number columns hold figures we wrote. */
export type CellKind = 'text' | 'number';

// Spreadsheets start a formula at = + - @ (and their full-width forms, which some convert), and
// Excel also after a leading tab, CR or LF; leading spaces are skipped by some importers.
const FORMULA_START = /^[\s]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r\n]/;
/** A plain decimal number: what our number columns hold (a minus sign only for negative figures). */
const PLAIN_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** Text that could run as a formula, prefixed with an apostrophe (shown, not evaluated); other text unchanged. */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * The cell text of a value. Null is an empty cell. A number column writes a plain decimal
 * (negative figures with a leading minus) and anything else in it is treated as text.
 */
export function cellText(value: string | number | boolean | null | undefined, kind: CellKind): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = typeof value === 'number' ? plainDecimal(value) : value;
  return kind === 'number' && PLAIN_NUMBER.test(text) ? text : neutralise(text);
}

/** A JSON number as plain decimal text, never in exponent form: 2e-7 → "0.0000002". */
export function plainDecimal(n: number): string {
  const f = numberToFraction(n);
  if (f === null) return '';
  const negative = f.num < 0n;
  const digits = (negative ? -f.num : f.num).toString();
  const places = f.den.toString().length - 1; // den is a power of ten
  if (places === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(places + 1, '0');
  return `${negative ? '-' : ''}${padded.slice(0, -places)}.${padded.slice(-places)}`;
}
