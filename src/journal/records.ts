// What the trade journal's records are, and the parse that trusts a line only when it is one.
// The file is journal-file.ts; what is read from the records: trade-history.ts (each trade's
// own), other-trades.ts (what other trades claimed), daily-limits.ts and brake-counts.ts.
import { isSignatureText } from '../domain/address.js';

export type JournalSide = 'buy' | 'sell';
/**
 * The roles in which a chain transaction proves a trade's money moved (a swap: its tokens), claimed
 * under the journal's lock so that two runs racing cannot both take one transaction.
 */
export type EvidenceRole = 'deposit' | 'swap' | 'payout' | 'refund';
/** The roles in which the service names a chain transaction for a trade: the same ones. */
export type TransactionRole = EvidenceRole;
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
  /**
   * Values the service named as transactions that are not signatures (base58 of 64 bytes): its
   * contradiction, kept apart (shortened) so that `transactions` holds only what can name one.
   */
  malformed?: MalformedName[];
}

/** A value the service named in a role that is no transaction signature, at most 100 characters of it. */
export interface MalformedName {
  role: TransactionRole;
  text: string;
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

/**
 * An answer's named transactions as a record holds them: the signatures in `transactions`, any
 * other value the service named in `malformed` (shortened), so that the reader takes the record.
 */
export function namedFields(
  named: readonly NamedTransaction[] | undefined,
): Pick<AnswerRecord, 'transactions' | 'malformed'> {
  const transactions = (named ?? []).filter((n) => isSignatureText(n.signature));
  const malformed = (named ?? [])
    .filter((n) => !isSignatureText(n.signature))
    .map((n) => ({ role: n.role, text: n.signature.slice(0, 100) }));
  return {
    ...(transactions.length > 0 ? { transactions } : {}),
    ...(malformed.length > 0 ? { malformed } : {}),
  };
}

const isMalformedName = (v: unknown): boolean =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as MalformedName).text === 'string' &&
  ROLES.has((v as MalformedName).role);

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
      if (r.malformed !== undefined && !(Array.isArray(r.malformed) && r.malformed.every(isMalformedName)))
        return 'an answer naming malformed transactions without their roles';
      return r.transactions === undefined || (Array.isArray(r.transactions) && r.transactions.every(isNamed))
        ? null
        : 'an answer naming transactions without their roles';
    case 'outcome':
      return isString(r.outcome) ? null : 'an outcome record without its outcome';
    case 'evidence':
      return isString(r.signature) &&
        (r.role === 'deposit' || r.role === 'swap' || r.role === 'payout' || r.role === 'refund')
        ? null
        : 'an evidence record without its transaction or role';
    default:
      return 'unknown record type';
  }
}
