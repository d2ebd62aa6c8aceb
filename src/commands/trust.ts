// The trust store as commands use it: opened for the configured service, its failures turned
// into usage errors (a trade must not go on when its pins cannot be read or stored).
import type { Context } from '../context.js';
import { TrustStoreError, type TrustStore } from '../config/trust-store.js';
import { UsageError } from '../errors.js';
import type { SellTrust } from '../trade/sell-flow.js';
import type { PinnedTokens } from '../domain/token-claims.js';
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
    if (err instanceof TrustStoreError) throw new UsageError(`cannot ${what}: ${err.message}; ${NOTHING_SIGNED}`, 'TRUST_STORE');
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

/** The sell flow's view of the store: the approved template, and a person's pins made at the prompt. */
export function sellTrust(store: TrustStore): SellTrust {
  return {
    approved: () =>
      guarded('read the sell template', () => {
        const trust = store.read();
        const pinned = trust.sellTemplate;
        if (pinned && isTemplate(pinned.template)) return { template: pinned.template, fingerprint: pinned.fingerprint };
        return trust.sellWording ? 'earlier-version' : null;
      }),
    pinTemplate: (template, fingerprint, replacing) => guarded('pin the sell template', () => store.pinTemplate(template, fingerprint, 'prompt', replacing)),
    recordPendingTemplate: (template, fingerprint) => guarded('keep the sell template for a person', () => store.recordPendingTemplate(template, fingerprint)),
    pinToken: (mint, facts) => void guarded('pin the token facts', () => store.pinToken(mint, facts, 'prompt')),
    recordPendingToken: (mint, facts) => guarded('keep the token facts for a person', () => store.recordPendingToken(mint, facts)),
  };
}
