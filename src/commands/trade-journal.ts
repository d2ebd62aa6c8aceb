// The journal as buy, sell and trades use it: opened (and checked writable) for the configured
// service and the wallet before anything is sent; a recorder for a flow's hook calls that refuses
// the trade (exit 2) when a record cannot be written or a daily limit would be passed; the
// run's outcome; and the chain evidence a verification used, claimed under the lock so that one
// transaction proves one trade, across processes.
import type { Context } from '../cli/context.js';
import type { Verification } from '../chain/verify-trade.js';
import type { SignedDeposit } from '../chain/deposit-absence.js';
import { Journal, JournalError, journalPath } from '../config/journal.js';
import {
  historyOf,
  journalKnowledge,
  sortClaims,
  tradeHistories,
  type EvidenceConflict,
  type EvidenceRole,
  type JournalKnowledge,
  type JournalRecord,
  type JournalSide,
  type NamedTransaction,
  type NewRecord,
  type TradeHistory,
} from '../domain/journal-records.js';
import type { Trade } from '../api/types.js';
import type { Prior, PriorDeposit, TradeAnswer, TradeRecorder } from '../domain/trade-record.js';
import { ApiError, UsageError } from '../domain/errors.js';
import { SERVICE_CONTRADICTION } from '../trade/watch.js';
import { stopKindOf } from '../trade/trade-tracker.js';
import { assertDailyRoom, type DailyCap } from './daily-limits.js';
import { assertUnlocked, brakeRefusal, unattended } from './brake-checks.js';
import { AUTHORIZATION_EXPIRES_UNUSED, NOTHING_SENT, NOTHING_SIGNED } from '../domain/outcome-words.js';
import { journalSeen } from '../domain/sell-evidence.js';

