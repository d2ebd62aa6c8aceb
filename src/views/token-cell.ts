// A token in a table cell: its symbol, else its mint as a prefix that can be typed back
// (`buy`/`sell` take a unique mint prefix of 8 or more characters), or whole with --wide.
import { oneLine } from '../io/terminal-text.js';
import { sameTokenText } from '../domain/token-text.js';
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

/** Letters that pass for ASCII ones (Cyrillic О for O, Greek Α for A, ł, math bold 𝐖), and digits other than 0-9. */
const CONFUSABLE =
  /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}\p{Script=Coptic}\p{Script=Lisu}]|(?![A-Za-z])\p{Script=Latin}|(?=\p{L})\p{Script=Common}|(?![0-9])\p{Nd}/u;
/** The tool's own notation (`GFmFPoog… (claims WOOF)`, `⟦…⟧`), and what cannot be seen or spaces words apart. */
const NOTATION = /[…()[\]⟦⟧]|[\p{C}\p{Z}]|(?!\uFE0F)\p{M}/u;

/**
 * Whether a symbol can stand bare without passing for something else: no letter that passes for
 * another script's (a Cyrillic WООF beside WOOF), nothing of the tool's own notation, nothing
 * unseen, and not 8 or more base58 characters, which read as a mint's prefix. CJK and emoji pass.
 */
const plainSymbol = (symbol: string): boolean =>
  !CONFUSABLE.test(symbol) && !NOTATION.test(symbol) && !/^[1-9A-HJ-NP-Za-km-z]{8,}$/.test(symbol);

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
    new Set(rows.filter((r) => r.mint && sameTokenText(r.symbol, symbol)).map((r) => r.mint));
  return rows.map(({ symbol, mint, claims }) => {
    const said = symbol || claims;
    if (!said || !mint) return { cell: tokenCell(said, mint, wide), symbol: said ?? null };
    const ambiguous =
      !plainSymbol(said) || mintsOf(said).size > 1 || (sameTokenText(said, 'SOL') && mint !== WRAPPED_SOL_MINT);
    if (symbol && !ambiguous) return { cell: tokenCell(symbol, mint, wide), symbol };
    return { cell: `${wide ? mint : prefixes.get(mint)!} (claims ${oneLine(said)})`, symbol: said };
  });
}
