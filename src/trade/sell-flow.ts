// The sell flow: create (or resume) the authorization, ask the guard (wallet/sell-template/)
// for its verdict, have a person grant what it needs (or refuse, naming the command that grants
// it), confirm, sign the message, authorize, follow. No printing: each step yields what it needs
// (trade/trade-needs.ts) and trade/driver.ts serves it.
import { isUncertainOutcome, type ServiceClient } from '../api/client.js';
import type { GetSellResponse, SellAuthorization, Trade } from '../api/types.js';
import type { Clock } from '../domain/clock.js';
import type { TradeRequest } from './trade-request.js';
import type { TokenMeta } from '../domain/token-meta.js';
import { factsToConfirm, keptFacts, tokenToConfirm, type TokenBinding } from '../domain/token-binding.js';
import { ApiError, SERVICE_CONTRADICTION, RefusedToSignError, UsageError, type NeededTrust } from '../domain/errors.js';
import { declined } from './trade-tracker.js';
import { eventsOf, failedAnswer, need, type TradeNeed, type TradeSteps } from './trade-needs.js';
import { authorizationExpired } from '../wallet/sell-template/check-authorization.js';
import { judgeSell, type Verdict } from '../wallet/sell-template/guard.js';
import type { Template } from '../wallet/sell-template/template.js';
import { readTradeOrNull } from './read-trade.js';
import type { SellOutcome } from '../domain/sell-outcome.js';
import { sellGroupKey } from './sell-answers.js';
import { noteSell, watchSell } from './watch.js';
import type { SellSeen } from '../domain/sell-evidence.js';
import type { SellReview } from './sell-review.js';
import { keyTradeWords, type ToSign } from '../journal/recorder.js';
import { formatLocalTime } from '../domain/local-time.js';
import { AUTHORIZATION_EXPIRES_UNUSED, NOTHING_SIGNED } from '../domain/outcome-words.js';
import { tooSmallHint, type NotShown } from '../domain/screen-fit.js';
import { counted } from '../domain/units.js';

export const SELL_POLL_INTERVAL_MS = 2000;

export interface SellRequest extends TradeRequest {
  mint: string;
  amount: bigint;
  /** --min-sol in lamports. */
  minSolLamports: bigint | null;
  /** The symbols the service gives the other tokens held: a symbol names the token only when it is one token's. */
  otherSymbols: Array<string | null>;
}

/** A token's facts bound by the chain or a person (domain/token-binding.ts), the binding's refusals, and the service's facts nobody vouches for. */
export type BoundFacts = Pick<TokenBinding, 'problems' | 'unbound' | 'symbolBound'> & { token: TokenMeta };

/** The trust store as the sell flow uses it: only a person's acts are pinned. */
export interface SellTrust {
  /** The approved template; 'earlier-version' for a masked wording an earlier version pinned; null: none. */
  approved(): { template: Template; fingerprint: string } | 'earlier-version' | null;
  /** Pins a template a person approved at the prompt where the pinned one is still `replacing`; returns the fingerprint pinned after. */
  pinTemplate(template: Template, fingerprint: string, replacing: string | null): string | null;
  recordPendingTemplate(template: Template, fingerprint: string): void;
  /** Pins a token's facts a person confirmed at the prompt. */
  pinToken(mint: string, facts: TokenMeta): void;
  recordPendingToken(mint: string, facts: TokenMeta): void;
}

export interface SellDeps {
  api: ServiceClient;
  clock: Clock;
  signal: AbortSignal;
  /** The owner wallet's address (the driver's signing gate holds the wallet). */
  owner: string;
  trust: SellTrust;
  /** Binds the token's facts (the chain's, or a person's from the trust store): read again after a person confirms some. */
  bindToken(mint: string): Promise<BoundFacts>;
}

/** How a sell ended: a result to show, or a stop (refused, declined, interrupted, a service error, a local refusal). */
export type SellResult =
  | { kind: 'dry-run'; review: SellReview; problems: string[]; trust: NeededTrust | null; idempotencyKey: string }
  | { kind: 'accepted'; view: GetSellResponse; idempotencyKey: string }
  | {
      kind: 'final' | 'timeout';
      view: GetSellResponse;
      outcome: SellOutcome | undefined;
      trade: Trade | null;
      idempotencyKey: string;
    };

/** The sell's steps: the needs it yields (trade/trade-needs.ts), to its end or to the authorization with --no-wait; a stop is thrown. */
export type SellSteps = TradeSteps<SellResult, SellReview>;

