// The sell flow: create (or resume) the authorization, check it, ask, sign the message,
// authorize, follow. No printing: the command supplies hooks.
import { isUncertainOutcome, type ServiceClient } from '../api/client.js';
import type { GetSellResponse, SellAuthorization, Trade } from '../api/types.js';
import type { Clock } from '../clock.js';
import type { TradeStop } from '../domain/trade-stop.js';
import { ApiError, DeclinedError, RefusedToSignError, UsageError } from '../errors.js';
import { tracked, type TradeTracker } from './trade-tracker.js';
import type { Signer } from '../wallet/signer.js';
import { authorizationExpired, checkSellAuthorization, type Finding } from '../wallet/sell-authorization-check.js';
import { describeWordingChange } from '../domain/wording-diff.js';
import { shapeWording, withoutShapes } from '../wallet/sell-message/slot-shapes.js';
import { wordingFingerprint } from '../wallet/sell-message/wording.js';
import { readTradeOrNull } from './read-trade.js';
import type { SellOutcome } from '../domain/sell-outcome.js';
import { sellGroupKey } from './sell-outcome.js';
import { noteSell, watchSell } from './watch.js';
import type { SellSeen } from '../domain/sell-evidence.js';
import type { SellReview, WordingStatus } from '../domain/sell-review.js';
import { worthPinning, type TokenMeta } from '../domain/token.js';
import { claimsOfOtherMints, type PinnedTokens } from '../domain/token-claims.js';
import type { TradeRecorder } from '../domain/trade-record.js';
import { SERVICE_CONTRADICTION } from './watch.js';

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
  /** The most slippage the user allows (--slippage-bps, the profile's maxSlippageBps, or the default cap). */
  allowedSlippageBps: number;
  token: { symbol: string | null; decimals: number | null; name: string | null } | null;
  /** Every token the account holds: a symbol names the token only when it is one token's. */
  knownTokens: Array<{ mint: string; symbol: string | null; name?: string | null }>;
  /** The treasury the user trusts (set or pinned), the one address besides mint and wallet a message may name. */
  treasury: string | null;
  /** --yes: nothing can be asked, so what would need the user's acceptance is refused. */
  assumeYes: boolean;
  /** False when no person approves this run (an agent): a first wording is never pinned, only refused for a person to accept. */
  mayPinOnFirstUse?: boolean;
  wait: boolean;
  dryRun: boolean;
  /** How long to wait for the end once authorized (not counting the prompt); null = no limit. */
  waitLimitMs: number;
}

/** The sell-message wordings and token facts the user has trusted for this service (the trust store). */
export interface SellTrust {
  /** The token's facts as first traded here (confirmed: a person accepted them), or null. */
  pinnedToken(mint: string): (TokenMeta & { confirmed?: boolean }) | null;
  /** Every token's pinned facts, by mint: a symbol or name pinned for one mint is refused on another. */
  pinnedTokens(): PinnedTokens;
  /** Pins the token's facts unless some are pinned already (marking them confirmed if so). Throws when they cannot be stored. */
  pinToken(mint: string, facts: TokenMeta, confirmed: boolean): void;
  /** The pinned wording, or null before the first sell. */
  pinned(): { text: string; fingerprint: string } | null;
  /** Pins `text` where the pinned one is still `replacing` (null: none); returns the fingerprint pinned after (null: none). Throws when it cannot be stored. */
  pin(text: string, fingerprint: string, replacing: string | null): string | null;
  /** Keeps a changed wording (and token facts to confirm with it) for the user to read and accept later. */
  recordPending(text: string, fingerprint: string, token?: { mint: string } & TokenMeta): void;
}

