// A buy or sell flow run in a unit test, with its tracker: what it returned, or how it stopped,
// read from the error it threw and the tracker's state then (trade/trade-tracker.ts says the same
// to the person through tradeRun; these tests check what the flow knew when it stopped).
import {
  ApiError,
  DeclinedError,
  InterruptedError,
  RefusedToSignError,
  TradeFailedError,
  UsageError,
  type NeededTrust,
} from '../../src/domain/errors.js';
import {
  TradeTracker,
  type StopWords,
  type TradePhase,
  type TradeRef,
  type TradeSide,
} from '../../src/trade/trade-tracker.js';

/** How a flow stopped: the kind of stop (by the error's class), the trade's reference and phase, and the error's facts. */
export interface FlowStop {
  kind: 'refused' | 'declined' | 'interrupted' | 'service-error' | 'local' | 'ended';
  ref: TradeRef;
  phase: TradePhase;
  error: unknown;
  /** What the service's state was read to prove after its failure. */
  proven: string | null;
  problems?: string[];
  hints?: string[];
  trust?: NeededTrust | null;
  detail?: string | null;
  signal?: 'SIGINT' | 'SIGTERM';
}

const WORDS: StopWords = { unsigned: 'unused', resume: () => null, result: (last) => last };

/** Runs `flow` with a new tracker (key `key-1`) inside track.flow; an error no stop describes is thrown on. */
export async function runFlow<R>(
  side: TradeSide,
  flow: (track: TradeTracker) => Promise<R>,
): Promise<R | { kind: 'stopped'; stop: FlowStop }> {
  const track = new TradeTracker(side, 'key-1');
  try {
    return await track.flow(WORDS, () => flow(track));
  } catch (err) {
    return { kind: 'stopped', stop: stopOf(err, track) };
  }
}

function stopOf(err: unknown, track: TradeTracker): FlowStop {
  const base = { ref: track.ref, phase: track.phase, error: err, proven: track.proven };
  if (err instanceof RefusedToSignError)
    return { kind: 'refused', ...base, problems: err.problems, hints: err.hints, trust: err.trust };
  if (err instanceof DeclinedError) return { kind: 'declined', ...base, detail: err.detail };
  if (err instanceof InterruptedError) return { kind: 'interrupted', ...base, signal: err.signal };
  if (err instanceof ApiError) return { kind: 'service-error', ...base };
  if (err instanceof UsageError) return { kind: 'local', ...base };
  if (err instanceof TradeFailedError) return { kind: 'ended', ...base };
  throw err;
}
