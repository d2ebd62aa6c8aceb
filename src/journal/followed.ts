// What a command that follows a trade records of it (`trades <id> --watch`, `cancel`,
// `--verify`): its status and the transactions the service names for it, when the journal knows
// the trade; a journal that cannot take it costs only the record (a warning).
import type { Trade } from '../api/types.js';
import { isSignatureText } from '../domain/address.js';
import { Journal, JournalError, journalPath } from './journal-file.js';
import type { JournalHost } from './opened-journal.js';
import { namedFields, type NamedTransaction } from './records.js';
import { historyOf, type TradeHistory } from './trade-history.js';

/**
 * Records what a command that follows a trade saw of it (`trades <id> --watch`, `cancel`,
 * `--verify`): its status, and a sell's trade id and the transactions named for it (by which the
 * service's lists show it, and which no other trade may claim), when the journal knows the
 * trade; a journal that cannot take it costs only the record (a warning).
 */
export function recordFollowed(
  ctx: Pick<JournalHost, 'config' | 'clock' | 'output'>,
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
      ...namedFields(learnt.transactions),
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
export function recordLearnt(
  ctx: Pick<JournalHost, 'config' | 'clock' | 'output'>,
  history: TradeHistory,
  trade: Trade,
): void {
  const tradeId =
    trade.side === 'sell' && trade.id !== history.trade && history.tradeId === null ? trade.id : undefined;
  // A value that is no signature was noted by the run that saw it (namedFields); not again at every look.
  const fresh = namedTransactions(trade).filter(
    (n) => isSignatureText(n.signature) && !history.named.some((x) => x.signature === n.signature && x.role === n.role),
  );
  if (tradeId === undefined && fresh.length === 0) return;
  recordFollowed(ctx, history.trade, trade.stage, { ...(tradeId ? { tradeId } : {}), transactions: fresh });
}
