// Token facts the API gives only through the account's lists: symbol, name and decimals by
// mint (holdings, positions' token, activity entries), and which mint a typed symbol or mint
// prefix means. A symbol is tied to a mint by the person (a binding in the trust store: a prompt,
// accept-token, or a trade of a mint they typed) or, short of that, only by the service's lists:
// the service's word, which a person must confirm before anything is traded under it.
import type { ServiceClient } from '../api/client.js';
import type { ActivityEntry, Holding, Position } from '../api/types.js';
import { ApiError, SERVICE_CONTRADICTION, UsageError } from '../domain/errors.js';
import { NOTHING_SENT } from '../domain/outcome-words.js';

import { MIN_MINT_PREFIX, type TokenMeta } from '../domain/token-meta.js';
import { symbolPinnedElsewhere, type PinnedTokens } from '../domain/pinned-names.js';
import { pinnedByPerson, type TokenPinSource } from '../domain/token-binding.js';
import { sameTokenText, tokenTextKey } from '../domain/token-text.js';

/** What the account's lists say of each mint they name; the first list that has a fact wins. */
export type KnownTokens = Map<string, TokenMeta>;

/** How much history is searched for a token: the latest page of positions and of activity. */
const HISTORY_PAGE = 100;

/** The holding of this mint, if any. */
export function holdingOf(holdings: Holding[], mint: string): Holding | undefined {
  const rows = holdings.filter((h) => h.mint === mint);
  // Holdings are one row per token (api-spec.md): two would make "50% of what you hold" the service's pick.
  if (rows.length > 1)
    throw new ApiError(
      `the service lists token ${mint} ${rows.length} times among your holdings (${rows.map((h) => h.amount).join(', ')} raw units), where it aggregates each token in one row: what you hold of it is not known; ${NOTHING_SENT}`,
      { code: SERVICE_CONTRADICTION },
    );
  return rows[0];
}

/** Token facts from a holding. */
export function metaOf(holding: Holding | undefined): TokenMeta | null {
  return holding ? { symbol: holding.symbol, name: holding.name, decimals: holding.decimals } : null;
}

/** Adds what `facts` say of `mint`, keeping what is known already. */
function learn(known: KnownTokens, mint: string | null, facts: Partial<TokenMeta>): void {
  if (!mint) return;
  const had = known.get(mint) ?? { symbol: null, name: null, decimals: null };
  known.set(mint, {
    symbol: had.symbol ?? facts.symbol ?? null,
    name: had.name ?? facts.name ?? null,
    decimals: had.decimals ?? facts.decimals ?? null,
  });
}

/** The tokens named by holdings, positions and activity entries, merged by mint in that order. */
export function knownTokens(lists: {
  holdings?: readonly Holding[];
  positions?: readonly Position[];
  activity?: readonly ActivityEntry[];
}): KnownTokens {
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
 * The mint a typed token means among `known`: the one whose symbol it is (as a reader sees it, a
 * leading $ ignored) or whose mint it starts (MIN_MINT_PREFIX+ characters). Exit 2 when none or
 * several. `whose` says which tokens were searched ("you hold", "you have held or traded");
 * `hint`, what to do when none matches. A symbol pinned for another mint (`pinned`, the trust
 * store's tokens) is refused, exit 2: the service gave that token's symbol to this one.
 */
export function resolveTokenMint(
  typed: string,
  known: KnownTokens,
  whose: string,
  hint = HELD_TOKENS_HINT,
  pinned: PinnedTokens = {},
): string {
  const symbol = typed.replace(/^\$/, '');
  const matches = [...known].filter(
    ([mint, meta]) => sameTokenText(meta.symbol, symbol) || (typed.length >= MIN_MINT_PREFIX && mint.startsWith(typed)),
  );
  if (matches.length === 1) {
    const [mint, meta] = matches[0]!;
    const elsewhere = sameTokenText(meta.symbol, symbol) ? symbolPinnedElsewhere(typed, mint, pinned) : null;
    if (elsewhere) throw new UsageError(elsewhere, 'TOKEN_PINNED_ELSEWHERE');
    return mint;
  }
  if (matches.length === 0) {
    throw new UsageError(
      `"${typed}" is neither a mint address nor the symbol or mint prefix of a token ${whose}; ${hint}`,
      'UNKNOWN_TOKEN',
    );
  }
  const named = matches.map(([mint, meta]) => `${meta.symbol ?? '?'} ${mint}`).join(', ');
  throw new UsageError(
    `"${typed}" could be any of ${matches.length} tokens ${whose} (${named}); give the mint address instead`,
    'AMBIGUOUS_TOKEN',
  );
}

/** What the trust store holds of one service that ties symbols to mints. */
export interface SymbolTrust {
  symbols?: Record<string, { mint: string }>;
  tokens?: Record<string, { symbol: string | null; name: string | null; by?: TokenPinSource }>;
}

/** The mints `typed` (a symbol) is bound to for this service: by a person, or by a trade of a mint the person typed; never by the service's lists. */
export function boundMints(typed: string, trust: SymbolTrust): string[] {
  const key = tokenTextKey(typed.replace(/^\$/, ''));
  const mints = new Set<string>();
  const binding = trust.symbols?.[key];
  if (binding) mints.add(binding.mint);
  // Token facts a person confirmed name their symbol too.
  for (const [mint, pin] of Object.entries(trust.tokens ?? {}))
    if (pinnedByPerson(pin) && pin.symbol !== null && tokenTextKey(pin.symbol) === key) mints.add(mint);
  return [...mints];
}

/** How a typed token was tied to its mint: typed as (a prefix of) the mint, a symbol the person bound, or a symbol only the service's lists tie to it. */
export type TokenTie = 'mint' | 'bound' | 'service';

/**
 * The mint a typed symbol or mint prefix means: a symbol the person bound names its mint whatever
 * the service's lists say; otherwise the lists decide (resolveTokenMint), and a symbol found
 * there is only the service's word ('service'), a prefix the person's own typing ('mint').
 */
export function chooseToken(
  typed: string,
  known: KnownTokens,
  whose: string,
  hint: string,
  trust: SymbolTrust,
): { mint: string; tie: TokenTie } {
  const bound = boundMints(typed, trust);
  if (bound.length > 1) {
    throw new UsageError(
      `"${typed}" is bound to ${bound.length} tokens (${bound.join(', ')}); give the mint address, or forget the token pins with \`trader config trust forget tokens\``,
      'AMBIGUOUS_TOKEN',
    );
  }
  if (bound.length === 1) return { mint: bound[0]!, tie: 'bound' };
  const mint = resolveTokenMint(typed, known, whose, hint, trust.tokens ?? {});
  return { mint, tie: sameTokenText(known.get(mint)?.symbol, typed.replace(/^\$/, '')) ? 'service' : 'mint' };
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
  return knownTokens({
    holdings,
    positions: positions.items.filter((p) => !NEVER_FUNDED.has(p.status)),
    activity: activity.items,
  });
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
