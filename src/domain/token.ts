// What is known of a token for display: facts the trade flows and the views both use.

/** A token's symbol, name and decimals, as the account's lists give them (each may be unknown). */
export interface TokenMeta {
  symbol: string | null;
  name: string | null;
  decimals: number | null;
}
