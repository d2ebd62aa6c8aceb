// The trust store as commands use it: opened for the configured service, its failures turned
// into usage errors (a trade must not go on when its pins cannot be read or stored).
import type { Context } from '../cli/context.js';
import { TrustStoreError, type TrustStore } from '../config/trust-store.js';
import { RefusedToSignError, UsageError } from '../domain/errors.js';
import { NOTHING_CREATED } from '../domain/outcome-words.js';
import type { Presence } from '../domain/presence.js';
import type { ChainTokenFacts, TokenMeta } from '../domain/token-meta.js';
import { keptFacts, tokenToConfirm, type TokenBinding } from '../domain/token-binding.js';
import { bindingSource, factsSourcePhrase } from '../domain/facts-source.js';
import type { AnnounceGrant } from '../domain/trust-grants.js';
import type { SymbolTrust } from './token-lookup.js';
import type { SellTrust } from './sell-flow.js';
import type { PinnedTokens } from '../domain/pinned-names.js';
import { isTemplate } from '../wallet/sell-template/template.js';
import { NOTHING_SIGNED } from '../domain/outcome-words.js';

/** The trust store of the configured service; refused (exit 2) when it or its folder is not the user's own or others can change it. */
export async function openTrust(ctx: Context): Promise<TrustStore> {
  const store = await ctx.trustStore();
  const problem = store.ownershipProblem();
  if (problem) throw new UsageError(`${problem}; ${NOTHING_SIGNED}`, 'TRUST_STORE');
  return store;
}

/** Runs a trust-store operation; a store that cannot be read or written is exit 2, saying why. */
export function guarded<T>(what: string, operation: () => T): T {
  try {
    return operation();
  } catch (err) {
    if (err instanceof TrustStoreError)
      throw new UsageError(`cannot ${what}: ${err.message}; ${NOTHING_SIGNED}`, 'TRUST_STORE');
    throw err;
  }
}

/** The pinned treasury for this service, or null. */
export function pinnedTreasury(store: TrustStore): string | null {
  return guarded('read the pinned treasury', () => store.read().treasury?.address ?? null);
}

/** Every token's pinned facts for this service, by mint. */
export function pinnedTokens(store: TrustStore): PinnedTokens {
  return guarded('read the pinned token facts', () => store.read().tokens ?? {});
}

/** Binds a symbol a person confirmed at the prompt (the review said it was only the service's word) to its mint, and says so. */
export function bindSymbolAtPrompt(store: TrustStore, symbol: string, mint: string, announce: AnnounceGrant): void {
  if (guarded('bind the symbol', () => store.bindSymbol(symbol, mint, 'prompt')))
    announce({ what: 'symbol', symbol, mint });
}

/** The sell flow's view of the store: the approved template, and a person's pins made at the prompt, each announced. */
export function sellTrust(store: TrustStore, announce: AnnounceGrant): SellTrust {
  return {
    approved: () =>
      guarded('read the sell template', () => {
        const trust = store.read();
        const pinned = trust.sellTemplate;
        if (pinned && isTemplate(pinned.template))
          return { template: pinned.template, fingerprint: pinned.fingerprint };
        return trust.sellWording ? 'earlier-version' : null;
      }),
    pinTemplate(template, fingerprint, replacing) {
      const pinned = guarded('pin the sell template', () =>
        store.pinTemplate(template, fingerprint, 'prompt', replacing),
      );
      if (pinned === fingerprint) announce({ what: 'wording', fingerprint });
      return pinned;
    },
    recordPendingTemplate: (template, fingerprint) =>
      guarded('keep the sell template for a person', () => store.recordPendingTemplate(template, fingerprint)),
    pinToken(mint, facts) {
      const pinned = guarded('pin the token facts', () => store.pinToken(mint, facts, 'prompt'));
      announce({ what: 'token-facts', mint, ...factsOf(pinned) });
    },
    // Facts the sell's guard could not bind: neither the chain nor a person vouches for them.
    recordPendingToken: (mint, facts) =>
      guarded('keep the token facts for a person', () => store.recordPendingToken(mint, facts, 'service')),
  };
}

/** What the store ties symbols to mints with, for this service. */
export function symbolTrust(store: TrustStore): SymbolTrust {
  return guarded('read the bound symbols', () => {
    const { symbols, tokens } = store.read();
    return { symbols, tokens };
  });
}

/**
 * A typed symbol that only the service's lists tie to `mint`: where no person is here to bind it
 * (--yes, --dry-run, --json, an agent), the trade is refused before anything is created (exit 6,
 * SYMBOL_NOT_BOUND: trust only a person grants, as a treasury or a wording), naming the mint it
 * would mean and the ways to bind it; its facts are kept for `trader config trust accept-token`,
 * named by the fingerprint of the facts shown.
 */
export function refuseUnboundSymbol(
  store: TrustStore,
  presence: Presence,
  symbol: string,
  mint: string,
  binding: Pick<TokenBinding, 'unbound' | 'token'>,
): void {
  if (presence.mayGrantTrust) return;
  const { facts, fingerprint, command } = tokenToConfirm(mint, binding);
  // Who names these facts is kept with them: `trader config trust` says it as this refusal does.
  const source = bindingSource(binding);
  guarded('keep the token facts for a person', () => store.recordPendingToken(mint, facts, source));
  const onChain = facts.symbol
    ? ` (${facts.symbol}${facts.name ? `, ${facts.name}` : ''}, ${factsSourcePhrase(source)})`
    : '';
  throw new RefusedToSignError(
    [
      `"${symbol}" is only the service's name for token ${mint}${onChain}: a symbol names a mint only once you bind it, and here ${presence.why}`,
    ],
    [
      `${NOTHING_CREATED}; type the mint instead of the symbol, confirm it at the prompt (without --yes), or, if ${mint} is the token you mean, bind it with the facts shown here (${keptFacts(facts)}; fingerprint ${fingerprint}): ${command}`,
    ],
    { code: 'SYMBOL_NOT_BOUND', command, fingerprint },
  );
}

/**
 * Records the chain's facts of a token a buy or sell read (by: 'chain'), so that another mint the
 * chain gives the same symbol or name is refused later; a mint the person typed binds its chain
 * symbol to it. The callers make it only when a person is present (a record names a mint for a
 * symbol, which is trust only a person grants). The trade goes on either way: a store that cannot
 * be written costs only the record, and says so.
 */
export function recordChainFacts(
  ctx: Context,
  store: TrustStore,
  facts: ChainTokenFacts | null,
  typedMint: boolean,
  announce: AnnounceGrant,
): void {
  if (!facts) return;
  try {
    const kept = factsOf(facts);
    const changed = store.recordChainToken(facts.mint, kept, typedMint);
    if (changed.facts || changed.symbol)
      announce({ what: 'chain-facts', mint: facts.mint, ...kept, boundSymbol: changed.symbol });
  } catch (err) {
    if (!(err instanceof TrustStoreError)) throw err;
    ctx.output.warn(`the chain's facts of token ${facts.mint} could not be recorded: ${err.message}`);
  }
}

/** A token's facts alone, without when or by whom they were kept. */
const factsOf = (t: TokenMeta): TokenMeta => ({ symbol: t.symbol, name: t.name, decimals: t.decimals });
