// A token's symbol and name as pinned for a service belong to the mint they were pinned for: a
// service that gives a pinned symbol or name to another mint passes that token off as the
// pinned one (the user reads "WOOF" and sells, or buys, another token). Compared as a reader sees
// them (domain/token-text.ts).
import type { TokenMeta } from './token-meta.js';
import { NOTHING_SENT } from './outcome-words.js';
import { sameTokenText as same } from './token-text.js';

/** What the trust store holds for each mint of one service (symbol and name; other facts unused here). */
export type PinnedTokens = Record<string, Pick<TokenMeta, 'symbol' | 'name'>>;

const FORGET = 'if the token really changed, forget the pinned facts with `trader config trust forget tokens`';

/**
 * Checks the mint a typed symbol resolved to against the symbol's pin: a symbol pinned for
 * another mint names that mint, not this one. Returns the problem line, or null.
 */
export function symbolPinnedElsewhere(typed: string, resolvedMint: string, pinned: PinnedTokens): string | null {
  const symbol = typed.replace(/^\$/, '');
  const owners = Object.entries(pinned)
    .filter(([, was]) => same(was.symbol, symbol))
    .map(([mint]) => mint);
  if (owners.length === 0 || owners.includes(resolvedMint)) return null;
  return `"${typed}" is pinned for token ${owners.join(', ')}, but the service now gives that symbol to token ${resolvedMint}; ${NOTHING_SENT}; give the mint address, or ${FORGET}`;
}
