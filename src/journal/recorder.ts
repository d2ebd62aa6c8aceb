// How a buy or sell flow tells the journal what it does, at the points it records: the trade
// exists, what is about to be signed, each answer that changes what is known, how the run ended.
// Each call returns once its record is on disk; `created` and the signing gate's `exclusive` step
// throw to refuse the trade (a journal that cannot be written, a daily limit passed, the brake),
// before anything is signed or handed over. After the signature left, a record that cannot be
// written costs the record (a warning), not the trade.
import {
  ApiError,
  DeclinedError,
  InterruptedError,
  RefusedToSignError,
  SERVICE_CONTRADICTION,
  TradeFailedError,
  UsageError,
} from '../domain/errors.js';
import { formatLocalTime } from '../domain/local-time.js';
import { AUTHORIZATION_EXPIRES_UNUSED, NOTHING_SIGNED } from '../domain/outcome-words.js';
import type { SellSeen } from '../domain/sell-evidence.js';
import { assertDailyRoom, type DailyCap } from './daily-limits.js';
import { JournalError } from './journal-file.js';
import { refusal, type JournalHost, type TradeJournal } from './opened-journal.js';
import { namedFields, type JournalRecord, type JournalSide, type NamedTransaction, type NewRecord } from './records.js';
import { journalSeen, tradeHistories } from './trade-history.js';

/** What the signing gate (trade/signing-gate.ts) is asked to sign, with what the journal counts of it. */
export type ToSign =
  | {
      kind: 'deposit';
      /** The deposit transaction as received (base64, unsigned): its message bytes are what is signed. */
      transaction: string;
      blockhash: string;
      lastValidBlockHeight: number;
      blockhashKnownBeforeSigning: boolean;
      amountLamports: bigint;
      /** The platform fee the review showed before signing; null: it showed none (the quote could not be read). */
      platformFeeLamports: bigint | null;
      /** Signatures of deposits signed for this buy before that the chain proves can never land: they do not stand in the way. */
      provenDead: readonly string[];
    }
  | { kind: 'sell'; message: string; minimumOutputLamports: bigint };

/** The journal as the signing gate sees it inside one locked step. */
export interface LockedJournal {
  /** The trade's id (the buy intent's, or the sell authorization's). */
  trade: string;
  /** Every record on disk now. */
  all: readonly JournalRecord[];
  /** This trade's records (this service, wallet, side and id). */
  own: readonly JournalRecord[];
  /** Writes and fsyncs one record of this trade before it returns. */
  append(record: NewRecord): void;
  /** Throws the daily-limit refusal (exit 2) when `lamports` more of this side does not fit. */
  assertDailyRoom(lamports: bigint): void;
  /** Throws while `trader lock` holds (exit 6): no signature, not even the same one again. */
  assertUnlocked(): void;
  /** Throws the brake's refusal of a new signature: trades per hour, and unattended the mint lists and the loss stop. */
  assertMayTrade(): void;
}

/** A deposit this tool signed for the trade in an earlier run, as its journal recorded it. */
export interface PriorDeposit {
  signature: string;
  blockhash: string;
  lastValidBlockHeight: number;
  blockhashKnownBeforeSigning: boolean;
  /** When it was recorded (ISO). */
  at: string;
  /** The signed transaction (base64), when the journal kept it: it can be sent again as it is. */
  transaction: string | null;
}

/**
 * What the journal knew of the trade before this run: the trade it records under this run's
 * idempotency key when that is another one (the service answered a key with a trade that is not
 * its own), and the deposits this tool signed for a buy before (a sell's signature is the signing gate's to compare).
 */
export interface Prior {
  keyTrade: { id: string; signed: boolean; at: string } | null;
  deposits: PriorDeposit[];
  /** A sell: what earlier runs recorded of it (taken, completed, its payout), as the first reports of its history. */
  sellSeen: SellSeen[];
}

/** An answer of the service (or its loss) while the trade runs. */
export interface TradeAnswer {
  step: 'deposit' | 'authorize' | 'read';
  status: string | null;
  error?: { code: string; status: number | null; uncertain: boolean };
  /** A sell's trade id (its group key), once named. */
  tradeId?: string;
  /** Transactions the service named for the trade, in their roles. */
  transactions?: NamedTransaction[];
}

