// The buy flow: create (or resume) the intent, inspect the deposit, ask, sign, submit, follow.
// No printing: each step yields what it needs (trade/trade-needs.ts) and trade/driver.ts serves it.
import { isUncertainOutcome, type ServiceClient } from '../api/client.js';
import { BUY_TERMINAL_STATUSES, type BuyIntent, type CreateBuyResponse, type Trade } from '../api/types.js';
import type { Clock } from '../domain/clock.js';
import {
  ApiError,
  SERVICE_CONTRADICTION,
  RefusedToSignError,
  TradeFailedError,
  UsageError,
  type NeededTrust,
} from '../domain/errors.js';
import { declined } from './trade-tracker.js';
import { eventsOf, failedAnswer, need, type TradeNeed, type TradeSteps } from './trade-needs.js';
import { inspectDeposit } from '../wallet/deposit-inspection.js';
import { pollUntil } from './poll.js';
import type { BuyReview, QuoteRead } from './buy-review.js';
import { buySlippageProblems, readQuote } from './buy-quote.js';
import { signedDepositOf, type SignedDeposit } from '../chain/deposit-absence.js';
import { fundsShort, fundsShortMessage, type Funds } from '../domain/funds.js';
import { readTradeOrNull } from './read-trade.js';
import { buyStatusStage } from './stages.js';
import { depositWords } from '../domain/deposit-evidence.js';
import { keyTradeWords, type Prior, type PriorDeposit, type ToSign } from '../journal/recorder.js';
import type { Signed, SigningVerdict } from './signing-gate.js';
import type { TradeRequest } from './trade-request.js';
import { chainDeadline, passed, serviceDeadline, type AnswerDeadline } from '../domain/answer-deadline.js';
import { formatLocalTime } from '../domain/local-time.js';
import {
  DEPOSIT_EXPIRED_UNSIGNED,
  INTENT_CANCELLED,
  INTENT_EXPIRES_UNUSED,
  NOT_BEFORE_EXPIRED,
  NOTHING_SIGNED,
  SOL_SPENT,
} from '../domain/outcome-words.js';
import { tooSmallHint } from '../domain/screen-fit.js';
import type { DepositFacts } from '../domain/deposit-facts.js';
import { lamports } from '../domain/units.js';

/** The code of a buy whose signed deposit the chain proves can no longer land (exit 4). */
export const DEPOSIT_EXPIRED = 'DEPOSIT_EXPIRED';
/** The code of a resumed buy refused a second deposit while its first may still land (exit 3). */
export const DEPOSIT_MAY_LAND = 'DEPOSIT_MAY_LAND';

/** Buy reads happen this often: "every few seconds", quick enough to notice completion. */
export const BUY_POLL_INTERVAL_MS = 2000;

export interface BuyRequest extends TradeRequest {
  mint: string;
  amountLamports: bigint;
  /** Why the token's facts refuse this buy (token-binding.ts: the service contradicts the chain, an impostor): refused before signing. */
  tokenProblems: string[];
  maxFeeLamports: bigint;
}

export interface BuyDeps {
  api: ServiceClient;
  clock: Clock;
  signal: AbortSignal;
  /** The owner wallet's address (the driver's signing gate holds the wallet). */
  owner: string;
  /** Reads the wallet's funds on chain for this deposit (src/chain/funds-check.ts); absent: not checked. */
  funds?(intent: BuyIntent, facts: DepositFacts): Promise<Funds>;
  /**
   * What the chain shows of a signed deposit the service says it did not take
   * (src/chain/deposit-absence.ts): only its proof makes "nothing was spent".
   */
  depositEvidence?(deposit: SignedDeposit): Promise<{ provesAbsent: boolean | null; unchecked: string | null }>;
  /** The chain's block height now (src/chain/chain-reader.ts), or why it cannot be read; absent: not read. */
  blockHeight?(): Promise<{ height: number } | { unreadable: string }>;
}