export interface SellHooks {
  created(authorization: SellAuthorization, resumed: boolean): void;
  /** Shows the review and asks the user (under --yes: shows it and answers yes); false declines. */
  confirm(review: SellReview): Promise<boolean>;
  /** The answers came after the authorization expired: whether to get a fresh quote instead of signing a dead one. */
  freshQuote(): Promise<boolean>;
  /** The separate, default-No question for unexplained text or a changed wording. */
  acceptWording(review: SellReview): Promise<boolean>;
  /** A fresh idempotency key for a new quote. */
  newIdempotencyKey(): string;
  stage(stage: string): void;
}

export interface SellDeps {
  api: ServiceClient;
  clock: Clock;
  signal: AbortSignal;
  /** The owner wallet: its secret is obtained (a keystore's password asked) only to sign. */
  signer: Signer;
  trust: SellTrust;
  /** The journal: each step recorded before it is taken; `created` and `beforeSigning` may refuse the sell. */
  journal: TradeRecorder;
}

/** How a sell ended: a result to show, or a stop (refused, declined, interrupted, a service error, a local refusal). */
export type SellResult =
  | { kind: 'dry-run'; review: SellReview; problems: string[]; idempotencyKey: string }
  | { kind: 'accepted'; view: GetSellResponse; idempotencyKey: string }
  | { kind: 'final' | 'timeout'; view: GetSellResponse; outcome: SellOutcome | undefined; trade: Trade | null; idempotencyKey: string }
  | { kind: 'stopped'; stop: TradeStop };

/** Runs a sell to its end (or to the authorization with --no-wait); every way it can stop is a value. */
export function runSell(deps: SellDeps, req: SellRequest, hooks: SellHooks): Promise<SellResult> {
  return tracked('sell', req.idempotencyKey, (track) => sell(deps, req, hooks, track));
}

