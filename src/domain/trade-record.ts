// How a buy or sell flow tells the journal what it does, at the points it records: the trade
// exists, what is about to be signed, each answer that changes what is known. Each call returns
// once its record is on disk; `created` and `beforeSigning` throw to refuse the trade (a journal
// that cannot be written, a daily limit passed), before anything is signed or handed over.

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
    }
  | { kind: 'sell'; message: string; minimumOutputLamports: bigint };

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
  /** The trade exists, new or resumed; throws to refuse it before anything is signed. */
  created(trade: { id: string; idempotencyKey: string; resumed: boolean; request: { mint: string; amount: bigint; slippageBps?: number }; quote: object }): void;
  /** Recorded (and counted against the daily limit, atomically) before the signature leaves this process; throws to refuse. */
  beforeSigning(what: ToSign): void;
  /** An answer that changed what is known; never throws (the trade is under way by then). */
  answer(answer: TradeAnswer): void;
}

