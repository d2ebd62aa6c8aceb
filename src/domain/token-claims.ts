// A token's symbol and name as pinned for a service belong to the mint they were pinned for: a
// service that gives a pinned symbol or name to another mint passes that token off as the
// pinned one (the user reads "WOOF" and sells, or buys, another token). Compared case-insensitively.
import type { TokenMeta } from './token.js';

/** What the trust store holds for each mint of one service (symbol and name; other facts unused here). */
export type PinnedTokens = Record<string, Pick<TokenMeta, 'symbol' | 'name'>>;

const FORGET = 'if the token really changed, forget the pinned facts with `trader config trust forget tokens`';

const same = (a: string | null | undefined, b: string | null | undefined): boolean =>
  typeof a === 'string' && typeof b === 'string' && a.trim() !== '' && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * One line for each pinned symbol or name that the service now gives `mint` while it was pinned
 * for another mint (empty: none). Facts pinned for `mint` itself are its own.
 */
export function claimsOfOtherMints(mint: string, facts: Pick<TokenMeta, 'symbol' | 'name'> | null, pinned: PinnedTokens): string[] {
  if (!facts) return [];
  const lines: string[] = [];
  for (const [other, was] of Object.entries(pinned)) {
    if (other === mint) continue;
    for (const key of ['symbol', 'name'] as const) {
      if (same(facts[key], was[key])) {
        lines.push(`the service gives token ${mint} the ${key} ${JSON.stringify(facts[key])}, which is pinned for token ${other}: it would pass for that token; ${FORGET}`);
      }
    }
  }
  return lines;
}

/**
 * Checks the mint a typed symbol resolved to against the symbol's pin: a symbol pinned for
 * another mint names that mint, not this one. Returns the problem line, or null.
 */
export function symbolPinnedElsewhere(typed: string, resolvedMint: string, pinned: PinnedTokens): string | null {
  const symbol = typed.replace(/^\$/, '');
  const owners = Object.entries(pinned).filter(([, was]) => same(was.symbol, symbol)).map(([mint]) => mint);
  if (owners.length === 0 || owners.includes(resolvedMint)) return null;
  return `"${typed}" is pinned for token ${owners.join(', ')}, but the service now gives that symbol to token ${resolvedMint}; nothing was sent; give the mint address, or ${FORGET}`;
}
