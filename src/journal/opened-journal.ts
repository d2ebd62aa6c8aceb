// The journal as a run opens it: the one of the configured service and a wallet, checked
// writable before a trade sends anything (exit 2 without it), and what a command reads of it,
// where a journal that cannot be read is a warning (it proves nothing then) and not a stop.
import type { Settings } from '../config/settings.js';
import { UsageError } from '../domain/errors.js';
import { NOTHING_SENT } from '../domain/outcome-words.js';
import { assertDailyRoom, type DailyCap } from './daily-limits.js';
import { Journal, JournalError, journalPath } from './journal-file.js';
import { journalKnowledge, type JournalKnowledge } from './other-trades.js';
import type { JournalRecord } from './records.js';
import { historyOf, type TradeHistory } from './trade-history.js';

/** What the journal needs of a run: where the config file is, the clock, the service, and where a warning goes. */
export interface JournalHost {
  readonly config: { readonly path: string };
  readonly clock: { now(): number };
  readonly settings: Pick<Settings, 'baseUrl' | 'insecure'>;
  readonly output: { warn(message: string): void };
}

/** The journal of one service and wallet. */
export interface TradeJournal {
  readonly journal: Journal;
  readonly service: string;
  readonly wallet: string;
}

/** The service's API root, as the trust store keys it. */
async function serviceOf(ctx: JournalHost): Promise<string> {
  const { resolveApiRoot } = await import('../api/base-url.js');
  if (!ctx.settings.baseUrl) return '';
  return resolveApiRoot(ctx.settings.baseUrl, ctx.settings.insecure).href;
}

/** The journal for this service and wallet, without checking it can be written (for reading). */
export async function journalFor(ctx: JournalHost, wallet: string): Promise<TradeJournal> {
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
export async function openTradeJournal(ctx: JournalHost, wallet: string): Promise<TradeJournal> {
  const tj = await journalFor(ctx, wallet);
  try {
    tj.journal.check();
  } catch (err) {
    throw refusal(err, NOTHING_SENT);
  }
  return tj;
}

/**
 * A buy's daily limit checked before anything is created (the atomic check comes before signing).
 * A key whose trade the journal saw signed is a resume of what was counted already: not checked.
 */
export function preCheckDaily(
  ctx: JournalHost,
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

/** What the journal knows of every trade but `trade`, for its verification; null (with a warning) when it cannot be read. */
export function knowledgeFor(ctx: JournalHost, tj: TradeJournal, trade: string): JournalKnowledge | null {
  try {
    return journalKnowledge(tj.journal.read(), trade, tj.wallet);
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    ctx.output.warn(`${err.message}; what the journal knows of other trades cannot be used`);
    return null;
  }
}

/**
 * A `sell_…` id as `trader trades` shows it shortened: the one sell of this service in the journal
 * whose id starts with it (exit 2 when several do); else the id as typed.
 */
export async function expandSellId(ctx: JournalHost, typed: string): Promise<string> {
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
export function tradeHistory(ctx: JournalHost, tj: TradeJournal, id: string): TradeHistory | null {
  try {
    return historyOf(tj.journal.read(), id);
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    ctx.output.warn(`${err.message}; what only the journal knows cannot be used`);
    return null;
  }
}

/** The journal's records, or the refusal (exit 2) of a trade that cannot go on without them. */
export function readOrRefuse(tj: TradeJournal, after: string): JournalRecord[] {
  try {
    return tj.journal.read();
  } catch (err) {
    throw refusal(err, after);
  }
}

/** A journal that cannot be read or written, as the refusal (exit 2) of the trade that needs it; another error as it is. */
export function refusal(err: unknown, after: string): unknown {
  if (err instanceof JournalError) return new UsageError(`${err.message}; ${after}`, 'JOURNAL_UNWRITABLE');
  return err;
}