/** How a buy ended: a result to show, or a stop (refused, declined, interrupted, a service error, a local refusal). */
export type BuyOutcome =
  /** `fate`: what became of the intent (cancelled, or why not). */
  | {
      kind: 'dry-run';
      intent: BuyIntent;
      review: BuyReview;
      problems: string[];
      trust: NeededTrust | null;
      fate: string;
    }
  | { kind: 'accepted'; intent: BuyIntent }
  | { kind: 'final'; intent: BuyIntent; trade: Trade | null }
  | { kind: 'timeout'; intent: BuyIntent; trade: Trade | null };

const isFinal = (i: BuyIntent) => (BUY_TERMINAL_STATUSES as readonly string[]).includes(i.status);

/** The buy's steps: the needs it yields (trade/trade-needs.ts), to its end or to the deposit with --no-wait; a stop is thrown. */
export type BuySteps<R = BuyOutcome> = AsyncGenerator<TradeNeed<BuyReview>, R, unknown>;

/**
 * A buy to its end, as needs the driver serves: `ask` `confirm` (sign and send the deposit) and
 * `fresh-deposit` (its blockhash expired at the yes) with the review; `pin` the treasury a yes
 * pinned; `note` `resending` (a deposit signed before, sent again) and `signed` (the deposit's facts).
 */
export async function* buySteps(deps: BuyDeps, req: BuyRequest): TradeSteps<BuyOutcome, BuyReview> {
  const { created, intent: made, resumed, prior } = yield* createIntent(deps, req);
  yield* need({ kind: 'show', show: 'created', id: made.id, status: made.status, resumed });
  // A deposit this tool signed for this buy before, which the chain has not proven dead, is the
  // one deposit of this buy: sent again as it is, never a second signed beside it.
  const live = made.status === 'awaiting_deposit' ? await liveDeposits(deps, prior.deposits) : [];
  let intent = made;
  if (live.length > 0) {
    yield* need({ kind: 'show', show: 'resumable' });
    intent = yield* resendDeposit(deps, req, made, live);
  } else if (made.status === 'awaiting_deposit') {
    const step = yield* depositStep(deps, req, created, prior);
    if ('outcome' in step) return step.outcome;
    intent = step.intent;
  } else {
    if (req.dryRun) throw new UsageError(`buy ${intent.id} is already ${intent.status}; nothing to dry-run`);
  }

  // --no-wait stops at an accepted deposit; a resumed buy that is already over is reported as such.
  if (!req.wait && !isFinal(intent)) return { kind: 'accepted', intent };
  // A deposit this run handed over and saw accepted (every new intent's way here hands one over):
  // a later "cancelled" cannot be believed.
  const accepted = !resumed ? intent.status : null;
  return yield* follow(deps, intent, deps.clock.now() + req.waitLimitMs, accepted);
}

/**
 * Creates (or resumes, by its key) the buy intent and records it: a key that names another buy
 * is refused, as is an intent the journal records under another key; returns what the journal knew.
 */
