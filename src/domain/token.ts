// What is known of a token for display, and how a mint may be typed short: facts the trade
// flows, the argument parsers and the views all use.

/** Fewest characters of a mint that may be typed for it (a mint prefix). */
export const MIN_MINT_PREFIX = 8;

/** A token's symbol, name and decimals, as the account's lists give them (each may be unknown). */
export interface TokenMeta {
  symbol: string | null;
  name: string | null;
  decimals: number | null;
}
