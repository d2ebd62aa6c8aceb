// Which of a token's facts may be shown and signed, and who vouches for each: the chain (the mint
// account's decimals, its Metaplex or Token-2022 metadata) or a person (a prompt, an accept
// command). The service's own word binds nothing: where it agrees it adds nothing, where it
// differs from the chain or a person it is refused, and where nobody vouches for it it waits for
// a person once. A symbol or name the chain gives this mint but that is pinned for another mint
// would pass this token off as that one: refused too. Facts pinned for the mint (a person's, or
// the chain's at a trade a person signed) hold: the chain stating them otherwise now is a lying
// RPC or service, refused before anything is created, and the pinned value stands.
import { createHash } from 'node:crypto';
import type { PinnedTokens } from './pinned-names.js';
import type { TokenMeta, ChainTokenFacts } from './token-meta.js';
import { sameTokenText as sameText, tokenTextKey } from './token-text.js';
import { RefusedToSignError, type BoundFactChange } from './errors.js';
import { NOTHING_CREATED } from './outcome-words.js';

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
  /** Facts a pin binds (bindingPin) that the chain now states otherwise: refused before anything is created (refuseChangedFacts). */
  changed: BoundFactChange[];
  /** Refusals (exit 6): the service's symbol/name/decimals differ from the chain's; the chain symbol or name is pinned for another mint; the account is not a mint. */
  problems: string[];
  /** Facts the service gave that neither the chain nor a person vouches for: need a person once (prompt, or `trader config trust accept-token <mint> <fingerprint>`). */
  unbound: Array<{ fact: 'symbol' | 'name' | 'decimals'; value: string }>;
  /** Whether the trust store's pin for this mint (a person's, or the chain's at a trade a person signed) binds the symbol shown: only then does a symbol alone name the mint. */
  symbolBound: boolean;
}

const FORGET = 'if the token really changed, forget the pinned facts with `trader config trust forget tokens`';

/** Whether a pin is a person's word (not the chain's, not a service's facts stored by an earlier version). */
export function pinnedByPerson(pin: Pick<PinnedTokenFacts, 'by'> | null): boolean {
  return pin?.by === 'prompt' || pin?.by === 'accept-command' || pin?.by === 'setting';
}

/**
 * Whether a pin binds its facts to the mint: a person's, or the chain's recorded at a trade a
 * person signed at the prompt (only then is it written). An earlier version's pin (no `by`) may
 * hold the service's word, and binds nothing.
 */
export function bindingPin(pin: Pick<PinnedTokenFacts, 'by'> | null): boolean {
  return pinnedByPerson(pin) || pin?.by === 'chain';
}

/**
 * The symbol a list may show for `mint`: the one bound to it; else the service's, unless a pin
 * binds that symbol to another mint, when it is only a claim (`claims`), never shown as the token.
 */
export function listedSymbol(
  pins: Readonly<Record<string, PinnedTokenFacts>>,
  mint: string | null,
  service: string | null,
): { symbol: string | null; claims: string | null } {
  const own = mint === null ? undefined : pins[mint];
  if (own && bindingPin(own) && own.symbol) return { symbol: own.symbol, claims: null };
  if (service === null) return { symbol: null, claims: null };
  const taken = Object.entries(pins).some(([m, pin]) => m !== mint && bindingPin(pin) && sameText(pin.symbol, service));
  return taken ? { symbol: null, claims: service } : { symbol: service, claims: null };
}

/**
 * The facts a pin binds to `mint` that the chain, read now, states otherwise: its decimals (a
 * mint's never change), and a symbol or name where both state one, or where the pin recorded
 * the chain's own and the chain now states none. Empty when the chain cannot be read (then the
 * pin stands in) or the account is no mint (refused on its own).
 */