async function* createIntent(
  deps: BuyDeps,
  req: BuyRequest,
): BuySteps<{ created: CreateBuyResponse; intent: BuyIntent; resumed: boolean; prior: Prior }> {
  const { api } = deps;
  const created = await api.createBuy({
    mint: req.mint,
    amountLamports: req.amountLamports.toString(),
    idempotencyKey: req.idempotencyKey,
    ...(req.slippageBps === undefined ? {} : { slippageBps: req.slippageBps }),
  });
  const intent = created.intent;
  const resumed = intent.status !== 'awaiting_deposit';
  // A key the user typed may name an earlier buy of something else: that is their mistake,
  // not the service's, and that buy (perhaps at a prompt elsewhere) is left alone. A mismatch
  // on a fresh key is the service's doing: refused by the inspection below, or, for a buy
  // already past its deposit, as the service answering about another trade.
  if (
    (resumed || req.keyTyped) &&
    (intent.outputMint !== req.mint || intent.amountLamports !== req.amountLamports.toString())
  ) {
    const other = `${lamports(intent.amountLamports)} of ${intent.outputMint}`;
    if (!req.keyTyped)
      throw new ApiError(
        `the service answered a new idempotency key with buy ${intent.id}, already ${intent.status}, of ${other}: not this buy; ${NOTHING_SIGNED}`,
        { code: SERVICE_CONTRADICTION },
      );
    throw new UsageError(
      `idempotency key ${req.idempotencyKey} belongs to another buy (${other}); use a new key`,
      'IDEMPOTENCY_MISMATCH',
    );
  }
  let prior: Prior;
  try {
    prior = yield* need({
      kind: 'created',
      last: intent,
      pastSigning: resumed,
      trade: {
        id: intent.id,
        idempotencyKey: req.idempotencyKey,
        resumed,
        request: { mint: req.mint, amount: req.amountLamports, slippageBps: req.slippageBps },
        quote: intent,
      },
    });
  } catch (err) {
    // Nothing is signed without the journal: the intent is not left waiting for a deposit. An
    // intent the journal knows as another run's (the service's contradiction) is left to that run.
    if (!resumed && !(err instanceof ApiError)) await cancelQuietly(api, intent.id);
    throw err;
  }
  // This key named another buy here: the service returns a key's original trade, so this one is
  // not it (a second buy under the key of the first). Nothing is signed; the new intent is cancelled.
  if (prior.keyTrade) {
    const cancelled = resumed ? null : await cancelQuietly(api, intent.id);
    if (cancelled) yield* need({ kind: 'track', last: cancelled });
    const fate = resumed
      ? `the service reports buy ${intent.id} ${intent.status}`
      : cancelled
        ? `${INTENT_CANCELLED} (${intent.id})`
        : `${INTENT_EXPIRES_UNUSED} (${intent.id}, at ${formatLocalTime(intent.depositExpiresAt)})`;
    throw new ApiError(keyTradeWords('buy', req.idempotencyKey, intent.id, prior.keyTrade, 'deposit', fate), {
      code: SERVICE_CONTRADICTION,
    });
  }
  return { created, intent, resumed, prior };
}

/** Sends again the deposit an earlier run signed for this buy (nothing new is signed); returns the buy as it then stands. */
async function* resendDeposit(
  deps: BuyDeps,
  req: BuyRequest,
  intent: BuyIntent,
  live: Array<PriorDeposit & { onChain: boolean }>,
): BuySteps<BuyIntent> {
  if (req.dryRun)
    throw new UsageError(
      `buy ${intent.id} has a deposit signed already (${live.at(-1)!.signature}); nothing to dry-run`,
    );
  const again = live.find((d) => d.onChain) ?? live.at(-1)!;
  if (again.transaction === null) {
    throw new ApiError(
      `the service offers buy ${intent.id} a new deposit, but the deposit you signed for it at ${formatLocalTime(again.at)} (${again.signature}) ${again.onChain ? 'is on chain' : `may still land until block height ${again.lastValidBlockHeight}`}, and this journal did not keep it to send again; ` +
        `a second deposit is never signed beside it; ${NOTHING_SIGNED}; ${again.onChain ? SOL_SPENT : NOT_BEFORE_EXPIRED}`,
      {
        code: DEPOSIT_MAY_LAND,
        hints: [
          `follow it with: trader trades ${intent.id} --verify; once it proves the deposit never landed, run this command again`,
        ],
      },
    );
  }
  yield* need({ kind: 'note', note: 'resending', facts: again });
  yield* need({ kind: 'track', phase: 'approved' });
  const deposit = signedDepositOf(again.signature, again);
  yield* need({ kind: 'note', note: 'signed', facts: deposit });
  return yield* handOver(deps, intent, again.transaction, deposit, live);
}

/** The intent a new deposit is judged, asked about and signed for. */
interface Awaiting {
  intent: BuyIntent;
  readonly created: CreateBuyResponse;
}

/**
 * Drops the intent and says what became of it, for the message: a failed cancel is not a cancel.
 * Whoever reports the outcome shows the cancelled intent, never the quote's awaiting_deposit.
 */
async function* cancel(deps: BuyDeps, awaiting: Awaiting): BuySteps<string> {
  const cancelled = await cancelQuietly(deps.api, awaiting.intent.id);
  if (!cancelled)
    return `the buy intent could not be cancelled; it expires unused at ${formatLocalTime(awaiting.intent.depositExpiresAt)}`;
  awaiting.intent = cancelled;
  yield* need({ kind: 'track', last: cancelled });
  return INTENT_CANCELLED;
}

