// Each trade's own history as the journal's records tell it, from every run that touched it:
// when this tool created it, what it signed, what the service answered, what proved it.
import type { SellSeen } from '../domain/sell-evidence.js';
import type {
  BeforeSigningRecord,
  CreatedRecord,
  DepositRecord,
  EvidenceRole,
  JournalRecord,
  JournalSide,
  TransactionRole,
} from './records.js';

/** What the journal knows of one trade, from every run that touched it. */
export interface TradeHistory {
  side: JournalSide;
  trade: string;
  service: string;
  wallet: string;
  /** When this tool first recorded it (ms). */
  createdAtMs: number;
  /**
   * When this tool made it (its first `created` record that was not a resume), or null when the
   * journal only saw it resumed: the earliest a payout or refund for it may land.
   */
  madeAtMs: number | null;
  idempotencyKey: string | null;
  request: CreatedRecord['request'] | null;
  /** A buy's signed deposits, in order (one, unless a resume signed another after the chain proved the first dead). */
  deposits: DepositRecord[];
  /** A sell's signed minimum (the last one signed), as a decimal string. */
  signedMinimumLamports: string | null;
  /** The last status the service gave, or the last outcome of a run. */
  status: string | null;
  /** A sell's trade id (its group key), once known. */
  tradeId: string | null;
  /** A sell: the service answered its authorize with the authorization authorized (it took the signature). */
  authorized: boolean;
  /** A sell: a run recorded it completed (the service's word, or its outcome). */
  completed: boolean;
  /** Transactions that proved it, by role. */
  evidence: Array<{ signature: string; role: EvidenceRole }>;
  /** Every transaction the service named for it (evidence included). */
  signatures: string[];
  /** The same, in the roles they were named or proved in (role null: an earlier version's record). */
  named: Array<{ signature: string; role: TransactionRole | null }>;
}

/** Every trade the journal knows, oldest first; `match` picks the records (a service and wallet, say). */
export function tradeHistories(
  records: readonly JournalRecord[],
  match: (r: JournalRecord) => boolean = () => true,
): TradeHistory[] {
  const trades = new Map<string, TradeHistory>();
  const pending = new Map<string, Extract<BeforeSigningRecord, { side: 'buy' }>>();
  for (const r of records) {
    if (!match(r)) continue;
    let t = trades.get(r.trade);
    if (!t) {
      t = {
        side: r.side,
        trade: r.trade,
        service: r.service,
        wallet: r.wallet,
        createdAtMs: Date.parse(r.at),
        madeAtMs: null,
        idempotencyKey: null,
        request: null,
        deposits: [],
        signedMinimumLamports: null,
        status: null,
        tradeId: null,
        authorized: false,
        completed: false,
        evidence: [],
        signatures: [],
        named: [],
      };
      trades.set(r.trade, t);
    }
    t.createdAtMs = Math.min(t.createdAtMs, Date.parse(r.at));
    switch (r.type) {
      case 'created':
        if (!r.resumed) t.madeAtMs = Math.min(t.madeAtMs ?? Infinity, Date.parse(r.at));
        t.idempotencyKey ??= r.idempotencyKey;
        t.request ??= r.request;
        t.status ??= typeof r.quote.status === 'string' ? r.quote.status : null;
        break;
      case 'before-signing':
        if (r.side === 'sell') t.signedMinimumLamports = r.minimumOutputLamports;
        else if (r.signature !== undefined) addDeposit(t, { ...r, signature: r.signature });
        else pending.set(`${r.trade} ${r.messageSha256}`, r);
        break;
      case 'signed': {
        // A deposit is known once its signature is on disk; without it, it never left this process.
        const before = pending.get(`${r.trade} ${r.messageSha256}`);
        if (before)
          addDeposit(t, {
            ...before,
            signature: r.signature,
            ...(r.transaction ? { transaction: r.transaction } : {}),
          });
        break;
      }
      case 'answer':
        if (r.status !== null) t.status = r.status;
        if (r.step === 'authorize' && r.status === 'authorized') t.authorized = true;
        if (r.side === 'sell' && r.status === 'completed') t.completed = true;
        if (r.tradeId) t.tradeId = r.tradeId;
        for (const sig of Array.isArray(r.signatures) ? r.signatures : [])
          if (typeof sig === 'string') name(t, sig, null);
        for (const x of r.transactions ?? []) name(t, x.signature, x.role);
        break;
      case 'outcome':
        t.status = r.outcome;
        if (r.side === 'sell' && r.outcome === 'completed') t.completed = true;
        break;
      case 'evidence':
        if (!t.evidence.some((e) => e.signature === r.signature && e.role === r.role))
          t.evidence.push({ signature: r.signature, role: r.role });
        name(t, r.signature, r.role);
        break;
    }
  }
  return [...trades.values()].sort((a, b) => a.createdAtMs - b.createdAtMs);
}