export function changedBoundFacts(
  mint: string,
  pin: PinnedTokenFacts | null,
  chain: ChainTokenFacts | null | 'unreadable',
): BoundFactChange[] {
  if (!pin || !bindingPin(pin) || chain === null || chain === 'unreadable') return [];
  const changes: BoundFactChange[] = [];
  for (const fact of ['decimals', 'symbol', 'name'] as const) {
    const bound = pin[fact];
    const now = chain[fact];
    if (bound === null || bound === undefined || bound === now) continue;
    // A person's symbol or name where the chain states none is how a person binds one: no change.
    if (now === null && fact !== 'decimals' && pin.by !== 'chain') continue;
    changes.push({ mint, fact, bound, chain: now, by: pin.by! });
  }
  return changes;
}

/** One changed fact in words: the mint, the fact, the bound value and by whom, the chain's now, and why it cannot be so. */
export function changedFactWords(c: BoundFactChange): string {
  const who = c.by === 'chain' ? 'as the chain stated it at a trade you signed' : 'as you confirmed it';
  const now = c.chain === null ? 'now states none' : `now says ${JSON.stringify(c.chain)}`;
  const why =
    c.fact === 'decimals'
      ? "a mint's decimals cannot change on Solana, so a changed answer means a lying RPC or service"
      : `a token's ${c.fact} changes only if its metadata's update authority rewrites it; far more likely the RPC or the service lies`;
  return `token ${c.mint} is bound to the ${c.fact} ${JSON.stringify(c.bound)} (${who}), but the chain ${now}: ${why}`;
}

/** What a person can do about a changed bound fact. */
export const CHANGED_FACTS_NEXT =
  'check the RPC (--rpc-url, TRADER_RPC_URL) against another you trust, and the mint on a Solana explorer; only if the token really changed (its symbol or name, never its decimals), forget the pinned token facts with `trader config trust forget tokens` and confirm them again at a trade';

/**
 * Refuses (exit 6, BOUND_FACTS_CHANGED) a trade whose token's bound facts the chain now states
 * otherwise, before anything is created: the amount and the review would be counted in facts
 * that cannot have changed. The --json error line carries each change in `facts`.
 */
export function refuseChangedFacts(changed: readonly BoundFactChange[]): void {
  if (changed.length === 0) return;
  throw new RefusedToSignError(
    changed.map(changedFactWords),
    [`${NOTHING_CREATED}; ${CHANGED_FACTS_NEXT}`],
    { code: 'BOUND_FACTS_CHANGED', command: null },
    changed,
  );
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
  const pin = bindingPin(confirmed) ? confirmed : null;
  const pinSource: FactSource = pinnedByPerson(pin) ? 'person' : 'chain';
  // What a pin binds, the chain's answer now does not replace: the trade is refused, naming both.
  const changed = changedBoundFacts(mint, confirmed, chain);
  const kept = (fact: string) => changed.some((c) => c.fact === fact);
  if (chain === null)
    problems.push(
      `the chain has no token mint at ${mint} (no account there, or not a mint): the service's facts of it cannot be bound`,
    );

  const token: BoundToken = {
    mint,
    decimals: null,
    symbol: null,
    name: null,
    source: { decimals: null, symbol: null, name: null },
  };
  // `pinValue`: the pin's value where it stands in for the chain's (none, or contradicted).
  const bind = <K extends 'decimals' | 'symbol' | 'name'>(
    fact: K,
    chainValue: BoundToken[K] | null,
    pinValue: BoundToken[K] | null,
  ) => {
    const claimed = service?.[fact] ?? null;
    const fromPin = pinValue !== null && (chainValue === null || kept(fact));
    const value = fromPin ? pinValue : chainValue;
    if (value === null) {
      if (claimed !== null) unbound.push({ fact, value: String(claimed) });
      return;
    }
    const source: FactSource = fromPin ? pinSource : 'chain';
    token[fact] = value;
    token.source[fact] = source;
    if (claimed !== null && claimed !== value) {
      const whose = fromPin
        ? source === 'person'
          ? 'you confirmed'
          : 'the chain said at a trade you signed'
        : fact === 'decimals' || !onChain?.metadataSource
          ? 'its mint account on chain says'
          : `its ${onChain.metadataSource} metadata on chain says`;
      problems.push(
        `the service gives token ${mint} the ${fact} ${JSON.stringify(claimed)}, but ${whose} ${JSON.stringify(value)}`,
      );
    }
  };
  // Decimals come from the mint account; a pin's (a person's, or the chain's at a trade a person
  // signed: a mint's decimals never change) stand in when the chain cannot be read. A symbol or
  // name, a person's where the chain states none. A contradicted pin's value stands either way.
  const standsIn = <K extends 'decimals' | 'symbol' | 'name'>(fact: K): BoundToken[K] | null =>
    kept(fact) || (fact === 'decimals' ? chain === 'unreadable' : pinSource === 'person')
      ? ((pin?.[fact] ?? null) as BoundToken[K] | null)
      : null;
  bind('decimals', onChain?.decimals ?? null, standsIn('decimals'));
  bind('symbol', onChain?.symbol ?? null, standsIn('symbol'));
  bind('name', onChain?.name ?? null, standsIn('name'));
  problems.push(...changed.map(changedFactWords));

  problems.push(...pinnedForAnother(mint, token, service, pinnedElsewhere));
  const symbolBound = pin !== null && sameText(pin.symbol, token.symbol);
  return { token, changed, problems, unbound, symbolBound };
}