/** What the checks found of a new deposit before anyone is asked. */
interface Judged {
  inspection: ReturnType<typeof inspect>;
  quote: QuoteRead | null;
  problems: string[];
  funds: Funds | null;
  answerBy: AnswerDeadline;
  trust: NeededTrust | null;
  recipient: string | null;
}

/**
 * A new deposit: judged, shown to the person, signed through the gate and handed over; a dry run
 * or a fresh deposit's buy ends the run here (`outcome`), else the buy as it then stands.
 */
async function* depositStep(
  deps: BuyDeps,
  req: BuyRequest,
  created: CreateBuyResponse,
  prior: Prior,
): BuySteps<{ outcome: BuyOutcome } | { intent: BuyIntent }> {
  const awaiting: Awaiting = { intent: created.intent, created };
  const judged = yield* judgeDeposit(deps, req, awaiting);
  const { inspection, quote, problems, funds, answerBy, trust } = judged;
  if (req.dryRun) {
    yield* need({ kind: 'show', show: 'resumable' });
    const fate = yield* cancel(deps, awaiting);
    if (!inspection.facts || !quote) throw new RefusedToSignError(problems, [`dry run: ${NOTHING_SIGNED}; ${fate}`]);
    const intent = awaiting.intent;
    return {
      outcome: {
        kind: 'dry-run',
        intent,
        review: review(created, inspection.facts, quote, funds, answerBy),
        problems,
        trust,
        fate,
      },
    };
  }
  // The buy's judge: the deposit decoded in full and every check passed, or the reasons not to sign.
  const verdict: SigningVerdict =
    problems.length === 0 && inspection.facts && quote ? { kind: 'sign' } : { kind: 'refused', reasons: problems };
  if (verdict.kind !== 'sign' || !inspection.facts || !quote) {
    const fate = yield* cancel(deps, awaiting);
    const next = trust ? `; if it is the service's published treasury, run: ${trust.command}` : '';
    throw new RefusedToSignError(problems, [`${fate}; ${NOTHING_SIGNED}${next}`], trust);
  }
  // How to resume is said once the deposit passed its checks: a refused one is cancelled, with
  // nothing to resume (a stop before here signed nothing, and its error names the buy).
  yield* need({ kind: 'show', show: 'resumable' });
  // What the gate will sign.
  const toSign: ToSign = {
    kind: 'deposit',
    transaction: created.deposit.transaction,
    blockhash: inspection.facts.recentBlockhash,
    lastValidBlockHeight: created.deposit.lastValidBlockHeight,
    blockhashKnownBeforeSigning: funds?.checked === true && funds.blockhashKnown === true,
    amountLamports: BigInt(awaiting.intent.amountLamports),
    platformFeeLamports: reviewedFee(quote),
    provenDead: prior.deposits.map((d) => d.signature),
  };
  const asked = yield* askForDeposit(deps, req, awaiting, judged, toSign);
  if (asked !== 'sign') return { outcome: asked };
  yield* need({ kind: 'track', phase: 'approved' });
  yield* settlePin(deps, awaiting, judged);
  return { intent: yield* signAndHandOver(deps, awaiting, verdict, toSign, prior) };
}

/**
 * The person's pin is settled before signing: a pin that cannot be stored refuses the buy, and a
 * treasury another process pinned meanwhile is the one that counts.
 */
async function* settlePin(deps: BuyDeps, awaiting: Awaiting, judged: Judged): BuySteps<void> {
  if (judged.inspection.facts?.treasuryCheck === 'first-use' && judged.recipient) {
    let pinned: string;
    try {
      pinned = yield* need({ kind: 'pin', pin: 'treasury', value: judged.recipient });
    } catch (err) {
      yield* cancel(deps, awaiting);
      throw err;
    }
    if (pinned !== judged.recipient) {
      const fate = yield* cancel(deps, awaiting);
      throw new RefusedToSignError(
        [
          `the deposit pays ${judged.recipient}, not ${pinned}, which another trader process pinned as this service's treasury meanwhile`,
        ],
        [`${fate}; ${NOTHING_SIGNED}`],
      );
    }
  }
}