export interface TradeRecorder {
  /**
   * The trade exists, new or resumed; throws to refuse it before anything is signed. Returns what
   * the journal knew of it; with `keyTrade` set nothing was recorded (the answer is not this key's trade).
   */
  created(trade: {
    id: string;
    idempotencyKey: string;
    resumed: boolean;
    request: { mint: string; amount: bigint; slippageBps?: number };
    quote: object;
  }): Prior;
  /**
   * Runs `step` under the journal's lock (the signing gate's one step: re-read, compare, count,
   * record, sign, record); throws a refusal (exit 2) when the journal cannot be used.
   */
  exclusive<T>(step: (journal: LockedJournal) => T): T;
  /** An answer that changed what is known; never throws (the trade is under way by then). */
  answer(answer: TradeAnswer): void;
}

/**
 * The refusal of a trade the service gave for an idempotency key this tool's journal records as
 * another trade's (`what`: what that trade signed); `fate`: what became of the one given.
 */
export function keyTradeWords(
  side: 'buy' | 'sell',
  key: string,
  given: string,
  keyTrade: NonNullable<Prior['keyTrade']>,
  what: string,
  fate: string,
): string {
  const signed = keyTrade.signed ? `, its ${what} signed` : '';
  return (
    `the service answered idempotency key ${key} with ${side} ${given}, but this tool's journal records that key as ${side} ${keyTrade.id} (made ${formatLocalTime(keyTrade.at)}${signed}); ` +
    `a repeated key returns its original trade, so ${given} is not that ${side}: ${NOTHING_SIGNED}; ${fate}; follow the key's ${side} with: trader trades ${keyTrade.id}`
  );
}

/** A flow's recorder, which also knows the trade it recorded and records how the run ended. */
export interface RunRecorder extends TradeRecorder {
  /** The trade this run recorded (its buy or sell id), once created. */
  readonly trade: string | null;
  /** Records how the flow ended; returns its result unchanged. */
  outcome<R extends { kind: string }>(result: R): R;
  /** Records what stopped the flow of the trade `id` (null when none was created); returns the error to throw on. */
  stopped(err: unknown, id: string | null): unknown;
}

/** The brake's checks the recorder runs under the journal's lock, just before a signature. */
export interface BrakeChecks {
  /** Throws while `trader lock` holds (exit 6). */
  assertUnlocked(after: string): void;
  /** The brake's refusal of one more signature of this side in `mint` (null: it may be made). */
  refusal(
    records: readonly JournalRecord[],
    run: { wallet: string; side: JournalSide; mint: string | null; nowMs: number; after: string },
  ): Error | null;
}

/** What one run's recorder holds between its calls. */
interface Run {
  readonly host: JournalHost;
  readonly tj: TradeJournal;
  readonly side: JournalSide;
  readonly cap: DailyCap | null;
  readonly brake: BrakeChecks;
  /** The trade this run recorded as its own, once created. */
  trade: string | null;
  lastStatus: string | null;
  /** A record was lost already: said once. */
  warned: boolean;
  /** The service answered with a trade that is not this run's: nothing is recorded for it. */
  foreign: boolean;
}

type Made = Parameters<TradeRecorder['created']>[0];

/** The recorder a buy or sell flow writes through. */
export function runRecorder(
  ctx: JournalHost,
  tj: TradeJournal,
  side: JournalSide,
  cap: DailyCap | null,
  brake: BrakeChecks,
): RunRecorder {
  const run: Run = { host: ctx, tj, side, cap, brake, trade: null, lastStatus: null, warned: false, foreign: false };
  return {
    get trade() {
      return run.trade;
    },
    created: (made) => recordCreated(run, made),
    exclusive: (step) => lockedStep(run, step),
    answer: (answer) => recordAnswer(run, answer),
    outcome(result) {
      if (run.trade !== null) bestEffort(run, { type: 'outcome', side, trade: run.trade, ...outcomeOf(result) });
      return result;
    },
    stopped: (err, stoppedId) => recordStop(run, err, stoppedId),
  };
}

/** After the signature left, a record that cannot be written costs the record, not the trade. */
function bestEffort(run: Run, record: NewRecord): void {
  try {
    run.tj.journal.append(record);
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    if (!run.warned) run.host.output.warn(`${err.message}; this trade's later records are missing from it`);
    run.warned = true;
  }
}