/** The journal of one service and wallet. */
export interface TradeJournal {
  readonly journal: Journal;
  readonly service: string;
  readonly wallet: string;
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

/** The service's API root, as the trust store keys it. */
async function serviceOf(ctx: Context): Promise<string> {
  const { resolveApiRoot } = await import('../api/base-url.js');
  if (!ctx.settings.baseUrl) return '';
  return resolveApiRoot(ctx.settings.baseUrl, ctx.settings.insecure).href;
}

/** The journal for this service and wallet, without checking it can be written (for reading). */
export async function journalFor(ctx: Context, wallet: string): Promise<TradeJournal> {
  const service = await serviceOf(ctx);
  const journal = new Journal(
    journalPath(ctx.config.path),
    { service, wallet },
    { now: () => ctx.clock.now() },
    (message) => ctx.output.warn(message),
  );
  return { journal, service, wallet };
}

/** The journal, checked writable: a trade is refused (exit 2, nothing sent) without one. */
export async function openTradeJournal(ctx: Context, wallet: string): Promise<TradeJournal> {
  const tj = await journalFor(ctx, wallet);
  try {
    tj.journal.check();
  } catch (err) {
    throw refusal(err, NOTHING_SENT);
  }
  return tj;
}

/** The brake's checks before anything is created (trades per hour; unattended: the loss stop, and the mint when typed): checked again before signing. */
export function preCheckBrake(ctx: Context, tj: TradeJournal, side: JournalSide, mint: string | null): void {
  const records = readOrRefuse(tj, NOTHING_SENT);
  const refused = brakeRefusal(ctx.settings, records, {
    wallet: tj.wallet,
    side,
    mint,
    unattended: unattended(ctx),
    nowMs: ctx.clock.now(),
    after: NOTHING_SENT,
  });
  if (refused) throw refused;
}

/**
 * A buy's daily limit checked before anything is created (the atomic check comes before signing).
 * A key whose trade the journal saw signed is a resume of what was counted already: not checked.
 */
export function preCheckDaily(
  ctx: Context,
  tj: TradeJournal,
  cap: DailyCap | null,
  lamports: bigint,
  idempotencyKey: string | null,
): void {
  if (cap === null) return;
  const records = readOrRefuse(tj, NOTHING_SENT);
  const keyed = new Set(
    records.filter((r) => r.type === 'created' && r.idempotencyKey === idempotencyKey).map((r) => r.trade),
  );
  if (records.some((r) => r.type === 'before-signing' && keyed.has(r.trade))) return;
  assertDailyRoom(records, tj.wallet, cap, lamports, ctx.clock.now(), NOTHING_SENT);
}

/** The recorder a buy or sell flow writes through. */
export function runRecorder(ctx: Context, tj: TradeJournal, side: JournalSide, cap: DailyCap | null): RunRecorder {
  let trade: string | null = null;
  let lastStatus: string | null = null;
  let warned = false;
  let foreign = false;
  // After the signature left, a record that cannot be written costs the record, not the trade.
  const bestEffort = (record: NewRecord) => {
    try {
      tj.journal.append(record);
    } catch (err) {
      if (!(err instanceof JournalError)) throw err;
      if (!warned) ctx.output.warn(`${err.message}; this trade's later records are missing from it`);
      warned = true;
    }
  };
  return {
    get trade() {
      return trade;
    },
    created({ id, idempotencyKey, resumed, request, quote }) {
      lastStatus =
        typeof (quote as { status?: unknown }).status === 'string' ? (quote as { status: string }).status : null;
      const record: NewRecord = {
        type: 'created',
        side,
        trade: id,
        idempotencyKey,
        resumed,
        request: { mint: request.mint, amount: request.amount.toString(), slippageBps: request.slippageBps ?? null },
        quote: compactQuote(quote),
      };
      // A sell's minimum is known only now: its daily limit is checked before the review is shown.
      const minimum = (quote as { minimumOutputLamports?: unknown }).minimumOutputLamports;
      const check =
        side === 'sell' && !resumed && cap !== null && typeof minimum === 'string' && /^\d+$/.test(minimum)
          ? BigInt(minimum)
          : null;
      const refused: { by: UsageError | null } = { by: null };
      let prior: Prior = { keyTrade: null, deposits: [], sellSeen: [] };
      write(() =>
        tj.journal.update((records) => {
          // An idempotency key names one trade: a trade this tool made under another key, given
          // for this one, is the service's doing (reporting it as this one would let one payout
          // or deposit prove two runs). Nothing is recorded for it: it is the other run's trade.
          const made = records.find(
            (r) =>
              r.type === 'created' && r.service === tj.service && r.trade === id && r.idempotencyKey !== idempotencyKey,
          );
          if (made?.type === 'created') {
            foreign = true;
            throw new ApiError(
              `the service answered idempotency key ${idempotencyKey} with ${side} ${id}, which this tool made with key ${made.idempotencyKey}: not this ${side}; ${NOTHING_SIGNED}`,
              {
                code: SERVICE_CONTRADICTION,
              },
            );
          }
          // The other way round: this key already names another trade here. The service returns
          // the original trade for a repeated key, so this answer is not it: the flow refuses it,
          // and nothing is recorded for a trade that is not this key's.
          const mine = (r: JournalRecord) => r.service === tj.service && r.wallet === tj.wallet && r.side === side;
          const keyed = records.find(
            (r) => r.type === 'created' && mine(r) && r.idempotencyKey === idempotencyKey && r.trade !== id,
          );
          if (keyed) {
            foreign = true;
            prior = {
              ...prior,
              keyTrade: {
                id: keyed.trade,
                at: keyed.at,
                signed: records.some((r) => r.type === 'before-signing' && mine(r) && r.trade === keyed.trade),
              },
            };
            return [];
          }
          prior = priorOf(records.filter((r) => mine(r) && r.trade === id));
          if (check !== null) {
            try {
              assertDailyRoom(
                records,
                tj.wallet,
                cap!,
                check,
                ctx.clock.now(),
                `${NOTHING_SIGNED}; ${AUTHORIZATION_EXPIRES_UNUSED}`,
              );
            } catch (err) {
              if (!(err instanceof UsageError)) throw err;
              refused.by = err;
            }
          }
          return [record];
        }),
      );
      if (prior.keyTrade) return prior;
      trade = id;
      if (refused.by) throw refused.by;
      return prior;
    },
    exclusive(step) {
      if (trade === null) throw new Error('exclusive before created');
      const id = trade;
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
              if (cap !== null) assertDailyRoom(records, tj.wallet, cap, lamports, ctx.clock.now(), NOTHING_SIGNED);
            },
            assertUnlocked: () => assertUnlocked(ctx, NOTHING_SIGNED),
            assertMayTrade: () => {
              const made = records.find((r) => mine(r) && r.type === 'created');
              const mint = made?.type === 'created' ? made.request.mint : null;
              // The profile as it is now: a limit a person tightened since the run started holds.
              const refused = brakeRefusal(ctx.settingsNow(), records, {
                wallet: tj.wallet,
                side,
                mint,
                unattended: unattended(ctx),
                nowMs: ctx.clock.now(),
                after: NOTHING_SIGNED,
              });
              if (refused) throw refused;
            },
          }),
        ),
      );
    },
    answer(answer: TradeAnswer) {
      if (trade === null) return;
      // Only what changes what is known: a new status, an error, a trade id.
      if (!answer.error && !answer.tradeId && !answer.transactions?.length && answer.status === lastStatus) return;
      if (answer.status !== null) lastStatus = answer.status;
      bestEffort({
        type: 'answer',
        side,
        trade,
        step: answer.step,
        status: answer.status,
        ...(answer.error ? { error: answer.error } : {}),
        ...(answer.tradeId ? { tradeId: answer.tradeId } : {}),
        ...(answer.transactions?.length ? { transactions: answer.transactions } : {}),
      });
    },
    outcome(result) {
      if (trade !== null) bestEffort({ type: 'outcome', side, trade, ...outcomeOf(result) });
      return result;
    },
    stopped(err, stoppedId) {
      // A run stopped before its trade was recorded as its own (the service answered with
      // another run's trade) records nothing: that trade's history is the other run's.
      const id = trade ?? (foreign ? null : stoppedId);
      const kind = stopKindOf(err);
      if (id !== null && kind !== null) {
        if (trade === null) trade = id;
        bestEffort({ type: 'outcome', side, trade: id, ...kind });
      }
      return err;
    },
  };
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