/** The checks of a new deposit: its inspection, its quote and slippage, the funds, the treasury's pin. */
async function* judgeDeposit(deps: BuyDeps, req: BuyRequest, awaiting: Awaiting): BuySteps<Judged> {
  const { api } = deps;
  const { created } = awaiting;
  const intent = awaiting.intent;
  const inspection = inspect(deps, req, created);
  // The quote (the trade read) is read while the intent still awaits its deposit.
  const quote = inspection.facts ? await readQuote(api, intent) : null;
  const problems = [
    ...inspection.problems,
    ...req.tokenProblems,
    ...(quote ? buySlippageProblems(intent, quote, req.allowedSlippageBps, req.assumeYes) : []),
  ];
  const funds = inspection.facts && quote && deps.funds ? await deps.funds(intent, inspection.facts) : null;
  const answerBy = await answerDeadline(deps, created);
  // A deposit the wallet cannot pay is refused before it is signed (exit 2): a safety refusal comes first.
  if (problems.length === 0 && fundsShort(funds)) {
    const fate = yield* cancel(deps, awaiting);
    throw new UsageError(`${fundsShortMessage(funds)}; ${fate}; ${NOTHING_SIGNED}`, 'INSUFFICIENT_FUNDS');
  }
  // A recipient no person pinned is pinned only by a person here, at the prompt: otherwise refused before anything is asked or signed.
  const recipient = inspection.facts?.recipient ?? null;
  const unpinned =
    problems.length === 0 &&
    inspection.facts?.treasuryCheck === 'first-use' &&
    recipient !== null &&
    !req.presence.mayGrantTrust;
  const trust: NeededTrust | null = unpinned
    ? { code: 'TREASURY_NOT_PINNED', command: `trader config trust accept-treasury ${recipient}` }
    : null;
  if (trust) {
    problems.push(
      `no treasury is pinned for this service, and only a person pins ${recipient} as its deposit address (at the prompt, or with the command below); here ${req.presence.why}`,
    );
  }
  return { inspection, quote, problems, funds, answerBy, trust, recipient };
}

/**
 * Asks the person about the deposit (unless another run signed these very bytes): 'sign' on a yes
 * in time; a deposit that expired while they decided may become a fresh deposit's buy.
 */
async function* askForDeposit(
  deps: BuyDeps,
  req: BuyRequest,
  awaiting: Awaiting,
  judged: Judged,
  toSign: ToSign,
): BuySteps<'sign' | BuyOutcome> {
  const { created } = awaiting;
  const { inspection, quote, funds, answerBy } = judged;
  const reviewed = review(created, inspection.facts!, quote!, funds, answerBy);
  // Another run signed this buy meanwhile: other bytes are refused here (exit 3), before anyone is
  // asked; the very same deposit is not asked about again (the gate gives its signature back).
  const yes = yield* need({ kind: 'ask', ask: 'confirm', review: reviewed, signing: toSign });
  if (typeof yes === 'object') {
    const fate = yield* cancel(deps, awaiting);
    throw new UsageError(`${yes.notShown}; ${fate}; ${NOTHING_SIGNED}`, 'TERMINAL_TOO_SMALL', [tooSmallHint(yes.rows)]);
  }
  if (!yes) {
    const fate = yield* cancel(deps, awaiting);
    throw declined(fate);
  }
  // A yes after the deposit's blockhash expired would sign a deposit that cannot land: the dead
  // intent is cancelled, and the user may get a fresh deposit (a new intent on a new key).
  if (await depositExpired(deps, answerBy)) {
    const fate = yield* cancel(deps, awaiting);
    if (req.assumeYes) {
      throw new RefusedToSignError(
        ["the deposit's blockhash expired before it could be signed"],
        [`${fate}; ${NOTHING_SIGNED}; run the command again for a fresh deposit`],
      );
    }
    if (!(yield* need({ kind: 'ask', ask: 'fresh-deposit', review: reviewed })))
      throw declined(`${DEPOSIT_EXPIRED_UNSIGNED}; ${fate}`);
    const idempotencyKey = yield* need({ kind: 'new-key' });
    return yield* buySteps(deps, { ...req, idempotencyKey, keyTyped: false });
  }
  return 'sign';
}

