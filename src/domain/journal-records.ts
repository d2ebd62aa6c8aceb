// What the trade journal holds and what may be read from it, as pure functions over its records:
// the SOL committed in the last 24 hours (the daily limits), which trade a chain transaction
// already proved (evidence proves one trade only), and each trade's own history (when this tool
// created it, what it signed, what the service answered). The file itself is config/journal.ts.

/** The rolling window of the daily limits. */
export const DAY_MS = 24 * 60 * 60 * 1000;

export type JournalSide = 'buy' | 'sell';
/** The roles in which a chain transaction proves a trade's money moved. */
export type EvidenceRole = 'deposit' | 'payout' | 'refund';
/** The roles in which the service names a chain transaction for a trade. */
export type TransactionRole = EvidenceRole | 'swap';
/** A transaction the service named for a trade, in its role. */
export interface NamedTransaction {
  signature: string;
  role: TransactionRole;
}

/** What every record names: when, for which service (API root) and wallet, which trade. */
interface RecordBase {
  v: 1;
  /** ISO time on this machine's clock when the record was written. */
  at: string;
  service: string;
  wallet: string;
  side: JournalSide;
  /** The buy intent id or the sell authorization id (sell_…): the id this tool knows the trade by. */
  trade: string;
}

/** The trade exists (made, or found again by its key): its key, the request, the quote. */
export interface CreatedRecord extends RecordBase {
  type: 'created';
  idempotencyKey: string;
  /** The key named a trade that was already past its signature. */
  resumed: boolean;
  /** Amount: lamports for a buy, raw token units for a sell. */
  request: { mint: string; amount: string; slippageBps: number | null };
  /** The service's quote as received (amounts as decimal strings). */
  quote: Record<string, string | number | boolean | null>;
}

/**
 * What is about to be signed, on disk before it is (the signing gate, trade/signing-gate.ts,
 * writes it under the journal's lock): a deposit or a sell message, by the sha256 of the bytes
 * signed. Its signature follows in a `signed` record written in the same step, before the
 * signature leaves this process; a `before-signing` with no `signed` after it was never handed over.
 */
export type BeforeSigningRecord = RecordBase & { type: 'before-signing' } & (
    | {
        side: 'buy';
        /** sha256 (hex) of the deposit's message bytes. Absent in records of earlier versions (which hold `signature`). */
        messageSha256?: string;
        /** An earlier version's record: the deposit's signature, written with it. */
        signature?: string;
        blockhash: string;
        /** The service's word for the blockhash's life, kept to say until when the deposit may land. */
        lastValidBlockHeight: number;
        /** The chain knew the blockhash before signing: only then does "expired" there prove anything. */
        blockhashKnownBeforeSigning: boolean;
        /** SOL the deposit moves (what the daily buy limit counts). */
        amountLamports: string;
        /** The platform fee the review showed before signing (a refund is held to it); null: none shown; absent: an earlier version's record. */
        platformFeeLamports?: string | null;
        /** An earlier version's record: the signed transaction (base64). */
        transaction?: string;
      }
    | {
        side: 'sell';
        /** sha256 of the message (hex). */
        messageSha256: string;
        /** The signed minimum (what the daily sell limit counts). */
        minimumOutputLamports: string;
      }
  );

/** The signature made for a `before-signing` record (the same trade and bytes), on disk before it leaves this process. */
export interface SignedRecord extends RecordBase {
  type: 'signed';
  messageSha256: string;
  /** A deposit's signature (its id on chain), or a sell message's (base58). */
  signature: string;
  /** A deposit: the signed transaction (base64; public once sent): a resume sends it again instead of signing a second. */
  transaction?: string;
}

/** A deposit this tool signed, as the journal knows it: its `before-signing` with the signature made for it. */
export type DepositRecord = Extract<BeforeSigningRecord, { side: 'buy' }> & { signature: string };

