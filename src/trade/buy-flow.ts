// The buy flow: create (or resume) the intent, inspect the deposit, ask, sign, submit, follow.
// No printing: the command supplies hooks for confirmation, progress and pinning the treasury.
import { isUncertainOutcome, type ServiceClient } from '../api/client.js';
import { BUY_TERMINAL_STATUSES, type BuyIntent, type CreateBuyResponse, type Trade } from '../api/types.js';
import type { Clock } from '../clock.js';
import { ApiError, DeclinedError, RefusedToSignError, UsageError } from '../errors.js';
import type { Keypair } from '../wallet/keypair.js';
import { inspectDeposit, type DepositFacts } from '../wallet/deposit-inspection.js';
import { signDepositTransaction } from '../wallet/signing.js';
import { pollUntil } from './poll.js';
import { readQuote, type QuoteRead } from './buy-quote.js';
import { readTradeOrNull } from './read-trade.js';
import { buyStatusStage } from './stages.js';

/** Buy reads happen this often: "every few seconds", quick enough to notice completion. */
export const BUY_POLL_INTERVAL_MS = 2000;

export interface BuyRequest {
  mint: string;
  amountLamports: bigint;
  slippageBps?: number;
  idempotencyKey: string;
  /** The user typed the key (to resume), rather than it being made fresh for this run. */
  keyTyped: boolean;
  maxFeeLamports: bigint;
  /** Pinned treasury, or null for trust on first use. */
  treasury: string | null;
  wait: boolean;
  dryRun: boolean;
  /** How long to wait for the end once the deposit is in (not counting the prompt); null = no limit. */
  waitLimitMs: number;
}

/** What the user is asked to approve. */
export interface BuyReview {
  intent: BuyIntent;
  facts: DepositFacts;
  lastValidBlockHeight: number;
  /** The intent's trade as read after the create: expected output, platform fee, slippage. */
  quote: QuoteRead;
}

export interface BuyHooks {
  /** The intent exists (new or resumed); `resumed` when the key returned an earlier buy. */
  created(intent: BuyIntent, resumed: boolean): void;
  /** Asks the user; false declines. */
  confirm(review: BuyReview): Promise<boolean>;
  /** The intent was cancelled (a refusal, a decline or a dry run). */
  cancelled(intent: BuyIntent): void;
  /** Trust on first use: record the recipient of the first accepted deposit as the treasury. */
  pinTreasury(address: string): void;
  /** The signed deposit was accepted (or may have been): from here the buy goes on without us. */
  submitted(): void;
  /** A stage change while following the buy (an API stage name, see stages.ts). */
  stage(stage: string): void;
}

export interface BuyDeps {
  api: ServiceClient;
  clock: Clock;
  signal: AbortSignal;
  keypair: Keypair;
}

export type BuyOutcome =
  | { kind: 'dry-run'; intent: BuyIntent; review: BuyReview; problems: string[] }
  | { kind: 'accepted'; intent: BuyIntent }
  | { kind: 'final'; intent: BuyIntent; trade: Trade | null }
  | { kind: 'timeout'; intent: BuyIntent; trade: Trade | null };

const isFinal = (i: BuyIntent) => (BUY_TERMINAL_STATUSES as readonly string[]).includes(i.status);

