// Where a buy or sell stands, kept by its flow, and the one place that turns whatever stops it
// into a TradeStop value: the flows share this rather than each keeping flags.
import type { TradePhase, TradeRef, TradeSide, TradeStop } from '../domain/trade-stop.js';
import { ApiError, DeclinedError, InterruptedError, RefusedToSignError, TradeFailedError, UsageError } from '../domain/errors.js';
import { DECLINED } from '../domain/outcome-words.js';

/** The person said no: the error a flow throws, with what else they should know (`detail`). */
export function declined(detail?: string | null): DeclinedError {
  return new DeclinedError(detail ? `${DECLINED}; ${detail}.` : `${DECLINED}.`, detail ?? null);
}

/** Thrown inside a flow to stop with a value it has made itself (a service error with what its state proves). */
class Stopped extends Error {
  constructor(readonly stop: TradeStop) {
    super(stop.kind);
  }
}

/**
 * Runs a buy or sell body with its tracker: every way it stops becomes a value, so a flow
 * returns either its result or `{ kind: 'stopped' }` and never throws what a stop describes.
 */
export async function tracked<T>(side: TradeSide, idempotencyKey: string, body: (track: TradeTracker) => Promise<T>): Promise<T | { kind: 'stopped'; stop: TradeStop }> {
  const track = new TradeTracker(side, idempotencyKey);
  try {
    return await body(track);
  } catch (err) {
    return { kind: 'stopped', stop: track.stop(err) };
  }
}

export class TradeTracker {
  readonly ref: TradeRef;
  phase: TradePhase = 'creating';

  constructor(side: TradeSide, idempotencyKey: string) {
    this.ref = { side, id: null, idempotencyKey, last: null };
  }

  /** The trade exists (new, or resumed past its signature when `pastSigning`). */
  created(id: string, last: unknown, pastSigning: boolean): void {
    this.ref.id = id;
    this.ref.last = last;
    this.phase = pastSigning ? 'submitted' : 'checking';
  }

  /** The latest state of the intent or authorization, for --json. */
  seen(last: unknown): void {
    this.ref.last = last;
  }

  /** Runs a question: Ctrl-C during it means nothing was signed. */
  async asking<T>(question: () => Promise<T>): Promise<T> {
    const before = this.phase;
    this.phase = 'prompting';
    const answer = await question();
    this.phase = before;
    return answer;
  }

  /** A service failure with what the service's state was read to prove. */
  serviceError(error: ApiError, proven: string | null): Stopped {
    return new Stopped({ kind: 'service-error', ref: this.ref, error, phase: this.phase, proven });
  }

  /** What stopped the trade, as a value; an error no stop describes (a bug) is thrown on. */
  stop(err: unknown): TradeStop {
    if (err instanceof Stopped) return err.stop;
    if (err instanceof RefusedToSignError) return { kind: 'refused', ref: this.ref, problems: err.problems, hints: err.hints, trust: err.trust };
    if (err instanceof DeclinedError) return { kind: 'declined', ref: this.ref, detail: err.detail };
    if (err instanceof InterruptedError) return { kind: 'interrupted', ref: this.ref, signal: err.signal, phase: this.phase };
    if (err instanceof ApiError) return { kind: 'service-error', ref: this.ref, error: err, phase: this.phase, proven: null };
    if (err instanceof UsageError) return { kind: 'local', ref: this.ref, error: err };
    if (err instanceof TradeFailedError) return { kind: 'ended', ref: this.ref, error: err };
    throw err;
  }
}