/**
 * Records what a command that follows a trade saw of it (`trades <id> --watch`, `cancel`,
 * `--verify`): its status, and a sell's trade id and the transactions named for it (by which the
 * service's lists show it, and which no other trade may claim), when the journal knows the
 * trade; a journal that cannot take it costs only the record (a warning).
 */
export function recordFollowed(
  ctx: Context,
  id: string,
  status: string,
  learnt: { tradeId?: string; transactions?: NamedTransaction[] } = {},
): void {
  const path = journalPath(ctx.config.path);
  const timing = { now: () => ctx.clock.now() };
  try {
    const history = historyOf(new Journal(path, { service: '', wallet: '' }, timing).read(), id);
    if (history === null) return;
    new Journal(path, { service: history.service, wallet: history.wallet }, timing).append({
      type: 'answer',
      side: history.side,
      trade: history.trade,
      step: 'read',
      status,
      ...(learnt.tradeId ? { tradeId: learnt.tradeId } : {}),
      ...(learnt.transactions?.length ? { transactions: learnt.transactions } : {}),
    });
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    ctx.output.warn(`${err.message}; what was seen of ${id} is not recorded`);
  }
}

/** The transactions a trade names, in their roles (what the journal keeps so that no other trade can claim them). */
export function namedTransactions(trade: {
  signatures: { deposit?: string | null; swaps: string[]; payouts: string[]; refund: string | null };
}): NamedTransaction[] {
  const s = trade.signatures;
  return [
    ...(s.deposit ? [{ signature: s.deposit, role: 'deposit' as const }] : []),
    ...s.swaps.map((signature) => ({ signature, role: 'swap' as const })),
    ...s.payouts.map((signature) => ({ signature, role: 'payout' as const })),
    ...(s.refund ? [{ signature: s.refund, role: 'refund' as const }] : []),
  ];
}

/** Records a journaled trade's transactions as the service now names them, and a sell's trade id, where the journal lacks any. */
export function recordLearnt(ctx: Context, history: TradeHistory, trade: Trade): void {
  const tradeId =
    trade.side === 'sell' && trade.id !== history.trade && history.tradeId === null ? trade.id : undefined;
  const fresh = namedTransactions(trade).filter(
    (n) => !history.named.some((x) => x.signature === n.signature && x.role === n.role),
  );
  if (tradeId === undefined && fresh.length === 0) return;
  recordFollowed(ctx, history.trade, trade.stage, { ...(tradeId ? { tradeId } : {}), transactions: fresh });
}