async function sell(deps: SellDeps, req: SellRequest, hooks: SellHooks, track: TradeTracker): Promise<SellResult> {
  let idempotencyKey = req.idempotencyKey;
  for (;;) {
    track.ref.idempotencyKey = idempotencyKey;
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
      const other = `${authorization.amount} units of ${authorization.mint}`;
      // On a fresh key the other sell is the service's doing, not the user's: it is not this sell.
      if (!keyTyped) throw new ApiError(`the service answered a new idempotency key with sell ${authorization.id}, already ${authorization.status}, of ${other}: not this sell; nothing was signed`, { code: SERVICE_CONTRADICTION });
      throw new UsageError(`idempotency key ${idempotencyKey} belongs to another sell (${other}); use a new key`, 'IDEMPOTENCY_MISMATCH');
    }
    track.created(authorization.id, authorization, resumed);
    deps.journal.created({ id: authorization.id, idempotencyKey, resumed, request: { mint: req.mint, amount: req.amount, slippageBps: req.slippageBps }, quote: authorization });
    hooks.created(authorization, resumed);

    if (resumed) {
      if (req.dryRun) throw new UsageError(`sell ${authorization.id} is already ${authorization.status}; nothing to dry-run`);
      const view = await deps.api.getSell(authorization.id);
      return finish(deps, req, view, 'the first read', idempotencyKey, hooks);
    }

    const pinnedToken = deps.trust.pinnedToken(req.mint);
    const check = checkSellAuthorization({
      authorization,
      requestedMint: req.mint,
      requestedAmount: req.amount,
      token: req.token,
      confirmedToken: pinnedToken?.confirmed ? pinnedToken : null,
      knownTokens: req.knownTokens,
      owner: deps.signer.publicKey,
      treasury: req.treasury,
      minSolLamports: req.minSolLamports,
      allowedSlippageBps: req.allowedSlippageBps,
      nowMs: deps.clock.now(),
    });
    const pinned = deps.trust.pinned();
    const wording = check.wording === null ? (authorization.message ?? '') : shapeWording(check.wording, check.slotValues, pinned?.text ?? null);
    const review = reviewOf(authorization, check.findings, wording, pinned);
    const problems = [...check.problems, ...tokenFactsProblems(req.mint, req.token, pinnedToken), ...claimsOfOtherMints(req.mint, req.token, deps.trust.pinnedTokens())];
    // A dry run leaves the authorization unsigned (it expires by itself within 2 minutes) and pins nothing.
    if (req.dryRun) return { kind: 'dry-run', review, problems: [...problems, ...acceptanceNeeded(review)], idempotencyKey };
    if (problems.length > 0) throw new RefusedToSignError(problems, ['nothing was signed; the authorization expires unused']);

    if (!(await track.asking(() => hooks.confirm(review)))) throw new DeclinedError();
    const needs = acceptanceNeeded(review);
    if (review.wording.status === 'first-use' && req.mayPinOnFirstUse === false) {
      needs.push('no sell wording is pinned for this service yet, and no person is here to read this one and pin it');
    }
    if (needs.length > 0) {
      if (req.assumeYes && review.findings.some((f) => f.slot)) {
        // Accepting a wording cannot vouch for this authorization's own values: a fresh one has fresh ones.
        throw new RefusedToSignError(needs, ['nothing was signed; a fresh authorization (running the same command again) gets a new id, hash and nonce']);
      }
      if (req.assumeYes) refuseUnattended(deps.trust, review, needs, req.token && { mint: req.mint, ...req.token });
      if (!(await track.asking(() => hooks.acceptWording(review)))) {
        throw new DeclinedError('the message was not accepted; the authorization expires unused');
      }
    }
    // The answers may have come late: an authorization already dead is neither pinned nor
    // signed; the user may get a fresh quote instead (asked again after the pin, which may
    // have waited for another process's lock).
    const late = async (): Promise<boolean> => {
      if (!authorizationExpired(authorization, deps.clock.now())) return false;
      if (req.assumeYes) throw new RefusedToSignError(['the authorization expired before it could be signed'], ['run the command again for a fresh quote']);
      if (!(await track.asking(() => hooks.freshQuote()))) throw new DeclinedError('the authorization expired unused');
      idempotencyKey = hooks.newIdempotencyKey();
      return true;
    };
    if (await late()) continue;
    // The wording is pinned before anything is signed: a trust store that cannot be written
    // refuses the first use, and a process that pinned another wording meanwhile wins. A pin
    // made before slot shapes were pinned gets them now (it only narrows what it accepts).
    if (review.wording.status !== 'pinned' || review.wording.pinned?.text !== review.wording.text) {
      const pinnedNow = deps.trust.pin(review.wording.text, review.wording.fingerprint, review.wording.pinned?.fingerprint ?? null);
      if (pinnedNow !== review.wording.fingerprint) {
        throw new RefusedToSignError(['another trader process pinned a different sell wording for this service meanwhile'], ['nothing was signed; run the command again to review it']);
      }
    }
    if (await late()) continue;
    // The token's facts are pinned with the first sell of it, as the message was read with them;
    // confirmed when a person answered the prompt.
    if (worthPinning(req.token)) deps.trust.pinToken(req.mint, req.token, !req.assumeYes);
    // On disk, and within the daily limit, before the message is signed.
    deps.journal.beforeSigning({ kind: 'sell', message: authorization.message, minimumOutputLamports: BigInt(authorization.minimumOutputLamports) });
    track.phase = 'approved';
    const signature = await deps.signer.signMessage(authorization.message);
    const authorized = await authorize(deps, authorization, signature);
    // Unless the sell was read still awaiting its signature, it may go on without us.
    if ('view' in authorized) {
      track.phase = 'submitted';
      return finish(deps, req, authorized.view, authorized.from, idempotencyKey, hooks);
    }
    if (!authorized.stillAwaiting) track.phase = 'submitted';
    if (authorized.error instanceof ApiError) throw track.serviceError(authorized.error, authorized.proven);
    throw authorized.error;
  }
}