/** The trade exists: recorded under the lock with what the journal knew of it, unless the answer is another run's trade. */
function recordCreated(run: Run, made: Made): Prior {
  const { id, idempotencyKey, resumed, quote } = made;
  const { tj, side } = run;
  const status = (quote as { status?: unknown }).status;
  run.lastStatus = typeof status === 'string' ? status : null;
  // A sell's minimum is known only now: its daily limit is checked before the review is shown.
  const minimum = (quote as { minimumOutputLamports?: unknown }).minimumOutputLamports;
  const check =
    side === 'sell' && !resumed && run.cap !== null && typeof minimum === 'string' && /^\d+$/.test(minimum)
      ? BigInt(minimum)
      : null;
  let refused: UsageError | null = null;
  let prior: Prior = { keyTrade: null, deposits: [], sellSeen: [] };
  write(() =>
    tj.journal.update((records) => {
      refuseTradeOfOtherKey(run, records, id, idempotencyKey);
      const mine = (r: JournalRecord) => r.service === tj.service && r.wallet === tj.wallet && r.side === side;
      const keyTrade = tradeOfThisKey(records, mine, id, idempotencyKey);
      if (keyTrade) {
        run.foreign = true;
        prior = { ...prior, keyTrade };
        return [];
      }
      prior = priorOf(records.filter((r) => mine(r) && r.trade === id));
      if (check !== null) refused = dailyRefusal(run, records, check);
      return [createdRecord(side, made)];
    }),
  );
  if (prior.keyTrade) return prior;
  run.trade = id;
  if (refused) throw refused;
  return prior;
}

/**
 * An idempotency key names one trade: a trade this tool made under another key, given for this
 * one, is the service's doing (reporting it as this one would let one payout or deposit prove two
 * runs). Nothing is recorded for it: it is the other run's trade.
 */
function refuseTradeOfOtherKey(run: Run, records: readonly JournalRecord[], id: string, key: string): void {
  const made = records.find(
    (r) => r.type === 'created' && r.service === run.tj.service && r.trade === id && r.idempotencyKey !== key,
  );
  if (made?.type !== 'created') return;
  run.foreign = true;
  throw new ApiError(
    `the service answered idempotency key ${key} with ${run.side} ${id}, which this tool made with key ${made.idempotencyKey}: not this ${run.side}; ${NOTHING_SIGNED}`,
    { code: SERVICE_CONTRADICTION },
  );
}

/**
 * The other way round: this key already names another trade here. The service returns the
 * original trade for a repeated key, so this answer is not it: the flow refuses it, and nothing is
 * recorded for a trade that is not this key's.
 */
function tradeOfThisKey(
  records: readonly JournalRecord[],
  mine: (r: JournalRecord) => boolean,
  id: string,
  key: string,
): Prior['keyTrade'] {
  const keyed = records.find((r) => r.type === 'created' && mine(r) && r.idempotencyKey === key && r.trade !== id);
  if (!keyed) return null;
  const signed = records.some((r) => r.type === 'before-signing' && mine(r) && r.trade === keyed.trade);
  return { id: keyed.trade, at: keyed.at, signed };
}

/** A sell's daily-limit refusal for its signed minimum `lamports`, or null when it fits. */
function dailyRefusal(run: Run, records: readonly JournalRecord[], lamports: bigint): UsageError | null {
  try {
    const after = `${NOTHING_SIGNED}; ${AUTHORIZATION_EXPIRES_UNUSED}`;
    assertDailyRoom(records, run.tj.wallet, run.cap!, lamports, run.host.clock.now(), after);
    return null;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return err;
  }
}

/** The `created` record of a trade as made or resumed. */
function createdRecord(side: JournalSide, { id, idempotencyKey, resumed, request, quote }: Made): NewRecord {
  return {
    type: 'created',
    side,
    trade: id,
    idempotencyKey,
    resumed,
    request: { mint: request.mint, amount: request.amount.toString(), slippageBps: request.slippageBps ?? null },
    quote: compactQuote(quote),
  };
}

/** Runs the signing gate's step under the lock, with this trade's records and the checks it makes there. */
function lockedStep<T>(run: Run, step: (journal: LockedJournal) => T): T {
  if (run.trade === null) throw new Error('exclusive before created');
  const id = run.trade;
  const { tj, side, cap, host, brake } = run;
  const mine = (r: JournalRecord) =>
    r.service === tj.service && r.wallet === tj.wallet && r.side === side && r.trade === id;
  return write(() =>
    tj.journal.exclusive((records, append) =>
      step({
        trade: id,
        all: records,
        own: records.filter(mine),
        append,
        assertDailyRoom: (lamports) => {
          if (cap !== null) assertDailyRoom(records, tj.wallet, cap, lamports, host.clock.now(), NOTHING_SIGNED);
        },
        assertUnlocked: () => brake.assertUnlocked(NOTHING_SIGNED),
        assertMayTrade: () => {
          const made = records.find((r) => mine(r) && r.type === 'created');
          const mint = made?.type === 'created' ? made.request.mint : null;
          const signing = { wallet: tj.wallet, side, mint, nowMs: host.clock.now(), after: NOTHING_SIGNED };
          const refused = brake.refusal(records, signing);
          if (refused) throw refused;
        },
      }),
    ),
  );
}

