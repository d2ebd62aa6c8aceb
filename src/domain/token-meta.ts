// What is known of a token for display, what the chain states of it (chain/chain-token-facts.ts reads
// it), and how a mint may be typed short: facts the trade flows, the argument parsers, the
// binding rules and the views all use.

/** Fewest characters of a mint that may be typed for it (a mint prefix). */
export const MIN_MINT_PREFIX = 8;

/** A token's symbol, name and decimals, as the account's lists give them (each may be unknown). */
export interface TokenMeta {
  symbol: string | null;
  name: string | null;
  decimals: number | null;
}

/** A token's facts as the chain states them. */
export interface ChainTokenFacts {
  mint: string;
  program: 'spl-token' | 'token-2022';
  /** From the mint account. */
  decimals: number;
  /** Metaplex metadata or Token-2022 metadata extension; null: none on chain. */
  symbol: string | null;
  name: string | null;
  metadataSource: 'metaplex' | 'token-2022' | null;
}