/** An answer of the service that changed what is known (a status, an error, an answer lost). */
export interface AnswerRecord extends RecordBase {
  type: 'answer';
  /** What was asked: deposit, authorize, or a read while following. */
  step: 'deposit' | 'authorize' | 'read';
  status: string | null;
  /** The answer was an error (its code and HTTP status), or was lost (`uncertain`). */
  error?: { code: string; status: number | null; uncertain: boolean };
  /** A sell's trade id (its group key), once the service names it. */
  tradeId?: string;
  /**
   * Transactions the service named for the trade, in their roles: to know it again in its lists,
   * and so that no other trade can claim them.
   */
  transactions?: NamedTransaction[];
  /** An earlier version's record: the transactions named, without their roles. */
  signatures?: string[];
}

/** How the run ended for this trade. */
export interface OutcomeRecord extends RecordBase {
  type: 'outcome';
  outcome: string;
  detail?: string;
}

/** A chain transaction that proved this trade's money moved: it can prove no other trade. */
export interface EvidenceRecord extends RecordBase {
  type: 'evidence';
  signature: string;
  role: EvidenceRole;
}

export type JournalRecord =
  CreatedRecord | BeforeSigningRecord | SignedRecord | AnswerRecord | OutcomeRecord | EvidenceRecord;
/** A record as a caller writes it: the journal adds the version, time, service and wallet. */
export type NewRecord = DistributiveOmit<JournalRecord, 'v' | 'at' | 'service' | 'wallet'>;
type DistributiveOmit<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;

const RECORD_TYPES = new Set(['created', 'before-signing', 'signed', 'answer', 'outcome', 'evidence']);
const SHA256_HEX = /^[0-9a-f]{64}$/;
const DIGITS = /^\d+$/;
const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const ROLES = new Set(['deposit', 'swap', 'payout', 'refund']);
const isNamed = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  isString((v as NamedTransaction).signature) &&
  ROLES.has((v as NamedTransaction).role);