/** The one gate signs (under the journal's lock), then the deposit is handed over; returns the buy as it then stands. */
async function* signAndHandOver(
  deps: BuyDeps,
  awaiting: Awaiting,
  verdict: SigningVerdict,
  toSign: Extract<ToSign, { kind: 'deposit' }>,
  prior: Prior,
): BuySteps<BuyIntent> {
  const intent = awaiting.intent;
  // The one gate: under the journal's lock, on disk (and within the daily limit) before it is signed.
  let gate: Signed;
  try {
    gate = yield* need({ kind: 'sign', verdict, toSign });
  } catch (err) {
    // Another run's deposit for this buy stands: its intent is left to it.
    if (err instanceof ApiError) throw err;
    // A keystore that did not open (wrong password), a journal or a daily limit that refuses: nothing was signed, the quote is dropped.
    const fate = yield* cancel(deps, awaiting);
    if (err instanceof UsageError) throw new UsageError(`${err.message}; ${fate}`, err.code, err.hints);
    throw err;
  }
  const signed = gate.signed;
  // The blockhash is the signed message's own; whether the chain knew it was read before signing.
  const signedDeposit = signedDepositOf(gate.signature, toSign);
  yield* need({ kind: 'note', note: 'signed', facts: signedDeposit });
  // The same deposit another run signed and may have handed over already: followed from where it stands.
  const current = gate.again ? (await deps.api.getBuy(intent.id)).intent : intent;
  if (current.status !== 'awaiting_deposit') {
    yield* need({ kind: 'track', phase: 'submitted' });
    return current;
  }
  return yield* handOver(deps, intent, signed, signedDeposit, prior.deposits);
}

/**
 * Hands the signed deposit to the service and returns the buy as it then stands. An error answer
 * after it is in the service's hands is said with what the buy's state and the chain prove of it
 * and of every `other` deposit signed for the buy before (nothing was spent only if none landed).
 */
async function* handOver(
  deps: BuyDeps,
  intent: BuyIntent,
  signed: string,
  deposit: SignedDeposit,
  others: readonly SignedDeposit[],
): BuySteps<BuyIntent> {
  let after: BuyIntent;
  try {
    after = await submitDeposit(deps, intent, signed);
  } catch (err) {
    if (err instanceof ApiError) yield* need(failedAnswer('deposit', err));
    yield* need({ kind: 'track', phase: 'submitted' });
    if (isUncertainOutcome(err) || !(err instanceof ApiError)) throw err;
    // Answered with an error, though the signed deposit is in the service's hands: its state
    // says what is known, and only the chain can prove nothing was spent (the signed deposit
    // stays valid until its blockhash expires, whatever the intent's status).
    const known = await afterRefusedDeposit(deps.api, intent.id);
    const { provesAbsent: chainProvesAbsent, unchecked } = await everyDeposit(deps, [
      deposit,
      ...others.filter((d) => d.signature !== deposit.signature),
    ]);
    // Where the chain can answer later, say how to ask it.
    const verify = deps.depositEvidence && chainProvesAbsent !== true ? `trader trades ${intent.id} --verify` : null;
    const words = depositWords({
      buyId: intent.id,
      ...known,
      lastValidBlockHeight: deposit.lastValidBlockHeight,
      chainProvesAbsent,
      chainUnchecked: unchecked,
      follow: verify,
    });
    // The chain proves the deposit dead: the buy is over, nothing was spent, nothing may still go on (exit 4).
    if (chainProvesAbsent === true) throw new TradeFailedError(`${err.message}; ${words}`, DEPOSIT_EXPIRED);
    yield* need({ kind: 'track', proven: words });
    throw err;
  }
  yield* need({ kind: 'record', answer: { step: 'deposit', status: after.status } });
  yield* need({ kind: 'track', phase: 'submitted' });
  return after;
}

