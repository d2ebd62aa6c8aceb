// The one path of a stopped buy or sell. The command runs the trade in tradeRun and its flow in
// track.flow; the flow keeps the tracker's phase and reference (id, key, the last intent or
// authorization seen). Whatever stops the trade is caught once, here: the error gets what became of the trade (by its phase) and the
// trade's reference, and is thrown on to the entry (run.ts), which prints it once and, for a
// refusal or a decline, writes the --json result it carries. Nothing rewrites it after.
import {
  ApiError,
  DeclinedError,
  InterruptedError,
  RefusedToSignError,
  tagTrade,
  type TradeTag,
} from '../domain/errors.js';
import { followCommand } from '../domain/follow-command.js';
import { DECLINED, GOES_ON, MAY_STILL_GO_ON, NOTHING_SIGNED, NOTHING_SUBMITTED } from '../domain/outcome-words.js';

export type TradeSide = 'buy' | 'sell';

/**
 * Where a trade stood: the command's checks before its flow; nothing created yet; created and
 * under the checks; a question on screen; approved but not yet handed over; handed over (or
 * possibly handed over) to the service; the flow returned its result.
 */
export type TradePhase = 'preflight' | 'creating' | 'checking' | 'prompting' | 'approved' | 'submitted' | 'finished';

export interface TradeRef {
  side: TradeSide;
  /** The buy or sell id, once created. */
  id: string | null;
  idempotencyKey: string;
  /** The last intent or authorization seen: what --json prints for a refusal or a decline. */
  last: unknown;
}

/** What a side says of its stop: the only words buy and sell do not share. */
export interface StopWords {
  /** What happens to a trade left unsigned ("the buy intent expires unused"). */
  unsigned: string;
  /** The command that picks the trade up again before anything was submitted, if any. */
  resume(): string | null;
  /** The --json result for a refusal or a decline, from the last intent or authorization seen. */
  result(last: unknown, idempotencyKey: string): unknown;
}

/** The person said no: the error a flow throws, with what else they should know (`detail`). */
export function declined(detail?: string | null): DeclinedError {
  return new DeclinedError(detail ? `${DECLINED}; ${detail}.` : `${DECLINED}.`, detail ?? null);
}

/**
 * Runs a buy or sell: the command's checks, its flow (in track.flow) and its end. An error
 * thrown while the flow runs is said with what became of the trade; every error carries the
 * trade's key (and id, once known), with which a retry resumes this same trade.
 */
export async function tradeRun<T>(
  side: TradeSide,
  idempotencyKey: string,
  body: (track: TradeTracker) => Promise<T>,
): Promise<T> {
  const track = new TradeTracker(side, idempotencyKey);
  try {
    return await body(track);
  } catch (err) {
    throw track.stopped(err);
  }
}

export class TradeTracker {
  readonly ref: TradeRef;
  phase: TradePhase = 'preflight';
  /** What the service's state was read to prove after its failure (null when nothing was read). */
  proven: string | null = null;
  /** The side's words, given with the flow. */
  private words: StopWords | null = null;

  constructor(side: TradeSide, idempotencyKey: string) {
    this.ref = { side, id: null, idempotencyKey, last: null };
  }

  /** Runs the flow: from here until it returns, a stop is said with what became of the trade, in these words. */
  async flow<R>(words: StopWords, run: () => Promise<R>): Promise<R> {
    this.words = words;
    this.phase = 'creating';
    const result = await run();
    this.phase = 'finished';
    return result;
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

  /** A service failure, to throw, with what the service's state was read to prove. */
  serviceError(error: ApiError, proven: string | null): ApiError {
    this.proven = proven;
    return error;
  }

  /** The error that stopped the trade, as the entry prints it: what became of the trade, and the trade's mark. */
  stopped(err: unknown): unknown {
    const { ref, phase, words } = this;
    const tag: TradeTag = { idempotencyKey: ref.idempotencyKey, id: ref.id };
    if (words === null || phase === 'preflight' || phase === 'finished') return tagTrade(err, tag);
    const follow = ref.id ? followCommand(ref.id) : null;
    if ((err instanceof RefusedToSignError || err instanceof DeclinedError) && ref.last !== null) {
      return tagTrade(err, { ...tag, result: words.result(ref.last, ref.idempotencyKey) });
    }
    if (err instanceof InterruptedError) {
      // Ctrl-C stops waiting, not a trade already under way.
      // The command to copy comes last, so that it can stand on a line of its own.
      const resume = words.resume();
      const again = resume ? `; to pick it up again: ${resume}` : '';
      const goesOn = phase === 'submitted' && follow !== null;
      const note = goesOn
        ? `${GOES_ON}; follow it with: ${follow}`
        : `${phase === 'prompting' ? NOTHING_SIGNED : NOTHING_SUBMITTED}; ${words.unsigned}${again}`;
      return tagTrade(new InterruptedError(err.signal, [], note).endingWith(goesOn ? follow : resume), tag);
    }
    if (err instanceof ApiError) {
      // A service failure after submitting does not undo the trade: say how to follow it.
      const followNote = phase === 'submitted' && follow ? `${MAY_STILL_GO_ON}: check it with ${follow}` : null;
      const notes = [this.proven, followNote].filter((n): n is string => n !== null);
      return tagTrade(notes.length ? err.withNote(notes.join('; ')).endingWith(followNote ? follow : null) : err, tag);
    }
    return tagTrade(err, tag);
  }
}