/** What the journal knows of every trade but `trade`, for its verification; null (with a warning) when it cannot be read. */
export function knowledgeFor(ctx: Context, tj: TradeJournal, trade: string): JournalKnowledge | null {
  try {
    return journalKnowledge(tj.journal.read(), trade, tj.wallet);
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    ctx.output.warn(`${err.message}; what the journal knows of other trades cannot be used`);
    return null;
  }
}

/** Runs a write that comes before signing: a journal that cannot take it refuses the trade. */
function write<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    throw refusal(err, NOTHING_SIGNED);
  }
}

function refusal(err: unknown, after: string): unknown {
  if (err instanceof JournalError) return new UsageError(`${err.message}; ${after}`, 'JOURNAL_UNWRITABLE');
  return err;
}

function readOrRefuse(tj: TradeJournal, after: string): JournalRecord[] {
  try {
    return tj.journal.read();
  } catch (err) {
    throw refusal(err, after);
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
 * A `sell_…` id as `trader trades` shows it shortened: the one sell of this service in the journal
 * whose id starts with it (exit 2 when several do); else the id as typed.
 */
export async function expandSellId(ctx: Context, typed: string): Promise<string> {
  const service = await serviceOf(ctx);
  let ids: string[];
  try {
    ids = [
      ...new Set(
        new Journal(journalPath(ctx.config.path), { service, wallet: '' }, { now: () => ctx.clock.now() })
          .read()
          .filter((r) => r.side === 'sell' && r.service === service)
          .map((r) => r.trade),
      ),
    ];
  } catch (err) {
    if (err instanceof JournalError) return typed;
    throw err;
  }
  if (ids.includes(typed)) return typed;
  const matches = ids.filter((id) => id.startsWith(typed));
  if (matches.length > 1)
    throw new UsageError(
      `${typed} is the start of ${matches.length} sells: ${matches.slice(0, 5).join(', ')}; type more of the id`,
      'AMBIGUOUS_ID',
    );
  return matches[0] ?? typed;
}

/** What the journal knows of trade `id`, or null (the journal unreadable is a warning: it proves nothing then). */
export function tradeHistory(ctx: Context, tj: TradeJournal, id: string): TradeHistory | null {
  try {
    return historyOf(tj.journal.read(), id);
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    ctx.output.warn(`${err.message}; what only the journal knows cannot be used`);
    return null;
  }
}

/**
 * Claims the transactions a verification found on chain as this trade's evidence, under the lock:
 * one that already proved another trade becomes a contradiction naming both (exit 3 follows).
 * With `record` false (a trade the journal does not know: its id may be another name of one it
 * does) they are only compared. A journal that cannot be written is a warning; its records are
 * still compared.
 */
export async function claimEvidence(
  ctx: Context,
  tj: TradeJournal,
  side: JournalSide,
  trade: string,
  verification: Verification | null,
  record = true,
): Promise<Verification | null> {
  if (verification === null) return null;
  const { evidenceClaims, withEvidenceConflicts } = await import('../chain/verify-trade.js');
  const { named, proven } = evidenceClaims(verification);
  if (named.length === 0) return verification;
  let conflicts: EvidenceConflict[] = [];
  const evidence = (signature: string, role: EvidenceRole): NewRecord => ({
    type: 'evidence',
    side,
    trade,
    signature,
    role,
  });
  try {
    tj.journal.update((records) => {
      conflicts = sortClaims(records, trade, named).conflicts;
      return record ? sortClaims(records, trade, proven).fresh.map((c) => evidence(c.signature, c.role)) : [];
    });
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    ctx.output.warn(`${err.message}; the evidence of ${trade} is not recorded`);
    try {
      conflicts = sortClaims(tj.journal.read(), trade, named).conflicts;
    } catch (readError) {
      if (!(readError instanceof JournalError)) throw readError;
    }
  }
  return withEvidenceConflicts(verification, trade, conflicts);
}

/** Every deposit the journal shows this tool signed for a buy, oldest first (none for a sell or a trade it does not know). */
export function signedDepositsOf(history: TradeHistory | null): SignedDeposit[] {
  if (history === null || history.side !== 'buy') return [];
  return history.deposits.map((d) => ({
    signature: d.signature,
    blockhash: d.blockhash,
    lastValidBlockHeight: d.lastValidBlockHeight,
    blockhashKnownBeforeSigning: d.blockhashKnownBeforeSigning,
  }));
}