function addDeposit(t: TradeHistory, d: DepositRecord): void {
  if (!t.deposits.some((x) => x.signature === d.signature)) t.deposits.push(d);
}

/** Adds a transaction named for the trade (once per role; a role-less earlier record only where none is known). */
function name(t: TradeHistory, signature: string, role: TransactionRole | null): void {
  if (!t.signatures.includes(signature)) t.signatures.push(signature);
  if (role !== null) t.named = t.named.filter((x) => !(x.signature === signature && x.role === null));
  if (!t.named.some((x) => x.signature === signature && (x.role === role || role === null)))
    t.named.push({ signature, role });
}

/**
 * The platform fee a buy's review showed before its deposit was signed (the deposit the service
 * names, else the last signed): what its refund is held to. Null when unknown (no record, none
 * shown, or an earlier version's record).
 */
export function reviewedFeeOf(history: TradeHistory | null, depositNamed: string | null): bigint | null {
  const d = history?.deposits.find((x) => x.signature === depositNamed) ?? history?.deposits.at(-1);
  return typeof d?.platformFeeLamports === 'string' ? BigInt(d.platformFeeLamports) : null;
}

/** The history of the trade this tool knows as `id` (a buy id, a sell_… id, or a sell's trade id), or null. */
export function historyOf(records: readonly JournalRecord[], id: string): TradeHistory | null {
  const all = tradeHistories(records);
  return all.find((t) => t.trade === id) ?? all.find((t) => t.tradeId === id) ?? null;
}

/**
 * What this tool's journal recorded of a sell in earlier runs, as reports that come before the
 * service's next ones: the authorize answered authorized (the signature taken), and the sell
 * completed (a run saw it so, or the chain proved its payout). A later report that contradicts
 * them is named as a contradiction, not believed.
 */
export function journalSeen(h: Pick<TradeHistory, 'authorized' | 'completed' | 'evidence'>): SellSeen[] {
  const seen: SellSeen[] = [];
  if (h.authorized)
    seen.push({
      from: "this tool's journal (the authorize answer)",
      authorization: 'authorized',
      executionStarted: null,
      sell: null,
      failure: null,
    });
  const payout = h.evidence.find((e) => e.role === 'payout');
  if (payout || h.completed) {
    const from = payout
      ? `this tool's journal (payout ${payout.signature} for this sell, verified on chain)`
      : "this tool's journal (an earlier run saw the sell completed)";
    seen.push({ from, authorization: 'authorized', executionStarted: true, sell: 'completed', failure: null });
  }
  return seen;
}

/** Every deposit the journal shows this tool signed for a buy, oldest first (none for a sell or a trade it does not know). */
export function signedDepositsOf(
  history: TradeHistory | null,
): Array<Pick<DepositRecord, 'signature' | 'blockhash' | 'lastValidBlockHeight' | 'blockhashKnownBeforeSigning'>> {
  if (history === null || history.side !== 'buy') return [];
  return history.deposits.map((d) => ({
    signature: d.signature,
    blockhash: d.blockhash,
    lastValidBlockHeight: d.lastValidBlockHeight,
    blockhashKnownBeforeSigning: d.blockhashKnownBeforeSigning,
  }));
}
