// A token in a table cell: its symbol, else its mint as a prefix that can be typed back
// (`buy`/`sell` take a unique mint prefix of 8 or more characters), or whole with --wide.
import { oneLine } from '../io/terminal-text.js';

/**
 * The Token column: a long symbol may wrap at its spaces to fit (to 5 characters, never inside a
 * word), a mint prefix never (it would no longer be typeable); 13 wide holds `(claims WOOF)`.
 */
export function tokenColumn(cells: string[], symbols: Array<string | null | undefined>) {
  const prefixes = cells.filter((_, i) => !symbols[i]).map((c) => Array.from(c).length);
  return { header: 'Token', maxWidth: 13, shrinkTo: Math.max(5, ...prefixes) };
}

/** `WOOF`, `GFmFPoog…`, the whole mint, or `—` when there is none. */
export function tokenCell(symbol: string | null | undefined, mint: string | null | undefined, wide = false): string {
  if (symbol) return oneLine(symbol);
  if (!mint) return '—';
  return wide || mint.length <= 9 ? mint : `${mint.slice(0, 8)}…`;
}