/** Records an answer, only when it changes what is known: a new status, an error, a trade id, transactions. */
function recordAnswer(run: Run, answer: TradeAnswer): void {
  if (run.trade === null) return;
  if (!answer.error && !answer.tradeId && !answer.transactions?.length && answer.status === run.lastStatus) return;
  if (answer.status !== null) run.lastStatus = answer.status;
  bestEffort(run, {
    type: 'answer',
    side: run.side,
    trade: run.trade,
    step: answer.step,
    status: answer.status,
    ...(answer.error ? { error: answer.error } : {}),
    ...(answer.tradeId ? { tradeId: answer.tradeId } : {}),
    ...namedFields(answer.transactions),
  });
}

/**
 * Records what stopped the run. A run stopped before its trade was recorded as its own (the
 * service answered with another run's trade) records nothing: that trade's history is the other run's.
 */
function recordStop(run: Run, err: unknown, stoppedId: string | null): unknown {
  const id = run.trade ?? (run.foreign ? null : stoppedId);
  const kind = stopKindOf(err);
  if (id !== null && kind !== null) {
    if (run.trade === null) run.trade = id;
    bestEffort(run, { type: 'outcome', side: run.side, trade: id, ...kind });
  }
  return err;
}

/** What the journal's records of one trade show this tool signed for it. */
function priorOf(records: readonly JournalRecord[]): Prior {
  const history = tradeHistories(records)[0];
  const deposits: PriorDeposit[] = (history?.deposits ?? []).map((d) => ({
    signature: d.signature,
    blockhash: d.blockhash,
    lastValidBlockHeight: d.lastValidBlockHeight,
    blockhashKnownBeforeSigning: d.blockhashKnownBeforeSigning,
    at: d.at,
    transaction: d.transaction ?? null,
  }));
  return { keyTrade: null, deposits, sellSeen: history?.side === 'sell' ? journalSeen(history) : [] };
}

/** Runs a write that comes before signing: a journal that cannot take it refuses the trade. */
function write<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    throw refusal(err, NOTHING_SIGNED);
  }
}

/** The quote's scalar fields (ids, statuses, amounts, times); a sell's message is kept as its length. */
function compactQuote(quote: object): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(quote)) {
    if (key === 'message' && typeof value === 'string') out.messageLength = value.length;
    else if (value === null || ['string', 'number', 'boolean'].includes(typeof value))
      out[key] = value as string | number | boolean | null;
  }
  return out;
}

/** How the run ended, in one word (and the error's code when it stopped on one). */
function outcomeOf(result: { kind: string }): { outcome: string; detail?: string } {
  const r = result as {
    kind: string;
    intent?: { status?: string };
    view?: { authorization?: { status?: string }; sell?: { status?: unknown } | null };
    outcome?: { state?: string; code?: string | null };
  };
  if (r.kind !== 'final') return { outcome: r.kind };
  if (r.intent?.status) return { outcome: r.intent.status };
  if (r.outcome?.state) return { outcome: r.outcome.state, ...(r.outcome.code ? { detail: r.outcome.code } : {}) };
  const sell = r.view?.sell?.status;
  return { outcome: typeof sell === 'string' ? sell : (r.view?.authorization?.status ?? 'final') };
}

/**
 * What kind of stop an error is, as the journal records it (with the code of the error that
 * carries one); null for an error no stop describes (a bug).
 */
export function stopKindOf(err: unknown): { outcome: string; detail?: string } | null {
  if (err instanceof RefusedToSignError) return { outcome: 'refused' };
  if (err instanceof DeclinedError) return { outcome: 'declined' };
  if (err instanceof InterruptedError) return { outcome: 'interrupted' };
  // A local refusal (a limit, the journal, a key of another trade) signed nothing, as a check's refusal.
  const coded = (outcome: string, code: string | undefined) => (code ? { outcome, detail: code } : { outcome });
  if (err instanceof ApiError) return coded('service-error', err.code);
  if (err instanceof UsageError) return coded('refused', err.code);
  if (err instanceof TradeFailedError) return coded('ended', err.code);
  return null;
}
