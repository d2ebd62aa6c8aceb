// How a buy or sell flow tells the journal what it does, at the points it records: the trade
// exists, what is about to be signed, each answer that changes what is known. Each call returns
// once its record is on disk; `created` and `beforeSigning` throw to refuse the trade (a journal
// that cannot be written, a daily limit passed), before anything is signed or handed over.
import { formatLocalTime } from './local-time.js';
import { NOTHING_SIGNED } from './outcome-words.js';
import type { SellSeen } from './sell-evidence.js';

import type { NamedTransaction } from './journal-records.js';

/** What is about to be signed and handed over. */
export type ToSign =
  | {
      kind: 'deposit';
      signature: string;
      blockhash: string;
      lastValidBlockHeight: number;
      blockhashKnownBeforeSigning: boolean;
      amountLamports: bigint;
      /** The platform fee the review showed before signing; null: it showed none (the quote could not be read). */
      platformFeeLamports: bigint | null;
      /** The signed transaction (base64): kept so that a resume sends it again rather than signing another. */
      transaction: string;
    }
  | { kind: 'sell'; message: string; minimumOutputLamports: bigint };

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
 * its own), and what this tool signed for it before (a buy's deposits, a sell message's hash).
 */
export interface Prior {
  keyTrade: { id: string; signed: boolean; at: string } | null;
  deposits: PriorDeposit[];
  /** sha256 (hex) of each message signed for this sell authorization. */
  messageSha256: string[];
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
  created(trade: { id: string; idempotencyKey: string; resumed: boolean; request: { mint: string; amount: bigint; slippageBps?: number }; quote: object }): Prior;
  /** Recorded (and counted against the daily limit, atomically) before the signature leaves this process; throws to refuse. */
  beforeSigning(what: ToSign): void;
  /** An answer that changed what is known; never throws (the trade is under way by then). */
  answer(answer: TradeAnswer): void;
}

/**
 * The refusal of a trade the service gave for an idempotency key this tool's journal records as
 * another trade's (`what`: what that trade signed); `fate`: what became of the one given.
 */
export function keyTradeWords(side: 'buy' | 'sell', key: string, given: string, keyTrade: NonNullable<Prior['keyTrade']>, what: string, fate: string): string {
  const signed = keyTrade.signed ? `, its ${what} signed` : '';
  return (
    `the service answered idempotency key ${key} with ${side} ${given}, but this tool's journal records that key as ${side} ${keyTrade.id} (made ${formatLocalTime(keyTrade.at)}${signed}); ` +
    `a repeated key returns its original trade, so ${given} is not that ${side}: ${NOTHING_SIGNED}; ${fate}; follow the key's ${side} with: trader trades ${keyTrade.id}`
  );
}