/** Runs a buy to its end (or to the deposit with --no-wait). Throws typed errors for refusals. */
export async function runBuy(deps: BuyDeps, req: BuyRequest, hooks: BuyHooks): Promise<BuyOutcome> {
  const { api } = deps;
  const created = await api.createBuy({
    mint: req.mint,
    amountLamports: req.amountLamports.toString(),
    idempotencyKey: req.idempotencyKey,
    ...(req.slippageBps === undefined ? {} : { slippageBps: req.slippageBps }),
  });
  let intent = created.intent;
  const resumed = intent.status !== 'awaiting_deposit';
  // A key the user typed may name an earlier buy of something else: that is their mistake,
  // not the service's, and that buy (perhaps at a prompt elsewhere) is left alone. A mismatch
  // on a fresh key is the service's doing and is refused by the inspection below.
  if ((resumed || req.keyTyped) && (intent.outputMint !== req.mint || intent.amountLamports !== req.amountLamports.toString())) {
    throw new UsageError(
      `idempotency key ${req.idempotencyKey} belongs to another buy (${intent.amountLamports} lamports of ${intent.outputMint}); use a new key`,
      'IDEMPOTENCY_MISMATCH',
    );
  }
  hooks.created(intent, resumed);

  if (intent.status === 'awaiting_deposit') {
    const inspection = inspect(deps, req, created);
    // Whoever reports the outcome shows the cancelled intent, never the quote's awaiting_deposit.
    const cancel = async () => {
      const cancelled = await cancelQuietly(api, intent.id);
      if (cancelled) {
        intent = cancelled;
        hooks.cancelled(cancelled);
      }
    };
    if (req.dryRun) {
      // The quote is read while the intent still awaits its deposit, then the intent is cancelled.
      const quote = inspection.facts ? await readQuote(api, intent) : null;
      await cancel();
      if (!inspection.facts || !quote) throw new RefusedToSignError(inspection.problems, ['dry run: nothing was signed; the buy intent was cancelled']);
      return { kind: 'dry-run', intent, review: review(created, inspection.facts, quote), problems: inspection.problems };
    }
    if (inspection.problems.length > 0 || !inspection.facts) {
      await cancel();
      throw new RefusedToSignError(inspection.problems, ['the buy intent was cancelled; nothing was signed']);
    }
    if (!(await hooks.confirm(review(created, inspection.facts, await readQuote(api, intent))))) {
      await cancel();
      throw new DeclinedError();
    }
    const signed = signDepositTransaction(created.deposit.transaction, deps.keypair.secretKey);
    try {
      intent = await submitDeposit(deps, intent, signed);
    } catch (err) {
      if (isUncertainOutcome(err)) hooks.submitted();
      else if (err instanceof ApiError) {
        // Refused outright (e.g. its blockhash expired during a long look at the prompt):
        // nothing was spent, and the intent would only linger until it expires.
        await cancel();
        err.message += '; the deposit was not accepted and the buy intent was cancelled: nothing was spent, run the command again';
      }
      throw err;
    }
    hooks.submitted();
    if (inspection.facts.treasuryCheck === 'first-use' && inspection.facts.recipient) hooks.pinTreasury(inspection.facts.recipient);
  } else {
    if (req.dryRun) throw new UsageError(`buy ${intent.id} is already ${intent.status}; nothing to dry-run`);
  }

  // --no-wait stops at an accepted deposit; a resumed buy that is already over is reported as such.
  if (!req.wait && !isFinal(intent)) return { kind: 'accepted', intent };
  return follow(deps, intent, deps.clock.now() + req.waitLimitMs, hooks);
}

function inspect(deps: BuyDeps, req: BuyRequest, created: CreateBuyResponse) {
  return inspectDeposit({
    transactionBase64: created.deposit.transaction,
    owner: deps.keypair.publicKey,
    intent: created.intent,
    requestedMint: req.mint,
    typedLamports: req.amountLamports,
    maxFeeLamports: req.maxFeeLamports,
    treasury: req.treasury,
  });
}

function review(created: CreateBuyResponse, facts: DepositFacts, quote: QuoteRead): BuyReview {
  return { intent: created.intent, facts, lastValidBlockHeight: created.deposit.lastValidBlockHeight, quote };
}

/**
 * Submits the signed deposit once. A lost answer is not a failure: the buy is read, and only
 * if it still awaits its deposit is the same signed transaction sent again (the service
 * accepts a deposit once, and the same signature can land on chain only once).
 */
async function submitDeposit(deps: BuyDeps, intent: BuyIntent, signed: string): Promise<BuyIntent> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await deps.api.submitDeposit(intent.id, { signedTransaction: signed })).intent;
    } catch (err) {
      // A resend may lose to the first submission arriving late (409 already accepted): the
      // buy's real state decides, not the resend's answer.
      if (!isUncertainOutcome(err) && attempt === 1) throw err;
      const current = (await deps.api.getBuy(intent.id)).intent;
      if (current.status !== 'awaiting_deposit') return current;
      if (attempt >= 2 || !isUncertainOutcome(err)) throw err;
    }
  }
}

/** Follows the buy until a final status or the deadline, then reads the trade. */
async function follow(deps: BuyDeps, intent: BuyIntent, deadlineMs: number, hooks: BuyHooks): Promise<BuyOutcome> {
  const result = await pollUntil<BuyIntent>({
    clock: deps.clock,
    signal: deps.signal,
    intervalMs: BUY_POLL_INTERVAL_MS,
    deadlineMs,
    read: async () => (await deps.api.getBuy(intent.id)).intent,
    isDone: isFinal,
    onValue: (i) => hooks.stage(buyStatusStage(i.status)),
  });
  const last = result.value ?? intent;
  const trade = await readTradeOrNull(deps.api, intent.id);
  return { kind: result.done ? 'final' : 'timeout', intent: last, trade };
}


/** Cancels the intent; returns it as cancelled, or null when the cancel did not go through. */
async function cancelQuietly(api: ServiceClient, id: string): Promise<BuyIntent | null> {
  try {
    return (await api.cancelBuy(id)).intent;
  } catch {
    /* the intent expires unsigned anyway; the refusal matters more than the cancel */
    return null;
  }
}
