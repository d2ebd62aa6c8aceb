// Which of a token's facts may be shown and signed, and who vouches for each: the chain (the mint
// account's decimals, its Metaplex or Token-2022 metadata) or a person (a prompt, an accept
// command). The service's own word binds nothing: where it agrees it adds nothing, where it
// differs from the chain or a person it is refused, and where nobody vouches for it it waits for
// a person once. A symbol or name the chain gives this mint but that is pinned for another mint
// would pass this token off as that one: refused too.
import { createHash } from 'node:crypto';
import type { PinnedTokens } from './token-claims.js';
import type { TokenMeta, ChainTokenFacts } from './token.js';
import { sameTokenText as sameText, tokenTextKey } from './token-text.js';

export type FactSource = 'chain' | 'person';

/** Who stored a token's facts in the trust store: a person (prompt, accept command, setting), or the chain at an earlier trade. */
export type TokenPinSource = 'prompt' | 'accept-command' | 'setting' | 'chain';

/** A token's facts as the trust store holds them for one mint. */
export interface PinnedTokenFacts extends TokenMeta {
  by?: TokenPinSource;
}

export interface BoundToken {
  mint: string;
  /** Chain only (a person may confirm it only when the chain cannot be read). */
  decimals: number | null;
  symbol: string | null;
  name: string | null;
  source: { decimals: FactSource | null; symbol: FactSource | null; name: FactSource | null };
}

export interface TokenBinding {
  token: BoundToken;
  /** Refusals (exit 6): the service's symbol/name/decimals differ from the chain's; the chain symbol or name is pinned for another mint; the account is not a mint. */
  problems: string[];
  /** Facts the service gave that neither the chain nor a person vouches for: need a person once (prompt, or `trader config trust accept-token <mint> <fingerprint>`). */
  unbound: Array<{ fact: 'symbol' | 'name' | 'decimals'; value: string }>;
}

const FORGET = 'if the token really changed, forget the pinned facts with `trader config trust forget tokens`';

/** Whether a pin is a person's word (not the chain's, not a service's facts stored by an earlier version). */
export function pinnedByPerson(pin: Pick<PinnedTokenFacts, 'by'> | null): boolean {
  return pin?.by === 'prompt' || pin?.by === 'accept-command' || pin?.by === 'setting';
}


/**
 * Binds a token's facts. `service`: what the service's lists say; `chain`: what the chain says
 * (null: the account is not a mint; 'unreadable': the RPC could not be read); `confirmed`: the
 * trust store's facts for this mint (only a person's count); `pinnedElsewhere`: the trust store's
 * facts of every mint of this service (this mint's own are skipped).
 */
export function bindToken(
  mint: string,
  service: TokenMeta | null,
  chain: ChainTokenFacts | null | 'unreadable',
  confirmed: PinnedTokenFacts | null,
  pinnedElsewhere: PinnedTokens,
): TokenBinding {
  const problems: string[] = [];
  const unbound: TokenBinding['unbound'] = [];
  const onChain = chain !== null && chain !== 'unreadable' ? chain : null;
  const person = pinnedByPerson(confirmed) ? confirmed : null;
  if (chain === null) problems.push(`the chain has no token mint at ${mint} (no account there, or not a mint): the service's facts of it cannot be bound`);

  const token: BoundToken = { mint, decimals: null, symbol: null, name: null, source: { decimals: null, symbol: null, name: null } };
  const bind = <K extends 'decimals' | 'symbol' | 'name'>(fact: K, chainValue: BoundToken[K] | null, personValue: BoundToken[K] | null) => {
    const claimed = service?.[fact] ?? null;
    const source: FactSource | null = chainValue !== null ? 'chain' : personValue !== null ? 'person' : null;
    const value = chainValue ?? personValue;
    if (value === null || source === null) {
      if (claimed !== null) unbound.push({ fact, value: String(claimed) });
      return;
    }
    token[fact] = value;
    token.source[fact] = source;
    if (claimed !== null && claimed !== value) {
      const whose = source === 'person' ? 'you confirmed' : fact === 'decimals' || !onChain?.metadataSource ? 'its mint account on chain says' : `its ${onChain.metadataSource} metadata on chain says`;
      problems.push(`the service gives token ${mint} the ${fact} ${JSON.stringify(claimed)}, but ${whose} ${JSON.stringify(value)}`);
    }
  };
  // Decimals come from the mint account; a person's only stand in when the chain cannot be read.
  bind('decimals', onChain?.decimals ?? null, chain === 'unreadable' ? (person?.decimals ?? null) : null);
  bind('symbol', onChain?.symbol ?? null, person?.symbol ?? null);
  bind('name', onChain?.name ?? null, person?.name ?? null);

  // A symbol or name this token would be shown or signed under, pinned for another mint.
  for (const fact of ['symbol', 'name'] as const) {
    const values = new Set([token[fact], service?.[fact] ?? null].filter((v): v is string => v !== null));
    for (const value of values) {
      for (const [other, pinned] of Object.entries(pinnedElsewhere)) {
        const was = pinned[fact];
        if (other === mint || typeof was !== 'string' || !sameText(value, was)) continue;
        const by = token[fact] === value ? (token.source[fact] === 'chain' ? 'the chain gives' : 'you confirmed for') : 'the service gives';
        problems.push(`${by} token ${mint} the ${fact} ${JSON.stringify(value)}, which is pinned for token ${other}: it would pass for that token; ${FORGET}`);
      }
    }
  }
  return { token, problems, unbound };
}

/** The facts a person confirms for a mint: the bound ones, else what the service says that nobody vouches for. */
export function factsToConfirm(binding: { unbound: ReadonlyArray<{ fact: string; value: string }>; token: TokenMeta }): TokenMeta {
  const said = (fact: 'symbol' | 'name' | 'decimals') => binding.unbound.find((u) => u.fact === fact)?.value;
  const decimals = said('decimals');
  return { symbol: binding.token.symbol ?? said('symbol') ?? null, name: binding.token.name ?? said('name') ?? null, decimals: binding.token.decimals ?? (decimals === undefined ? null : Number(decimals)) };
}

/**
 * A short, stable name for a mint's facts as compared (its symbol and name as a reader sees them,
 * its decimals): sha-256, 16 hex digits. A refusal shows it beside the facts it kept and
 * `accept-token <mint> <fingerprint>` pins only facts that still have it, so what a person
 * confirms is what they read, not whatever a later refusal kept for the mint.
 */
export function tokenFactsFingerprint(mint: string, facts: TokenMeta): string {
  const key = (text: string | null) => (text === null ? null : tokenTextKey(text));
  const compared = ['token-facts', mint, key(facts.symbol), key(facts.name), facts.decimals];
  return createHash('sha256').update(JSON.stringify(compared), 'utf8').digest('hex').slice(0, 16);
}

/** The command that confirms a mint's facts a refusal kept, bound to the fingerprint of the facts it showed. */
export const acceptTokenCommand = (mint: string, fingerprint: string): string => `trader config trust accept-token ${mint} ${fingerprint}`;

/** A mint's facts as a refusal keeps them for a person, in words: `symbol "ZED", name "Zed Token", 6 decimals`. */
export function keptFacts(facts: TokenMeta): string {
  const text = (value: string | null) => (value === null ? 'none' : JSON.stringify(value));
  return `symbol ${text(facts.symbol)}, name ${text(facts.name)}, ${facts.decimals ?? 'unknown'} decimals`;
}