/** What the chain proves of all these deposits together: absent only if each is, landed if any did. */
async function everyDeposit(
  deps: BuyDeps,
  deposits: readonly SignedDeposit[],
): Promise<{ provesAbsent: boolean | null; unchecked: string | null }> {
  if (!deps.depositEvidence) return { provesAbsent: null, unchecked: null };
  let all: { provesAbsent: boolean | null; unchecked: string | null } = { provesAbsent: true, unchecked: null };
  for (const d of deposits) {
    const e = await deps.depositEvidence(d);
    if (e.provesAbsent === false) return e;
    if (e.provesAbsent !== true && all.provesAbsent === true) all = e;
  }
  return all;
}

/** The deposits signed for this buy before that the chain does not prove can never land (each asked: on chain, or may still land). */
async function liveDeposits(
  deps: BuyDeps,
  deposits: readonly PriorDeposit[],
): Promise<Array<PriorDeposit & { onChain: boolean }>> {
  const live: Array<PriorDeposit & { onChain: boolean }> = [];
  for (const d of deposits) {
    const evidence = deps.depositEvidence ? await deps.depositEvidence(d) : { provesAbsent: null };
    if (evidence.provesAbsent !== true) live.push({ ...d, onChain: evidence.provesAbsent === false });
  }
  return live;
}

function inspect(deps: BuyDeps, req: BuyRequest, created: CreateBuyResponse) {
  return inspectDeposit({
    transactionBase64: created.deposit.transaction,
    owner: deps.owner,
    intent: created.intent,
    requestedMint: req.mint,
    typedLamports: req.amountLamports,
    maxFeeLamports: req.maxFeeLamports,
    treasury: req.treasury,
  });
}

/** The platform fee the review showed (a refund is later held to it, never to a fee the service reports after signing); null when it showed none. */
function reviewedFee(quote: QuoteRead): bigint | null {
  const fee = quote.trade?.platformFeeLamports ?? null;
  return fee !== null && /^\d+$/.test(fee) ? BigInt(fee) : null;
}

function review(
  created: CreateBuyResponse,
  facts: DepositFacts,
  quote: QuoteRead,
  funds: Funds | null,
  answerBy: AnswerDeadline,
): BuyReview {
  return {
    intent: created.intent,
    facts,
    lastValidBlockHeight: created.deposit.lastValidBlockHeight,
    quote,
    funds,
    answerBy,
  };
}

/**
 * How long the person has to answer: the blocks the deposit's blockhash has left, read from the
 * chain; the intent's deadline only when the chain cannot be read (and said so).
 */
async function answerDeadline(deps: BuyDeps, created: CreateBuyResponse): Promise<AnswerDeadline> {
  const read = deps.blockHeight ? await deps.blockHeight() : { unreadable: 'no chain to read' };
  if ('height' in read) return chainDeadline(created.deposit.lastValidBlockHeight, read.height, deps.clock.now());
  // Why is said once, where the chain's other reads are (the review's Wallet line, or a warning).
  return serviceDeadline(created.intent.depositExpiresAt, 'the chain could not be read');
}

/**
 * Whether the deposit can no longer land, once the person said yes: the chain's height, read
 * again (the estimate in time is only an estimate), past its lastValidBlockHeight; the estimate
 * when the chain cannot be read now; the intent's deadline when only that is known.
 */
async function depositExpired(deps: BuyDeps, d: AnswerDeadline): Promise<boolean> {
  if (d.source === 'service') return passed(d, deps.clock.now());
  const read = deps.blockHeight ? await deps.blockHeight() : { unreadable: 'no chain to read' };
  return 'height' in read ? read.height > d.lastValidBlockHeight : passed(d, deps.clock.now());
}

/**
 * Submits the signed deposit once. A lost answer is not a failure: the buy is read, and only
 * if it still awaits its deposit is the same signed transaction sent again (the service
 * accepts a deposit once, and the same signature can land on chain only once).
 */
