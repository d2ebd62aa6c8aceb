// A token in a table cell: its symbol, else its mint as a prefix that can be typed back
// (`buy`/`sell` take a unique mint prefix of 8 or more characters), or whole with --wide.
import { oneLine } from '../io/terminal-text.js';
import { tokenTextKey } from '../domain/token-text.js';
import { WRAPPED_SOL_MINT } from '../domain/address.js';
import { uniquePrefixes } from '../io/table.js';

/** A Token cell, and the text it may wrap at (a symbol or a claim); null: a mint, never wrapped. */
export interface TokenCellText {
  cell: string;
  symbol: string | null;
}

/**
 * The Token column: a long symbol may wrap at its spaces to fit (to 5 characters, never inside a
 * word), a mint prefix never (it would no longer be typeable); 13 wide holds `(claims WOOF)`.
 */
export function tokenColumn(tokens: TokenCellText[]) {
  const prefixes = tokens.filter((t) => !t.symbol).map((t) => Array.from(t.cell).length);
  return { header: 'Token', maxWidth: 13, shrinkTo: Math.max(5, ...prefixes) };
}

/** `WOOF`, `GFmFPoog…`, the whole mint, or `—` when there is none. */
function tokenCell(symbol: string | null | undefined, mint: string | null | undefined, wide = false): string {
  if (symbol) return oneLine(symbol);
  if (!mint) return '—';
  return wide || mint.length <= 9 ? mint : `${mint.slice(0, 8)}…`;
}

/**
 * What a symbol may be written in and stand bare: ASCII letters, digits and `$._+-`, or the
 * scripts whose letters no reader takes for Latin ones (Han, kana, Hangul syllables) and emoji.
 * Anything else (Cyrillic О, Greek Α, ł, math 𝐖, circled Ⓦ, Canadian ᗯ, Hangul jamo ㅇ, ∪, …)
 * can pass for another token's letters; an allow-list, as no list of look-alikes is ever whole.
 */
const WRITTEN_PLAIN =
  /^(?:[A-Za-z0-9$._+-]|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\uAC00-\uD7A3]|\p{Extended_Pictographic}|\uFE0F)+$/u;

/**
 * Whether a symbol can stand bare without passing for something else: written plainly (above,
 * and unchanged by NFKC), and nothing that reads as a mint's prefix in the tool's notation: no
 * run of 8 or more base58 characters, none of 6 or more ending in dots (`F9EMmE5i...`).
 */
const plainSymbol = (symbol: string): boolean =>
  symbol.normalize('NFKC') === symbol &&
  // The words a table writes itself: its total row.
  symbol.toLowerCase() !== 'total' &&
  WRITTEN_PLAIN.test(symbol) &&
  !/[1-9A-HJ-NP-Za-km-z]{8,}/.test(symbol) &&
  !/[1-9A-HJ-NP-Za-km-z]{6,}\.+$/.test(symbol);

/**
 * A symbol as a glance reads it beside another in one table: look-alikes folded (token-text.ts),
 * and the ASCII shapes taken for letters: 0 for O, 1 and I for l, VV for W, rn for m (`W00F` is WOOF here).
 */
const readAlike = (symbol: string): string =>
  tokenTextKey(symbol).replace(/0/g, 'o').replace(/[1i]/g, 'l').replace(/vv/g, 'w').replace(/rn/g, 'm');

/** Whether a symbol reads as SOL (or wrapped SOL), 0 read as O and 1 or I as l: `S0L`, `wSOL`. */
const readsAsSol = (symbol: string): boolean => ['sol', 'wsol'].includes(readAlike(symbol));

/**
 * The Token cells of one table, each row's symbol and mint (a claim is a symbol bound to another
 * mint). A symbol stands for its token only where it tells it apart: it is plain (above), no
 * other mint in the table shows it as its symbol (look-alikes folded; a claim does not take a
 * bound symbol from its mint) and it is not SOL on a mint that is not wrapped SOL. Otherwise the
 * mint's short form shows, the symbol only as its claim: `GFmFPoog… (claims WOOF)`.
 */
export function tokenCells(
  rows: Array<{ symbol?: string | null; mint?: string | null; claims?: string | null }>,
  wide = false,
): TokenCellText[] {
  // A claim is told apart by its mint: as long a prefix as tells it from every other mint here
  // (a mint ground to share its first characters with the real one gets a longer one).
  const prefixes = uniquePrefixes(rows.flatMap((r) => (r.mint ? [r.mint] : [])));
  const mintsOf = (symbol: string) =>
    new Set(rows.filter((r) => r.symbol && r.mint && readAlike(r.symbol) === readAlike(symbol)).map((r) => r.mint));
  return rows.map(({ symbol, mint, claims }) => {
    const said = symbol || claims;
    if (!said || !mint) return { cell: tokenCell(said, mint, wide), symbol: said ?? null };
    // A symbol of 5 or more characters that starts a mint shown here reads as that mint.
    const mintLike = said.length >= 5 && rows.some((r) => r.mint?.startsWith(said));
    const ambiguous =
      !plainSymbol(said) || mintLike || mintsOf(said).size > 1 || (readsAsSol(said) && mint !== WRAPPED_SOL_MINT);
    if (symbol && !ambiguous) return { cell: tokenCell(symbol, mint, wide), symbol };
    return { cell: `${wide ? mint : prefixes.get(mint)!} (claims ${oneLine(said)})`, symbol: said };
  });
}