/**
 * A sell to its end, as needs the driver serves: `ask` `grant` (trust only a person gives, and
 * sign) and `confirm` (sign) with the review; `note` `quote-expired` before a fresh quote.
 */
export async function* sellSteps(deps: SellDeps, req: SellRequest): SellSteps {
  let idempotencyKey = req.idempotencyKey;
  for (;;) {
    const { authorization, resumed, prior } = yield* createSell(deps, req, idempotencyKey);
    if (resumed) {
      if (req.dryRun)
        throw new UsageError(`sell ${authorization.id} is already ${authorization.status}; nothing to dry-run`);
      const view = await deps.api.getSell(authorization.id);
      // What earlier runs recorded of it comes first: a report that contradicts it is not believed.
      return yield* finish(deps, req, view, 'the first read', idempotencyKey, prior.sellSeen);
    }
    const judged = yield* judgeWithPerson(deps, req, authorization, idempotencyKey);
    // How to resume is said once the message passed the guard (a refused one is never signed).
    yield* need({ kind: 'show', show: 'resumable' });
    if ('kind' in judged) return judged;
    const { review, granted } = judged;
    const toSign: ToSign = {
      kind: 'sell',
      message: authorization.message,
      minimumOutputLamports: BigInt(authorization.minimumOutputLamports),
    };
    // A person who granted trust at the prompt answered "and sign" there. Another run's signature
    // of this authorization meanwhile: other bytes are refused (exit 3) before anyone is asked;
    // the very same message is not asked about again (the gate gives its signature back).
    const yes = granted || (yield* need({ kind: 'ask', ask: 'confirm', review, signing: toSign }));
    if (typeof yes === 'object')
      throw new UsageError(
        `${yes.notShown}; ${NOTHING_SIGNED}; ${AUTHORIZATION_EXPIRES_UNUSED}`,
        'TERMINAL_TOO_SMALL',
        [tooSmallHint(yes.rows)],
      );
    if (!yes) throw declined();
    // The answers may have come late: an authorization already dead is not signed; a person gets
    // a fresh quote to answer instead.
    if (authorizationExpired(authorization, deps.clock.now())) {
      if (req.assumeYes)
        throw new RefusedToSignError(
          ['the authorization expired before it could be signed'],
          ['run the command again for a fresh quote'],
        );
      // The countdown said "a yes gets a fresh quote": that yes is it, and the new figures get their own question.
      yield* need({ kind: 'note', note: 'quote-expired' });
      idempotencyKey = yield* need({ kind: 'new-key' });
      continue;
    }
    return yield* signAndAuthorize(deps, req, review, toSign, idempotencyKey);
  }
}

/** Creates (or resumes) the sell under `idempotencyKey`: an answer about another sell is refused, the journal and the screen are told. */
async function* createSell(deps: SellDeps, req: SellRequest, idempotencyKey: string) {
  const { authorization } = await deps.api.createSell({
    mint: req.mint,
    amount: req.amount.toString(),
    idempotencyKey,
    ...(req.slippageBps === undefined ? {} : { slippageBps: req.slippageBps }),
  });
  const resumed = authorization.status !== 'awaiting_signature';
  // A typed key may name an earlier sell of something else (the user's mistake); on a fresh
  // key a mismatch is the service's doing and the guard refuses it.
  const keyTyped = req.keyTyped && idempotencyKey === req.idempotencyKey;
  if ((resumed || keyTyped) && (authorization.mint !== req.mint || authorization.amount !== req.amount.toString())) {
    const other = `${counted(authorization.amount, 'raw unit')} of ${authorization.mint}`;
    // On a fresh key the other sell is the service's doing, not the user's: it is not this sell.
    if (!keyTyped)
      throw new ApiError(
        `the service answered a new idempotency key with sell ${authorization.id}, already ${authorization.status}, of ${other}: not this sell; ${NOTHING_SIGNED}`,
        { code: SERVICE_CONTRADICTION },
      );
    throw new UsageError(
      `idempotency key ${idempotencyKey} belongs to another sell (${other}); use a new key`,
      'IDEMPOTENCY_MISMATCH',
    );
  }
  const prior = yield* need({
    kind: 'created',
    last: authorization,
    pastSigning: resumed,
    trade: {
      id: authorization.id,
      idempotencyKey,
      resumed,
      request: { mint: req.mint, amount: req.amount, slippageBps: req.slippageBps },
      quote: authorization,
    },
  });
  // This key named another sell here: the service returns a key's original trade, so this
  // authorization is not it (a second sale under the key of the first). It is left unsigned.
  if (prior.keyTrade) {
    const fate = resumed
      ? `the service reports sell ${authorization.id} ${authorization.status}`
      : `${AUTHORIZATION_EXPIRES_UNUSED} (${authorization.id})`;
    throw new ApiError(keyTradeWords('sell', idempotencyKey, authorization.id, prior.keyTrade, 'message', fate), {
      code: SERVICE_CONTRADICTION,
    });
  }
  yield* need({ kind: 'show', show: 'created', id: authorization.id, status: authorization.status, resumed });
  return { authorization, resumed, prior };
}