async function submitDeposit(deps: BuyDeps, intent: BuyIntent, signed: string): Promise<BuyIntent> {
  // Once an answer was lost, the deposit may be in: from then on the outcome is uncertain, and
  // no later answer may be taken for a refusal (that would cancel the buy and say nothing was spent).
  let lost: ApiError | null = null;
  for (let attempt = 1; ; attempt++) {
    try {
      return (await deps.api.submitDeposit(intent.id, { signedTransaction: signed })).intent;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (!isUncertainOutcome(err) && lost === null) throw err;
      lost ??= err;
      let current: BuyIntent;
      try {
        current = (await deps.api.getBuy(intent.id)).intent;
      } catch (readError) {
        throw readError instanceof ApiError ? lost : readError;
      }
      // A resend may lose to the first submission arriving late (409 already accepted): the
      // buy's real state decides, not the resend's answer.
      if (current.status !== 'awaiting_deposit') return current;
      // A 409 to the resend says the first one landed, even when a lagging read does not show it
      // yet: the buy is followed from its real state, which shows whether it did.
      if (attempt >= 2 && err.status === 409) return current;
      if (attempt >= 2) throw lost;
    }
  }
}

/**
 * Follows the buy until a final status or the deadline, then reads the trade. `accepted`: the
 * status the deposit answer gave, when this run's deposit was accepted; a later read of the
 * intent cancelled or awaiting its deposit again contradicts it (only a buy awaiting its deposit
 * can be cancelled) and stops the follow with what was seen, in order (exit 3).
 */
async function* follow(deps: BuyDeps, intent: BuyIntent, deadlineMs: number, accepted: string | null): BuySteps {
  const seen = accepted === null ? [] : [`the deposit answer: ${accepted}`];
  const result = yield* eventsOf(
    (onValue: (read: BuyIntent) => void) =>
      pollUntil<BuyIntent>({
        clock: deps.clock,
        signal: deps.signal,
        intervalMs: BUY_POLL_INTERVAL_MS,
        deadlineMs,
        read: async () => {
          const read = (await deps.api.getBuy(intent.id)).intent;
          seen.push(`read ${seen.length}: ${read.status}`);
          if (accepted !== null && (read.status === 'cancelled' || read.status === 'awaiting_deposit')) {
            throw new ApiError(
              `the service contradicts itself about buy ${intent.id}: it accepted the signed deposit, then reports the buy ${read.status} ` +
                `(seen, in order: ${seen.join('; then ')}); the deposit may have been spent, so do not buy again until it has settled`,
              { code: SERVICE_CONTRADICTION },
            );
          }
          return read;
        },
        isDone: isFinal,
        onValue,
      }),
    readNeeds,
  );
  const last = result.value ?? intent;
  const trade = await readTradeOrNull(deps.api, intent.id);
  return { kind: result.done ? 'final' : 'timeout', intent: last, trade };
}

/**
 * After a deposit answered with an error: reads the buy (cancelling it if it still awaits its
 * deposit) and what the service records of a deposit. An interrupt while reading goes on (the
 * signed deposit may still be spent, which the stop says).
 */
async function afterRefusedDeposit(
  api: ServiceClient,
  id: string,
): Promise<{ status: string | null; depositRecorded: boolean | null; note: string | null }> {
  let intent: BuyIntent;
  try {
    intent = (await api.getBuy(id)).intent;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: null, depositRecorded: null, note: null };
  }
  let note: string | null = null;
  if (intent.status === 'awaiting_deposit') {
    const cancelled = await cancelQuietly(api, id);
    if (cancelled) intent = cancelled;
    else {
      note = 'the cancel failed';
      try {
        intent = (await api.getBuy(id)).intent;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err; // the last state read stands
      }
    }
  }
  const trade = await readTradeOrNull(api, id);
  return { status: intent.status, depositRecorded: trade === null ? null : trade.signatures.deposit !== null, note };
}

/** Cancels the intent; returns it as cancelled, or null when the cancel did not go through. */
async function cancelQuietly(api: ServiceClient, id: string): Promise<BuyIntent | null> {
  try {
    return (await api.cancelBuy(id)).intent;
  } catch (err) {
    // The intent expires unsigned anyway; the refusal matters more than the cancel. An interrupt goes on.
    if (err instanceof ApiError) return null;
    throw err;
  }
}

/** A read of the buy while it is followed: recorded, and its stage shown. */
const readNeeds = (read: BuyIntent): Array<TradeNeed<BuyReview>> => [
  { kind: 'record', answer: { step: 'read', status: read.status } },
  { kind: 'show', show: 'stage', stage: buyStatusStage(read.status) },
];
