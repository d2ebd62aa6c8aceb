// What the journal knows of the trades other than the one being checked: the transactions they
// claimed (one chain transaction proves one trade only) and the buys whose refund may still land.
import type { EvidenceRecord, EvidenceRole, JournalRecord, JournalSide, TransactionRole } from './records.js';
import { tradeHistories } from './trade-history.js';

/** A transaction this trade claims as evidence that another trade already claimed. */
export interface EvidenceConflict {
  signature: string;
  role: EvidenceRole;
  /** The trade it proved before, and in which role. */
  otherTrade: string;
  otherRole: EvidenceRole;
}

/**
 * Which of `claims` already proved another trade (any service, any wallet: a transaction is one
 * on chain), and which are new for this trade (to record).
 */
export function sortClaims(
  records: readonly JournalRecord[],
  trade: string,
  claims: ReadonlyArray<{ signature: string; role: EvidenceRole }>,
): { conflicts: EvidenceConflict[]; fresh: Array<{ signature: string; role: EvidenceRole }> } {
  const byTx = new Map<string, EvidenceRecord[]>();
  for (const r of records) if (r.type === 'evidence') byTx.set(r.signature, [...(byTx.get(r.signature) ?? []), r]);
  const conflicts: EvidenceConflict[] = [];
  const fresh: Array<{ signature: string; role: EvidenceRole }> = [];
  for (const claim of claims) {
    const earlier = byTx.get(claim.signature) ?? [];
    const other = earlier.find((r) => r.trade !== trade);
    if (other) conflicts.push({ ...claim, otherTrade: other.trade, otherRole: other.role });
    else if (!earlier.some((r) => r.role === claim.role)) fresh.push(claim);
  }
  return { conflicts, fresh };
}

/** A transaction the journal knows for a trade: a deposit this tool signed, or one the service named or the chain proved for it. */
export interface KnownTransaction {
  trade: string;
  side: JournalSide;
  /** null: named by an earlier version's record, in a role it did not say. */
  role: TransactionRole | null;
}

/** What the journal knows that a verification of one trade needs about every other. */
export interface JournalKnowledge {
  /** Each transaction the journal knows for another trade (any service or wallet: a transaction is one on chain). */
  elsewhere: Map<string, KnownTransaction[]>;
  /**
   * This wallet's buys with a signed deposit that the journal does not know completed (failed,
   * refunded, or their end not seen here: a --no-wait buy), and whose refund it does not know
   * either: a transfer to the wallet of exactly one of `lamports` (the deposit, or it less the
   * fee the review showed) may be its refund.
   */
  refundable: Array<{ trade: string; madeAtMs: number; lamports: bigint[] }>;
}

/** What the journal knows of every trade but `trade` (the id it is journaled by), for `wallet`'s verification. */
export function journalKnowledge(records: readonly JournalRecord[], trade: string, wallet: string): JournalKnowledge {
  const elsewhere = new Map<string, KnownTransaction[]>();
  const refundable: JournalKnowledge['refundable'] = [];
  const add = (signature: string, known: KnownTransaction) => {
    const list = elsewhere.get(signature) ?? [];
    if (!list.some((k) => k.trade === known.trade && k.role === known.role)) elsewhere.set(signature, [...list, known]);
  };
  for (const t of tradeHistories(records)) {
    if (t.trade === trade || t.tradeId === trade) continue;
    for (const d of t.deposits) add(d.signature, { trade: t.trade, side: t.side, role: 'deposit' });
    for (const n of t.named) add(n.signature, { trade: t.trade, side: t.side, role: n.role });
    // A buy whose refund is known needs no guess: that transaction is known above, and no other is its refund.
    if (
      t.side !== 'buy' ||
      t.wallet !== wallet ||
      t.deposits.length === 0 ||
      t.status === 'completed' ||
      t.named.some((n) => n.role === 'refund')
    )
      continue;
    const lamports = new Set<bigint>();
    for (const d of t.deposits) {
      const amount = BigInt(d.amountLamports);
      lamports.add(amount);
      const fee = typeof d.platformFeeLamports === 'string' ? BigInt(d.platformFeeLamports) : 0n;
      if (fee > 0n && fee < amount) lamports.add(amount - fee);
    }
    refundable.push({ trade: t.trade, madeAtMs: t.madeAtMs ?? t.createdAtMs, lamports: [...lamports] });
  }
  return { elsewhere, refundable };
}