/**
 * The guard's verdict decides; a person present grants what it needs, and it is asked again (at
 * the time of the first verdict: a slow answer is the expiry check's, with its fresh quote).
 * Returns the review to sign (`granted`: the person's yes there was a yes to sign), or a dry run's end.
 */
async function* judgeWithPerson(
  deps: SellDeps,
  req: SellRequest,
  authorization: SellAuthorization,
  idempotencyKey: string,
): AsyncGenerator<TradeNeed<SellReview>, SellResult | { review: SellReview; granted: boolean }, unknown> {
  const judgedAt = deps.clock.now();
  let valuesRead = false;
  let granted = false;
  let review: SellReview;
  for (let round = 0; ; round++) {
    review = await judge(deps, req, authorization, valuesRead, judgedAt);
    const { verdict } = review;
    if (verdict.kind !== 'person') break;
    if (req.dryRun || !req.presence.mayGrantTrust || round >= 3) {
      const trust = keepForAPerson(deps, req, review);
      const why = `${verdict.reasons.join('; ')}; only a person grants that (at the prompt, or with the command below), and here ${req.presence.why ?? 'it was asked once already'}`;
      if (req.dryRun) return { kind: 'dry-run', review, problems: [why], trust, idempotencyKey };
      throw new RefusedToSignError([why], [nextStep(trust)], trust);
    }
    const answer = yield* need({ kind: 'ask', ask: 'grant', review });
    if (typeof answer === 'object') throw notShownRefusal(deps, req, review, answer);
    if (!answer) throw declined(AUTHORIZATION_EXPIRES_UNUSED);
    // Confirming token facts is no yes to this sell; approving a wording or a value is (its question says "and sign").
    if (verdict.code === 'TOKEN_FACTS_UNCONFIRMED') deps.trust.pinToken(req.mint, factsToConfirm(review));
    else {
      granted = true;
      if (verdict.code === 'VALUE_READS_AS_TEXT') valuesRead = true;
      else pinTemplate(deps, verdict);
    }
  }
  if (review.verdict.kind === 'refused') {
    if (req.dryRun) return { kind: 'dry-run', review, problems: review.verdict.reasons, trust: null, idempotencyKey };
    throw new RefusedToSignError(review.verdict.reasons, [`${NOTHING_SIGNED}; ${AUTHORIZATION_EXPIRES_UNUSED}`]);
  }
  // A dry run leaves the authorization unsigned (it expires by itself within 2 minutes).
  if (req.dryRun) return { kind: 'dry-run', review, problems: [], trust: null, idempotencyKey };
  return { review, granted };
}

/** Never asked about what the person could not see whole: `config trust` prints it, the accept command grants it. */
function notShownRefusal(deps: SellDeps, req: SellRequest, review: SellReview, answer: NotShown): RefusedToSignError {
  const trust = keepForAPerson(deps, req, review);
  const there = trust.command
    ? `read it whole with \`trader config trust\` and, if it is what you expect, grant it there: ${trust.command}; then run the sell again`
    : `run the command again in a terminal of at least ${answer.rows} rows`;
  return new RefusedToSignError([answer.notShown], [`${NOTHING_SIGNED}; ${there}`], trust);
}

