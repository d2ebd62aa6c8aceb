// How a buy or sell stopped short of its end: one value per way it can stop, carrying what the
// presenter needs to say it once (the trade's id and key, where it stood, what the service's
// state proves). The flows make these values; nothing rewrites a message afterwards.
import type { ApiError, NeededTrust, TradeFailedError, UsageError } from './errors.js';

export type TradeSide = 'buy' | 'sell';

/**
 * Where a trade stood: nothing created yet; created and under the checks; a question on screen;
 * approved but not yet handed over; handed over (or possibly handed over) to the service.
 */
export type TradePhase = 'creating' | 'checking' | 'prompting' | 'approved' | 'submitted';

export interface TradeRef {
  side: TradeSide;
  /** The buy or sell id, once created. */
  id: string | null;
  idempotencyKey: string;
  /** The last intent or authorization seen: what --json prints for a refusal or a decline. */
  last: unknown;
}

export type TradeStop =
  /** A safety check failed: nothing was signed (exit 6). `hints` say what became of the trade. */
  | { kind: 'refused'; ref: TradeRef; problems: string[]; hints: string[]; trust: NeededTrust | null }
  /** The user said no (exit 4, not an error). `detail`: what else to know (a cancel that failed). */
  | { kind: 'declined'; ref: TradeRef; detail: string | null }
  /** Ctrl-C or SIGTERM: what it stopped depends on the phase (130/143). */
  | { kind: 'interrupted'; ref: TradeRef; signal: 'SIGINT' | 'SIGTERM'; phase: TradePhase }
  /**
   * The service failed or refused (exit 3). `proven`: what the service's state shows of the
   * trade after that answer, read by the flow (null when nothing was read).
   */
  | { kind: 'service-error'; ref: TradeRef; error: ApiError; phase: TradePhase; proven: string | null }
  /** A local refusal before anything was signed: a key of another trade, a trust store that cannot be written (exit 2). */
  | { kind: 'local'; ref: TradeRef; error: UsageError }
  /** The trade ended without success, and its evidence says so whole (a deposit the chain proves dead): exit 4, nothing more to follow. */
  | { kind: 'ended'; ref: TradeRef; error: TradeFailedError };