/**
 * Authorizes once. After any error the sell is read before anything is said: the signature may
 * have been taken even when the answer was lost or was an error. Only if it still awaits its
 * signature after a lost answer is the same signature sent again (the service uses it once).
 */
async function authorize(
  deps: SellDeps,
  authorization: SellAuthorization,
  signature: string,
): Promise<{ view: GetSellResponse; from: string } | { error: unknown; stillAwaiting: boolean; proven: string }> {
  // Once an answer was lost, the signature may have been taken: from then on the outcome is
  // uncertain, whatever later answers say.
  let lost = false;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await deps.api.authorizeSell(authorization.id, { signature });
      deps.journal.answer({ step: 'authorize', status: result.authorization.status });
      return { view: { authorization: result.authorization, sell: result.sell }, from: 'the authorize answer' };
    } catch (err) {
      lost ||= isUncertainOutcome(err);
      if (err instanceof ApiError) deps.journal.answer({ step: 'authorize', status: null, error: { code: err.code, status: err.status, uncertain: isUncertainOutcome(err) } });
      let current: GetSellResponse;
      try {
        current = await deps.api.getSell(authorization.id);
      } catch (readError) {
        // An interrupt while reading ends the command; either way the signature may have been taken.
        const unknown = 'the sell could not be read afterwards, so whether the signature was taken is unknown';
        return { error: readError instanceof ApiError ? err : readError, stillAwaiting: false, proven: unknown };
      }
      if (current.authorization.status !== 'awaiting_signature') return { view: current, from: 'the read after authorize' };
      // A 409 to the resend says the first one landed, even when a lagging read does not show it yet.
      if (attempt >= 2 && err instanceof ApiError && err.status === 409) return { view: current, from: 'the read after authorize' };
      if (attempt >= 2 && lost) {
        const proven = `an answer was lost and the service still shows the sell awaiting its signature, so whether it will be taken is unknown (until ${authorization.expiresAt})`;
        return { error: err, stillAwaiting: false, proven };
      }
      if (!lost) {
        const proven = `the service reports the sell still awaiting its signature (nothing sold so far); the signature it holds stays usable until ${authorization.expiresAt}`;
        return { error: err, stillAwaiting: true, proven };
      }
    }
  }
}

function reviewOf(authorization: SellAuthorization, findings: Finding[], wording: string, pinned: { text: string; fingerprint: string } | null): SellReview {
  const fingerprint = wordingFingerprint(wording);
  // The text itself is compared, not its short fingerprint (which only names it for the user).
  // A pin from before slot shapes were pinned holds the wording without them.
  const same = pinned !== null && (pinned.text === wording || (pinned.text === withoutShapes(pinned.text) && pinned.text === withoutShapes(wording)));
  const status: WordingStatus = pinned === null ? 'first-use' : same ? 'pinned' : 'changed';
  // The pinned wording keeps unexplained text literally: matching it means the user accepted that
  // text. A token's name or symbol is the token's, not the wording's: its finding stands; so does
  // an id, hash or nonce that reads as words (this authorization's, not the wording's).
  return { authorization, findings: status === 'pinned' ? findings.filter((f) => f.token || f.slot) : findings, wording: { status, text: wording, fingerprint, pinned } };
}

/** What the user must accept before this message is signed, one line each (empty: nothing). */
export function acceptanceNeeded(review: SellReview): string[] {
  const needs: string[] = [];
  if (review.findings.length > 0) {
    needs.push(`the message says things the tool cannot explain: ${review.findings.map((f) => `"${f.text}" (${f.reason})`).join(', ')}`);
  }
  if (review.wording.status === 'changed') {
    needs.push(`the service's sell message wording changed: ${describeWordingChange(review.wording.pinned!.text, review.wording.text)}`);
  }
  return needs;
}

/**
 * A token whose symbol, name or decimals differ from the ones pinned when it was first traded
 * here: with other decimals the message's whole-token figure means another amount, with another
 * symbol or name ("Wrapped SOL") it reads as another token. Facts the service no longer gives
 * are no change.
 */