/** The one gate signs (under the journal's lock, on disk and within the daily limit first); the signature is handed over and the sell followed. */
async function* signAndAuthorize(
  deps: SellDeps,
  req: SellRequest,
  review: SellReview,
  toSign: ToSign,
  idempotencyKey: string,
): SellSteps {
  const { authorization } = review;
  const { signature } = yield* need({ kind: 'sign', verdict: review.verdict, toSign });
  const authorized = yield* authorize(deps, authorization, signature);
  // Unless the sell was read still awaiting its signature, it may go on without us.
  if ('view' in authorized) {
    yield* need({ kind: 'track', phase: 'submitted' });
    return yield* finish(deps, req, authorized.view, authorized.from, idempotencyKey);
  }
  const proven = authorized.error instanceof ApiError ? authorized.proven : undefined;
  yield* need({ kind: 'track', phase: authorized.stillAwaiting ? undefined : 'submitted', proven });
  throw authorized.error;
}

/** The guard's verdict on this authorization now, with the token's bound facts and the approved template. */
async function judge(
  deps: SellDeps,
  req: SellRequest,
  authorization: SellAuthorization,
  valuesRead: boolean,
  nowMs: number,
): Promise<SellReview> {
  const bound = await deps.bindToken(req.mint);
  const approved = deps.trust.approved();
  const verdict = judgeSell({
    authorization,
    request: {
      mint: req.mint,
      amount: req.amount,
      minSolLamports: req.minSolLamports,
      allowedSlippageBps: req.allowedSlippageBps,
    },
    owner: deps.owner,
    nowMs,
    token: { ...bound.token, problems: bound.problems, unbound: bound.unbound, symbolBound: bound.symbolBound },
    otherSymbols: req.otherSymbols,
    approved: approved === 'earlier-version' ? approved : (approved?.template ?? null),
    valuesRead,
    treasury: req.treasury,
  });
  return { authorization, verdict, token: bound.token, unbound: bound.unbound };
}

/** Pins the template a person approved at the prompt; another process's pin meanwhile refuses. */
function pinTemplate(deps: SellDeps, verdict: Extract<Verdict, { kind: 'person' }>): void {
  const approved = deps.trust.approved();
  const replacing = approved === 'earlier-version' ? null : (approved?.fingerprint ?? null);
  const pinned = deps.trust.pinTemplate(verdict.template!, verdict.fingerprint!, replacing);
  if (pinned !== verdict.fingerprint) {
    throw new RefusedToSignError(
      ['another trader process pinned a different sell wording for this service meanwhile'],
      [`${NOTHING_SIGNED}; run the command again to review it`],
    );
  }
}

/** Keeps what a person must read (the template, the token facts) for the accept commands; returns what the refusal names. */
function keepForAPerson(deps: SellDeps, req: SellRequest, review: SellReview): NeededTrust {
  const verdict = review.verdict as Extract<Verdict, { kind: 'person' }>;
  if (verdict.code === 'VALUE_READS_AS_TEXT') return { code: verdict.code, command: null };
  if (verdict.code === 'TOKEN_FACTS_UNCONFIRMED') {
    const { facts, fingerprint, command } = tokenToConfirm(req.mint, review);
    deps.trust.recordPendingToken(req.mint, facts);
    return { code: verdict.code, command, fingerprint, facts: keptFacts(facts) };
  }
  deps.trust.recordPendingTemplate(verdict.template!, verdict.fingerprint!);
  return {
    code: verdict.code,
    command: `trader config trust accept-wording ${verdict.fingerprint}`,
    fingerprint: verdict.fingerprint!,
  };
}

/** What the person does next about a sell refused for trust only they grant. */
export function nextStep(trust: NeededTrust): string {
  if (!trust.command)
    return `${NOTHING_SIGNED}; run the command again for a fresh authorization, or answer at the prompt without --yes`;
  if (trust.facts)
    return `${NOTHING_SIGNED}; the token facts kept for you (fingerprint ${trust.fingerprint}): ${trust.facts}; if they are right (or answer at the prompt, without --yes), run: ${trust.command}`;
  return `${NOTHING_SIGNED}; read it with \`trader config trust\` (or answer at the prompt, without --yes); if it is what you expect, run: ${trust.command}`;
}

/**
 * Authorizes once. After any error the sell is read before anything is said: the signature may
 * have been taken even when the answer was lost or was an error. Only if it still awaits its
 * signature after a lost answer is the same signature sent again (the service uses it once).
 */
async function* authorize(
  deps: SellDeps,
  authorization: SellAuthorization,
  signature: string,
): AsyncGenerator<
  TradeNeed<SellReview>,
  { view: GetSellResponse; from: string } | { error: unknown; stillAwaiting: boolean; proven: string },
  unknown
