// The trust store as commands use it: opened for the configured service, its failures turned
// into usage errors (a trade must not go on when its pins cannot be read or stored), and the
// `trader config trust` commands that show, accept and forget pins.
import type { Context } from '../context.js';
import { TrustStoreError, type TrustStore } from '../config/trust-store.js';
import { UsageError } from '../errors.js';
import { renderFields, renderQuoted } from '../io/table.js';
import type { WordingTrust } from '../trade/sell-flow.js';
import type { AcceptWordingOptions, ForgetOptions } from './definitions/config.js';

/** The trust store of the configured service; warns once when other users could change it. */
export async function openTrust(ctx: Context): Promise<TrustStore> {
  const store = await ctx.trustStore();
  const warning = store.permissionWarning();
  if (warning) ctx.output.warn(warning);
  return store;
}

/** Runs a trust-store operation; a store that cannot be read or written is exit 2, saying why. */
export function guarded<T>(what: string, operation: () => T): T {
  try {
    return operation();
  } catch (err) {
    if (err instanceof TrustStoreError) throw new UsageError(`cannot ${what}: ${err.message}; nothing was signed`, 'TRUST_STORE');
    throw err;
  }
}

/** The pinned treasury for this service, or null. */
export function pinnedTreasury(store: TrustStore): string | null {
  return guarded('read the pinned treasury', () => store.read().treasury?.address ?? null);
}

/** The sell flow's view of the store. */
export function wordingTrust(store: TrustStore): WordingTrust {
  return {
    pinned: () => guarded('read the pinned sell wording', () => store.read().sellWording ?? null),
    pin: (text, fingerprint, replacing) => guarded('pin the sell wording', () => store.pinWording(text, fingerprint, replacing)?.fingerprint ?? null),
    recordPending: (text, fingerprint) => store.recordPendingWording(text, fingerprint),
  };
}

/** `trader config trust`: what is pinned for the configured service. */
export async function show(ctx: Context): Promise<void> {
  const store = await openTrust(ctx);
  const trust = guarded('read', () => store.read());
  ctx.output.result({ service: store.service, path: store.path, ...trust }, (theme) => {
    const lines = [
      `Trust store ${store.path}, service ${store.service}`,
      renderFields([
        ['Treasury', trust.treasury ? `${trust.treasury.address} (pinned ${trust.treasury.at})` : 'not pinned (the first confirmed deposit pins it)'],
        ['Sell wording', trust.sellWording ? `${trust.sellWording.fingerprint} (pinned ${trust.sellWording.at})` : 'not pinned (the first sell pins it)'],
      ]),
    ];
    if (trust.sellWording) lines.push(renderQuoted(trust.sellWording.text));
    if (trust.pendingSellWording) {
      const pending = trust.pendingSellWording;
      lines.push(theme.pending(`A changed sell wording ${pending.fingerprint} was refused at ${pending.at}:`), renderQuoted(pending.text));
      lines.push(`If it is what you expect, accept it with: trader config trust accept-wording ${pending.fingerprint}`);
    }
    return lines.join('\n');
  });
}

/** `trader config trust accept-wording <fingerprint>`: pins the wording the user has read. */
export async function acceptWording(ctx: Context, { fingerprint }: AcceptWordingOptions): Promise<void> {
  const store = await openTrust(ctx);
  const accepted = guarded('accept the wording', () => store.acceptPendingWording(fingerprint));
  if (!accepted) {
    throw new UsageError(`no refused sell wording ${fingerprint} is waiting for ${store.service}; see \`trader config trust\``, 'NO_SUCH_WORDING');
  }
  ctx.output.result({ service: store.service, sellWording: accepted }, () => `Pinned sell wording ${accepted.fingerprint} for ${store.service}.`);
}

/** `trader config trust forget treasury|wording`: the next trade is a first use again. */
export async function forget(ctx: Context, { what }: ForgetOptions): Promise<void> {
  const store = await openTrust(ctx);
  const had = guarded('forget the pin', () => store.forget(what));
  ctx.output.result({ service: store.service, forgot: what, hadPin: had }, () =>
    had ? `Forgot the pinned ${what} of ${store.service}; the next trade pins it again.` : `No ${what} was pinned for ${store.service}.`,
  );
}
