// The sell flow: create (or resume) the authorization, check it, ask, sign the message,
// authorize, follow. No printing: the command supplies hooks.
import { isUncertainOutcome, type ServiceClient } from '../api/client.js';
import type { GetSellResponse, SellAuthorization, Trade } from '../api/types.js';
import type { Clock } from '../clock.js';
import { DeclinedError, RefusedToSignError, UsageError } from '../errors.js';
import type { Keypair } from '../wallet/keypair.js';
import { checkSellAuthorization } from '../wallet/sell-authorization-check.js';
import { signMessage } from '../wallet/signing.js';
import { readTradeOrNull } from './read-trade.js';
import { sellGroupKey, type SellOutcome } from './sell-outcome.js';
import { watchSell } from './watch.js';

export const SELL_POLL_INTERVAL_MS = 2000;

export interface SellRequest {
  mint: string;
  amount: bigint;
  slippageBps?: number;
  idempotencyKey: string;
  /** The user typed the key (to resume), rather than it being made fresh for this run. */
  keyTyped: boolean;
  /** --min-sol in lamports. */
  minSolLamports: bigint | null;
  token: { symbol: string | null; decimals: number | null; name: string | null } | null;
  wait: boolean;
  dryRun: boolean;
  /** How long to wait for the end once authorized (not counting the prompt); null = no limit. */
  waitLimitMs: number;
}

export type SellAnswer = 'yes' | 'no' | 'fresh-quote';

export interface SellHooks {
  created(authorization: SellAuthorization, resumed: boolean): void;
  /**
   * Asks the user. Returns 'fresh-quote' when the answer came after the authorization expired
   * and the user wants a new quote instead of signing a dead one.
   */
  confirm(authorization: SellAuthorization): Promise<SellAnswer>;
  /** A fresh idempotency key for a new quote. */
  newIdempotencyKey(): string;
  /** The signature was accepted (or may have been): from here the sell goes on without us. */
  submitted(): void;
  stage(stage: string): void;
}

export interface SellDeps {
  api: ServiceClient;
  clock: Clock;
  signal: AbortSignal;
  keypair: Keypair;
}

export type SellResult =
  | { kind: 'dry-run'; authorization: SellAuthorization; problems: string[]; idempotencyKey: string }
  | { kind: 'accepted'; view: GetSellResponse; idempotencyKey: string }
  | { kind: 'final' | 'timeout'; view: GetSellResponse; outcome: SellOutcome | undefined; trade: Trade | null; idempotencyKey: string };

/** Runs a sell to its end (or to the authorization with --no-wait). */
export async function runSell(deps: SellDeps, req: SellRequest, hooks: SellHooks): Promise<SellResult> {
  let idempotencyKey = req.idempotencyKey;
  for (;;) {
    const { authorization } = await deps.api.createSell({
      mint: req.mint,
      amount: req.amount.toString(),
      idempotencyKey,
      ...(req.slippageBps === undefined ? {} : { slippageBps: req.slippageBps }),
    });
    const resumed = authorization.status !== 'awaiting_signature';
    // A typed key may name an earlier sell of something else (the user's mistake); on a fresh
    // key a mismatch is the service's doing and the checks below refuse it.
    const keyTyped = req.keyTyped && idempotencyKey === req.idempotencyKey;
    if ((resumed || keyTyped) && (authorization.mint !== req.mint || authorization.amount !== req.amount.toString())) {
      throw new UsageError(
        `idempotency key ${idempotencyKey} belongs to another sell (${authorization.amount} units of ${authorization.mint}); use a new key`,
        'IDEMPOTENCY_MISMATCH',
      );
    }
    hooks.created(authorization, resumed);

    if (resumed) {
      if (req.dryRun) throw new UsageError(`sell ${authorization.id} is already ${authorization.status}; nothing to dry-run`);
      const view = await deps.api.getSell(authorization.id);
      return finish(deps, req, view, idempotencyKey, hooks);
    }

    const problems = checkSellAuthorization({
      authorization,
      requestedMint: req.mint,
      requestedAmount: req.amount,
      token: req.token,
      minSolLamports: req.minSolLamports,
      slippageBps: req.slippageBps ?? null,
      nowMs: deps.clock.now(),
    });
    // A dry run leaves the authorization unsigned: it expires by itself within 2 minutes.
    if (req.dryRun) return { kind: 'dry-run', authorization, problems, idempotencyKey };
    if (problems.length > 0) throw new RefusedToSignError(problems, ['nothing was signed; the authorization expires unused']);

    const answer = await hooks.confirm(authorization);
    if (answer === 'fresh-quote') {
      idempotencyKey = hooks.newIdempotencyKey();
      continue;
    }
    if (answer === 'no') {
      throw new DeclinedError();
    }
    // The answer may have come late: never sign an authorization that is already dead.
    if (Date.parse(authorization.expiresAt) <= deps.clock.now()) {
      throw new RefusedToSignError(['the authorization expired before it could be signed'], ['run the command again for a fresh quote']);
    }
    const signature = signMessage(authorization.message, deps.keypair.secretKey);
    let view: GetSellResponse;
    try {
      view = await authorize(deps, authorization, signature);
    } catch (err) {
      if (isUncertainOutcome(err)) hooks.submitted();
      throw err;
    }
    hooks.submitted();
    return finish(deps, req, view, idempotencyKey, hooks);
  }
}

/**
 * Authorizes once. After a lost answer the sell is read; only if it still awaits its
 * signature is the same signature sent again (the service uses a signature once).
 */
async function authorize(deps: SellDeps, authorization: SellAuthorization, signature: string): Promise<GetSellResponse> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await deps.api.authorizeSell(authorization.id, { signature });
      return { authorization: result.authorization, sell: result.sell };
    } catch (err) {
      // A resend may lose to the first one arriving late (409 already used): the sell's real
      // state decides, not the resend's answer.
      if (!isUncertainOutcome(err) && attempt === 1) throw err;
      const current = await deps.api.getSell(authorization.id);
      if (current.authorization.status !== 'awaiting_signature') return current;
      if (attempt >= 2 || !isUncertainOutcome(err)) throw err;
    }
  }
}

async function finish(deps: SellDeps, req: SellRequest, view: GetSellResponse, idempotencyKey: string, hooks: SellHooks): Promise<SellResult> {
  if (!req.wait && view.authorization.status === 'authorized') return { kind: 'accepted', view, idempotencyKey };
  const watched = await watchSell(deps, view.authorization.id, {
    intervalMs: SELL_POLL_INTERVAL_MS,
    deadlineMs: deps.clock.now() + req.waitLimitMs,
    onStage: (stage) => hooks.stage(stage),
  });
  // Once final, the sell is read once more so the result shows its final state.
  const last = watched.done ? await deps.api.getSell(view.authorization.id) : (watched.view ?? view);
  const key = sellGroupKey(last.sell);
  const trade = key ? await readTradeOrNull(deps.api, key) : null;
  return { kind: watched.done ? 'final' : 'timeout', view: last, outcome: watched.outcome, trade, idempotencyKey };
}