function tokenFactsProblems(mint: string, now: TokenMeta | null, pinned: TokenMeta | null): string[] {
  if (!pinned || !now) return [];
  const changed = (['symbol', 'name', 'decimals'] as const).filter((k) => now[k] !== null && pinned[k] !== null && now[k] !== pinned[k]);
  if (changed.length === 0) return [];
  const said = (facts: TokenMeta) => changed.map((k) => `${k} ${JSON.stringify(facts[k])}`).join(', ');
  return [
    `the service now gives token ${mint} ${said(now)}, but ${said(pinned)} when it was first traded here; if the token really changed, forget the pinned facts with \`trader config trust forget tokens\``,
  ];
}

/** Under --yes nothing can be accepted: keep the wording for `config trust accept-wording` and refuse. */
function refuseUnattended(trust: SellTrust, review: SellReview, needs: string[], token: ({ mint: string } & TokenMeta) | null): never {
  let kept = true;
  try {
    trust.recordPending(review.wording.text, review.wording.fingerprint, review.findings.some((f) => f.token) && token ? token : undefined);
  } catch {
    kept = false;
  }
  const accept = `trader config trust accept-wording ${review.wording.fingerprint}`;
  throw new RefusedToSignError(needs, [
    kept
      ? `nothing was signed; read it with \`trader config trust\` (or answer at the prompt without --yes); if it is what you expect, accept it with: ${accept}`
      : 'nothing was signed; run the command without --yes to read it and answer at the prompt',
  ]).endingWith(kept ? accept : null);
}

/**
 * An answer about sell `id` must be about this sell: its id, token and amount. One about another
 * (a resumed key answered with another mint's sell, say) is never reported as this one (exit 3).
 */
function assertThisSell(view: GetSellResponse, id: string, req: SellRequest, from: string): void {
  const a = view.authorization;
  if (a.id === id && a.mint === req.mint && a.amount === req.amount.toString()) return;
  throw new ApiError(`the service answered about another sell in ${from}: ${a.id}, ${a.amount} units of ${a.mint}, not sell ${id} of ${req.amount} units of ${req.mint}; it is not reported as this one`, {
    code: SERVICE_CONTRADICTION,
  });
}

/**
 * Follows the sell from `view` (said by `from`) to its end. Every report is kept in order: a
 * later one that contradicts an earlier one stops the sell with the contradiction named (exit 3).
 */
async function finish(deps: SellDeps, req: SellRequest, view: GetSellResponse, from: string, idempotencyKey: string, hooks: SellHooks): Promise<SellResult> {
  const id = view.authorization.id;
  assertThisSell(view, id, req, from);
  const history: SellSeen[] = [];
  noteSell(history, id, view, from);
  if (!req.wait && view.authorization.status === 'authorized') return { kind: 'accepted', view, idempotencyKey };
  const watched = await watchSell(deps, id, {
    intervalMs: SELL_POLL_INTERVAL_MS,
    deadlineMs: deps.clock.now() + req.waitLimitMs,
    onStage: (stage) => {
      deps.journal.answer({ step: 'read', status: stage });
      hooks.stage(stage);
    },
    history,
  });
  // Once final, the sell is read once more so the result shows its final state.
  let last = watched.view ?? view;
  if (watched.done) {
    last = await deps.api.getSell(id);
    noteSell(history, id, last, 'the final read');
  }
  assertThisSell(last, id, req, 'the final read');
  const key = sellGroupKey(last.sell);
  if (key) deps.journal.answer({ step: 'read', status: last.sell ? String(last.sell.status) : last.authorization.status, tradeId: key });
  const trade = key ? await readTradeOrNull(deps.api, key) : null;
  return { kind: watched.done ? 'final' : 'timeout', view: last, outcome: watched.outcome, trade, idempotencyKey };
}