> {
  // Once an answer was lost, the signature may have been taken: from then on the outcome is
  // uncertain, whatever later answers say.
  let lost = false;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await deps.api.authorizeSell(authorization.id, { signature });
      yield* need({ kind: 'record', answer: { step: 'authorize', status: result.authorization.status } });
      return { view: { authorization: result.authorization, sell: result.sell }, from: 'the authorize answer' };
    } catch (err) {
      lost ||= isUncertainOutcome(err);
      if (err instanceof ApiError) yield* need(failedAnswer('authorize', err));
      let current: GetSellResponse;
      try {
        current = await deps.api.getSell(authorization.id);
      } catch (readError) {
        // An interrupt while reading ends the command; either way the signature may have been taken.
        const unknown = 'the sell could not be read afterwards, so whether the signature was taken is unknown';
        return { error: readError instanceof ApiError ? err : readError, stillAwaiting: false, proven: unknown };
      }
      if (current.authorization.status !== 'awaiting_signature')
        return { view: current, from: 'the read after authorize' };
      // A 409 to the resend says the first one landed, even when a lagging read does not show it yet.
      if (attempt >= 2 && err instanceof ApiError && err.status === 409)
        return { view: current, from: 'the read after authorize' };
      if (attempt >= 2 && lost) {
        const proven = `an answer was lost and the service still shows the sell awaiting its signature, so whether it will be taken is unknown (until ${formatLocalTime(authorization.expiresAt)})`;
        return { error: err, stillAwaiting: false, proven };
      }
      if (!lost) {
        const proven = `the service reports the sell still awaiting its signature (nothing sold so far); the signature it holds stays usable until ${formatLocalTime(authorization.expiresAt)}`;
        return { error: err, stillAwaiting: true, proven };
      }
    }
  }
}

/**
 * An answer about sell `id` must be about this sell: its id, token and amount. One about another
 * (a resumed key answered with another mint's sell, say) is never reported as this one (exit 3).
 */
function assertThisSell(view: GetSellResponse, id: string, req: SellRequest, from: string): void {
  const a = view.authorization;
  if (a.id === id && a.mint === req.mint && a.amount === req.amount.toString()) return;
  throw new ApiError(
    `the service answered about another sell in ${from}: ${a.id}, ${counted(a.amount, 'raw unit')} of ${a.mint}, not sell ${id} of ${counted(req.amount, 'raw unit')} of ${req.mint}; it is not reported as this one`,
    {
      code: SERVICE_CONTRADICTION,
    },
  );
}

/**
 * Follows the sell from `view` (said by `from`) to its end. Every report is kept in order: a
 * later one that contradicts an earlier one (or what `earlier` runs recorded in the journal) stops the sell with the contradiction named (exit 3).
 */
async function* finish(
  deps: SellDeps,
  req: SellRequest,
  view: GetSellResponse,
  from: string,
  idempotencyKey: string,
  earlier: readonly SellSeen[] = [],
): SellSteps {
  const id = view.authorization.id;
  assertThisSell(view, id, req, from);
  const history: SellSeen[] = [...earlier];
  noteSell(history, id, view, from);
  if (!req.wait && view.authorization.status === 'authorized') return { kind: 'accepted', view, idempotencyKey };
  const watched = yield* eventsOf(
    (onStage: (stage: string) => void) =>
      watchSell(deps, id, {
        intervalMs: SELL_POLL_INTERVAL_MS,
        deadlineMs: deps.clock.now() + req.waitLimitMs,
        onStage,
        history,
      }),
    stageNeeds,
  );
  // Once final, the sell is read once more so the result shows its final state.
  let last = watched.view ?? view;
  if (watched.done) {
    last = await deps.api.getSell(id);
    noteSell(history, id, last, 'the final read');
  }
  assertThisSell(last, id, req, 'the final read');
  const key = sellGroupKey(last.sell);
  if (key)
    yield* need({
      kind: 'record',
      answer: { step: 'read', status: last.sell ? String(last.sell.status) : last.authorization.status, tradeId: key },
    });
  const trade = key ? await readTradeOrNull(deps.api, key) : null;
  return { kind: watched.done ? 'final' : 'timeout', view: last, outcome: watched.outcome, trade, idempotencyKey };
}

/** A stage seen while the sell is followed: recorded, and shown. */
const stageNeeds = (stage: string): Array<TradeNeed<SellReview>> => [
  { kind: 'record', answer: { step: 'read', status: stage } },
  { kind: 'show', show: 'stage', stage },
];