/** The record a line holds, or why it cannot be trusted. */
export function parseRecord(line: string): { record: JournalRecord } | { damaged: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { damaged: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { damaged: 'not a JSON object' };
  const r = value as Record<string, unknown>;
  if (r.v !== 1) return { damaged: `unknown version ${JSON.stringify(r.v)}` };
  if (!isString(r.type) || !RECORD_TYPES.has(r.type))
    return { damaged: `unknown record type ${JSON.stringify(r.type)}` };
  if (!isString(r.at) || Number.isNaN(Date.parse(r.at))) return { damaged: 'no valid time' };
  if (!isString(r.service) || !isString(r.wallet) || !isString(r.trade))
    return { damaged: 'no service, wallet or trade' };
  if (r.side !== 'buy' && r.side !== 'sell') return { damaged: 'no side' };
  const problem = fieldProblem(r);
  return problem ? { damaged: problem } : { record: value as JournalRecord };
}

/** What a record of its type lacks, or null. */
function fieldProblem(r: Record<string, unknown>): string | null {
  switch (r.type) {
    case 'created': {
      const req = r.request as Record<string, unknown> | null | undefined;
      if (!isString(r.idempotencyKey) || typeof r.resumed !== 'boolean') return 'a created record without its key';
      if (
        typeof req !== 'object' ||
        req === null ||
        !isString(req.mint) ||
        !isString(req.amount) ||
        !DIGITS.test(req.amount)
      )
        return 'a created record without its request';
      return typeof r.quote === 'object' && r.quote !== null ? null : 'a created record without its quote';
    }
    case 'before-signing':
      if (r.side === 'buy') {
        const what = (isString(r.messageSha256) && SHA256_HEX.test(r.messageSha256)) || isString(r.signature);
        const ok =
          what &&
          isString(r.blockhash) &&
          Number.isSafeInteger(r.lastValidBlockHeight) &&
          typeof r.blockhashKnownBeforeSigning === 'boolean';
        const fee =
          r.platformFeeLamports === undefined ||
          r.platformFeeLamports === null ||
          (isString(r.platformFeeLamports) && DIGITS.test(r.platformFeeLamports));
        if (r.transaction !== undefined && !isString(r.transaction))
          return 'a deposit record whose transaction is not base64 text';
        return ok && fee && isString(r.amountLamports) && DIGITS.test(r.amountLamports)
          ? null
          : 'a deposit record without its message hash, blockhash or amount';
      }
      return isString(r.messageSha256) &&
        SHA256_HEX.test(r.messageSha256) &&
        isString(r.minimumOutputLamports) &&
        DIGITS.test(r.minimumOutputLamports)
        ? null
        : 'a sell record without its message hash or minimum';
    case 'signed':
      if (!isString(r.messageSha256) || !SHA256_HEX.test(r.messageSha256) || !isString(r.signature))
        return 'a signed record without its message hash or signature';
      return r.transaction === undefined || isString(r.transaction)
        ? null
        : 'a signed record whose transaction is not base64 text';
    case 'answer':
      if (r.step !== 'deposit' && r.step !== 'authorize' && r.step !== 'read') return 'an answer of no known step';
      return r.transactions === undefined || (Array.isArray(r.transactions) && r.transactions.every(isNamed))
        ? null
        : 'an answer naming transactions without their roles';
    case 'outcome':
      return isString(r.outcome) ? null : 'an outcome record without its outcome';
    case 'evidence':
      return isString(r.signature) && (r.role === 'deposit' || r.role === 'payout' || r.role === 'refund')
        ? null
        : 'an evidence record without its transaction or role';
    default:
      return 'unknown record type';
  }
}

/** One signed commitment inside the window: when it was signed and how much it counts. */
export interface Commitment {
  atMs: number;
  lamports: bigint;
  trade: string;
}

/**
 * The wallet's commitments of one side within the 24 hours before `nowMs`, oldest first: a buy's
 * signed deposits (each signature once: a deposit signed again for the same intent is the same
 * transaction), a sell's signed minimums (each trade's message once). Every service counts: it is
 * the wallet's SOL.
 */
export function commitments(
  records: readonly JournalRecord[],
  wallet: string,
  side: JournalSide,
  nowMs: number,
): Commitment[] {
  const seen = new Set<string>();
  const out: Commitment[] = [];
  for (const r of records) {
    if (r.type !== 'before-signing' || r.wallet !== wallet || r.side !== side) continue;
    const atMs = Date.parse(r.at);
    if (!(atMs > nowMs - DAY_MS)) continue;
    // A deposit is one by its bytes (an earlier version's record, by its signature): signed again, it is the same.
    const key =
      r.side === 'buy'
        ? r.messageSha256
          ? `d:${r.trade}:${r.messageSha256}`
          : `d:${r.signature}`
        : `s:${r.trade}:${r.messageSha256}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ atMs, lamports: BigInt(r.side === 'buy' ? r.amountLamports : r.minimumOutputLamports), trade: r.trade });
  }
  return out.sort((a, b) => a.atMs - b.atMs);
}

/** Whether `lamports` more fits under `cap`, and if not, when enough of the window's commitments age out. */
export interface DailyRoom {
  fits: boolean;
  /** Committed in the window now. */
  spent: bigint;
  /** When it would fit (ms), or null when it fits now or never will (more than the cap alone). */
  freesAtMs: number | null;
}

/** At the cap fits; one lamport past it does not. */
export function dailyRoom(window: readonly Commitment[], lamports: bigint, cap: bigint): DailyRoom {
  const spent = window.reduce((sum, c) => sum + c.lamports, 0n);
  if (spent + lamports <= cap) return { fits: true, spent, freesAtMs: null };
  if (lamports > cap) return { fits: false, spent, freesAtMs: null };
  // Oldest first: each leaves the window 24 hours after it was signed.
  let left = spent;
  for (const c of window) {
    left -= c.lamports;
    if (left + lamports <= cap) return { fits: false, spent, freesAtMs: c.atMs + DAY_MS };
  }
  return { fits: false, spent, freesAtMs: null };
}

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