/** A symbol or name this token would be shown or signed under, pinned for another mint: one problem each. */
function pinnedForAnother(
  mint: string,
  token: BoundToken,
  service: TokenMeta | null,
  pinnedElsewhere: PinnedTokens,
): string[] {
  const problems: string[] = [];
  for (const fact of ['symbol', 'name'] as const) {
    const values = new Set([token[fact], service?.[fact] ?? null].filter((v): v is string => v !== null));
    for (const value of values) {
      for (const [other, pinned] of Object.entries(pinnedElsewhere)) {
        const was = pinned[fact];
        if (other === mint || typeof was !== 'string' || !sameText(value, was)) continue;
        const by =
          token[fact] === value
            ? token.source[fact] === 'chain'
              ? 'the chain gives'
              : 'you confirmed for'
            : 'the service gives';
        problems.push(
          `${by} token ${mint} the ${fact} ${JSON.stringify(value)}, which is pinned for token ${other}: it would pass for that token; ${FORGET}`,
        );
      }
    }
  }
  return problems;
}

/** The facts a person confirms for a mint: the bound ones, else what the service says that nobody vouches for. */
export function factsToConfirm(binding: {
  unbound: ReadonlyArray<{ fact: string; value: string }>;
  token: TokenMeta;
}): TokenMeta {
  const said = (fact: 'symbol' | 'name' | 'decimals') => binding.unbound.find((u) => u.fact === fact)?.value;
  const decimals = said('decimals');
  return {
    symbol: binding.token.symbol ?? said('symbol') ?? null,
    name: binding.token.name ?? said('name') ?? null,
    decimals: binding.token.decimals ?? (decimals === undefined ? null : Number(decimals)),
  };
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
export const acceptTokenCommand = (mint: string, fingerprint: string): string =>
  `trader config trust accept-token ${mint} ${fingerprint}`;

/** What a refusal keeps of a mint for a person: the facts to confirm, their fingerprint and the command that confirms them. */
export function tokenToConfirm(
  mint: string,
  binding: Parameters<typeof factsToConfirm>[0],
): { facts: TokenMeta; fingerprint: string; command: string } {
  const facts = factsToConfirm(binding);
  const fingerprint = tokenFactsFingerprint(mint, facts);
  return { facts, fingerprint, command: acceptTokenCommand(mint, fingerprint) };
}

/** A mint's facts as a refusal keeps them for a person, in words: `symbol "ZED", name "Zed Token", 6 decimals`. */
export function keptFacts(facts: TokenMeta): string {
  const text = (value: string | null) => (value === null ? 'none' : JSON.stringify(value));
  return `symbol ${text(facts.symbol)}, name ${text(facts.name)}, ${facts.decimals ?? 'unknown'} decimals`;
}
