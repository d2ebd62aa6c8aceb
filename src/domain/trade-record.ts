// How a buy or sell flow tells the journal what it does, at the points it records: the trade
// exists, what is about to be signed, each answer that changes what is known. Each call returns
// once its record is on disk; `created` and the signing gate's `exclusive` step throw to refuse the trade (a journal
// that cannot be written, a daily limit passed), before anything is signed or handed over.
import { formatLocalTime } from './local-time.js';
import { NOTHING_SIGNED } from './outcome-words.js';
import type { SellSeen } from './sell-evidence.js';

import type { JournalRecord, NamedTransaction, NewRecord } from './journal-records.js';

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
