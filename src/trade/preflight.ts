// How every trade starts, buy and sell alike: the lock (trader lock) and the brake's limits, the profile's limits (per trade and per day) and
// confirmation checked, the wallet's public key read, the way to its secret (a keystore's
// password) checked and the journal opened, before anything is sent; then the service, the
// trust store, the treasury the user trusts, and the wallet check before anything is created.
import type { ServiceClient } from '../api/client.js';
import type { TrustStore } from '../config/trust-store.js';
import type { Context } from '../cli/context.js';
import { UsageError } from '../domain/errors.js';
import type { Signer } from '../wallet/owner-wallet.js';
import { allowedSlippage, limitChecks, slippageToAsk, waitLimitMs } from '../cli/trade-options.js';
import { openTrust, pinnedTreasury } from './trust.js';
import { dailyCap, type DailyCap } from '../journal/daily-limits.js';
import { openTradeJournal, preCheckDaily, type TradeJournal } from '../journal/opened-journal.js';
import { assertUnlocked, preCheckBrake } from './brake-checks.js';
import { NOTHING_SENT } from '../domain/outcome-words.js';
import { parseAddress } from '../config/profile-values.js';

/** What a trade has once its checks passed, for its flow. */
export interface TradeStart {
  signer: Signer;
  /** Which key signs, as the reviews name it: the source and where it was set ("keystore main (profile)"). */
  signerWords: string;
  api: ServiceClient;
  trust: TrustStore;
  /** Set by flag, environment or profile; else pinned for this service; else null (first use). */
  treasury: string | null;
  /** The slippage to ask the service for (undefined: its default). */
  slippageBps: number | undefined;
  /** The most slippage the trade may carry. */
  allowedSlippageBps: number;
  waitLimitMs: number;
  /** The journal every step is recorded in (checked writable). */
  journal: TradeJournal;
  /** The daily limit this run is held to, or null. */
  dailyCap: DailyCap | null;
  /**
   * No person can confirm this trade: why, to refuse it with once the quote's limits were checked
   * (the trade then runs as a dry run); null when a person can (or under --yes, need not).
   */
  confirmationNeeded: string | null;
}

/**
 * Checks and opens what a buy or sell needs, in the order that sends nothing until it must: every
 * limit (per trade, per day) before the confirmation is demanded. When no person can confirm, the
 * trade is refused here (nothing sent), unless `quoteLimits`: a limit of this trade that only its
 * quote can show (--min-sol) is checked first, and `confirmationNeeded` is the refusal to throw
 * once it passed.
 */
export async function startTrade(
  ctx: Context,
  request: {
    side: 'buy' | 'sell';
    dryRun: boolean;
    slippageBps?: number;
    buyLamports?: bigint;
    /** The amount as typed, for the refusal of an amount over the limit. */
    amountText?: string;
    dailyLimitLamports?: bigint;
    /** The key typed: a trade it made that the journal saw signed is counted already. */
    idempotencyKey?: string;
    quoteLimits?: boolean;
    /** The mint when typed as one (a symbol is resolved later, and checked then). */
    mint?: string;
  },
): Promise<TradeStart> {
  // The brake before anything else: while `trader lock` holds, nothing is even quoted.
  assertUnlocked(ctx, NOTHING_SENT);
  const setTreasury = ctx.settings.treasury === null ? null : parseAddress(ctx.settings.treasury, 'treasury');
  limitChecks(ctx, {
    buyLamports: request.buyLamports,
    amountText: request.amountText,
    slippageBps: request.slippageBps,
  });
  const cap = dailyCap(ctx, request.side, request.dailyLimitLamports);
  const confirmationNeeded = request.dryRun ? null : unconfirmable(ctx);
  const signer = await ctx.signer();
  const journal = await openTradeJournal(ctx, signer.publicKey);
  // A buy's amount is known now: past the daily limit, nothing is created (checked again, atomically, before signing).
  if (request.buyLamports !== undefined)
    preCheckDaily(ctx, journal, cap, request.buyLamports, request.idempotencyKey ?? null);
  // A resume (a key typed) may be a trade signed already: the gate, which knows, checks it.
  if (request.idempotencyKey === undefined) preCheckBrake(ctx, journal, request.side, request.mint ?? null);
  // Limits before questions: only a trade within them is told that no one can confirm it.
  if (confirmationNeeded !== null && !request.quoteLimits)
    throw new UsageError(`${confirmationNeeded}; ${NOTHING_SENT}`, 'CONFIRMATION_REQUIRED');
  // A keystore's password must be to be had when it is time to sign (not for a dry run, which signs nothing).
  if (!request.dryRun && confirmationNeeded === null) signer.checkCanSign();
  const api = await ctx.api();
  const trust = await openTrust(ctx);
  const treasury = setTreasury ?? pinnedTreasury(trust);
  await checkWallet(api, signer);
  return {
    signer,
    signerWords: signerWords(ctx),
    api,
    trust,
    treasury,
    slippageBps: slippageToAsk(ctx, request.slippageBps),
    allowedSlippageBps: allowedSlippage(ctx, request.slippageBps),
    waitLimitMs: waitLimitMs(ctx),
    journal,
    dailyCap: cap,
    confirmationNeeded,
  };
}

/** The signer as the reviews name it: the source as set (a path, keystore:<name>, …; never a secret), and which setting chose it (a variable may win over the profile). */
export function signerWords(ctx: Context): string {
  const by = ctx.settings.overrides.keypair;
  const profile = ctx.config.document.profiles[ctx.settings.profileName]?.keypair;
  const from =
    by ?? (profile !== undefined && profile !== '' ? `profile "${ctx.settings.profileName}"` : 'the default');
  return `${ctx.settings.keypair} (${from})`;
}

/** Why no person can confirm a trade (no terminal without --yes, --json without --yes), or null. */
function unconfirmable(ctx: Context): string | null {
  if (ctx.settings.yes) return null;
  if (ctx.terminal.interactive) return null;
  return ctx.settings.json
    ? 'trading with --json needs --yes (there is no prompt in --json mode)'
    : 'confirmation needed but this is not an interactive terminal: pass --yes to trade';
}

/** The keypair must be the account's main wallet, or every signature would be refused. */
async function checkWallet(api: ServiceClient, signer: Signer): Promise<void> {
  const account = await api.me();
  if (account.walletAddress !== signer.publicKey) {
    throw new UsageError(
      `the keypair is wallet ${signer.publicKey}, but this account's wallet is ${account.walletAddress}; use --keypair with the account's wallet`,
      'WALLET_MISMATCH',
    );
  }
}
