// Token facts the API gives only through the account's lists: symbol, name and decimals by
// mint (holdings, positions' token, activity entries), and which mint a typed symbol or mint
// prefix means.
import type { ServiceClient } from '../api/client.js';
import type { ActivityEntry, Holding, Position } from '../api/types.js';
import { ApiError, UsageError } from '../errors.js';

import { MIN_MINT_PREFIX, type TokenMeta } from '../domain/token.js';
import { symbolPinnedElsewhere, type PinnedTokens } from '../domain/token-claims.js';

/** What the account's lists say of each mint they name; the first list that has a fact wins. */
export type KnownTokens = Map<string, TokenMeta>;

/** How much history is searched for a token: the latest page of positions and of activity. */
const HISTORY_PAGE = 100;

/** The holding of this mint, if any. */
export function holdingOf(holdings: Holding[], mint: string): Holding | undefined {
  return holdings.find((h) => h.mint === mint);
}

/** Token facts from a holding. */
export function metaOf(holding: Holding | undefined): TokenMeta | null {
  return holding ? { symbol: holding.symbol, name: holding.name, decimals: holding.decimals } : null;
}

/** Adds what `facts` say of `mint`, keeping what is known already. */
function learn(known: KnownTokens, mint: string | null, facts: Partial<TokenMeta>): void {
  if (!mint) return;
  const had = known.get(mint) ?? { symbol: null, name: null, decimals: null };
  known.set(mint, { symbol: had.symbol ?? facts.symbol ?? null, name: had.name ?? facts.name ?? null, decimals: had.decimals ?? facts.decimals ?? null });
}

/** The tokens named by holdings, positions and activity entries, merged by mint in that order. */
export function knownTokens(lists: { holdings?: readonly Holding[]; positions?: readonly Position[]; activity?: readonly ActivityEntry[] }): KnownTokens {
  const known: KnownTokens = new Map();
  for (const h of lists.holdings ?? []) learn(known, h.mint, h);
  for (const p of lists.positions ?? []) learn(known, p.mint, p.token ?? {});
  for (const e of lists.activity ?? []) learn(known, e.mint, { symbol: e.symbol, decimals: e.decimals });
  return known;
}

/** What to do when a symbol names no token the account holds: its holdings are what it can sell. */
export const HELD_TOKENS_HINT = 'see `trader holdings`';

/**
 * What to do when a symbol names no token the account has held or traded: the account's lists
 * cannot help with a token it never had, its mint can (the API has no search by symbol).
 */
export const NEW_TOKEN_HINT =
  "buy a token new to you by its mint address: with the sandbox, `trader sandbox --background` prints its tokens' mints (again, when one runs); for the real service, copy the mint from the token's page on a Solana explorer or the site that lists it";

/**
 * The mint a typed token means among `known`: the one whose symbol it is (case-insensitive, a
 * leading $ ignored) or whose mint it starts (MIN_MINT_PREFIX+ characters). Exit 2 when none or several.
 * `whose` says which tokens were searched ("you hold", "you have held or traded"); `hint`, what
 * to do when none matches. A symbol pinned for another mint (`pinned`, the trust store's tokens)
 * is refused, exit 2: the service gave that token's symbol to this one; among several tokens
 * under one symbol, the one it is pinned for is meant.
 */
export function resolveTokenMint(typed: string, known: KnownTokens, whose: string, hint = HELD_TOKENS_HINT, pinned: PinnedTokens = {}): string {
  const symbol = typed.replace(/^\$/, '').toLowerCase();
  const matches = [...known].filter(
    ([mint, meta]) => meta.symbol?.toLowerCase() === symbol || (typed.length >= MIN_MINT_PREFIX && mint.startsWith(typed)),
  );
  if (matches.length === 1) {
    const [mint, meta] = matches[0]!;
    const elsewhere = meta.symbol?.toLowerCase() === symbol ? symbolPinnedElsewhere(typed, mint, pinned) : null;
    if (elsewhere) throw new UsageError(elsewhere, 'TOKEN_PINNED_ELSEWHERE');
    return mint;
  }
  if (matches.length === 0) {
    throw new UsageError(`"${typed}" is neither a mint address nor the symbol or mint prefix of a token ${whose}; ${hint}`, 'UNKNOWN_TOKEN');
  }
  // Several tokens under one symbol: the one it is pinned for is the token the user traded as it.
  const pinnedFor = matches.filter(([mint, meta]) => meta.symbol?.toLowerCase() === symbol && pinned[mint]?.symbol?.trim().toLowerCase() === symbol);
  if (pinnedFor.length === 1) return pinnedFor[0]![0];
  const named = matches.map(([mint, meta]) => `${meta.symbol ?? '?'} ${mint}`).join(', ');
  throw new UsageError(`"${typed}" could be any of ${matches.length} tokens ${whose} (${named}); give the mint address instead`, 'AMBIGUOUS_TOKEN');
}

/** The mint of the one holding whose symbol or mint prefix `typed` is (what `sell` may sell). */
export function mintForSymbol(holdings: Holding[], typed: string, pinned: PinnedTokens = {}): string {
  return resolveTokenMint(typed, knownTokens({ holdings }), 'you hold', HELD_TOKENS_HINT, pinned);
}

/**
 * Positions of buys that took no deposit: an intent still awaiting it, or cancelled (a `--dry-run`
 * or a declined buy) or expired unpaid. They name a token the account never traded.
 */
const NEVER_FUNDED = new Set(['pending_deposit', 'cancelled']);

/**
 * Tokens the account has held or traded: its holdings, and its latest positions and activity
 * entries (one page of each, read together). A position whose buy took no deposit does not
 * count: a dry run, or a buy declined at the prompt, must not make a symbol resolvable.
 */
export async function tokenHistory(api: ServiceClient): Promise<KnownTokens> {
  const [holdings, positions, activity] = await Promise.all([
    api.holdings(),
    api.listPositions({ limit: HISTORY_PAGE }),
    api.listActivity({ limit: HISTORY_PAGE }),
  ]);
  return knownTokens({ holdings, positions: positions.items.filter((p) => !NEVER_FUNDED.has(p.status)), activity: activity.items });
}

/**
 * What the account's lists say of one mint, for display: holdings first, then positions, then
 * activity, read only as far as needed. A list the service cannot give costs only the nicer
 * display, never the command (an interrupt still propagates). Null for a token never seen.
 */
export async function tokenMetaQuietly(api: ServiceClient, mint: string): Promise<TokenMeta | null> {
  const reads: Array<() => Promise<KnownTokens>> = [
    async () => knownTokens({ holdings: await api.holdings() }),
    async () => knownTokens({ positions: (await api.listPositions({ limit: HISTORY_PAGE })).items }),
    async () => knownTokens({ activity: (await api.listActivity({ limit: HISTORY_PAGE })).items }),
  ];
  const merged: KnownTokens = new Map();
  for (const read of reads) {
    const found = (await quietly(read))?.get(mint);
    if (found) learn(merged, mint, found);
    const meta = merged.get(mint);
    if (meta && meta.symbol !== null && meta.decimals !== null) return meta;
  }
  return merged.get(mint) ?? null;
}

async function quietly<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
}
