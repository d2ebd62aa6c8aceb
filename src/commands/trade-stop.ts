// Says how a buy or sell stopped, once, from the flow's TradeStop value: the --json result of a
// refusal or a decline, then the one error main.ts turns into the exit code. Buy and sell share
// this; each gives only its own words (what becomes of an unsigned trade, how to resume it).
import type { Context } from './context.js';
import type { TradeStop } from '../domain/trade-stop.js';
import { InterruptedError, RefusedToSignError, type TraderError } from '../domain/errors.js';
import { followCommand } from './follow-command.js';
import { declined } from '../trade/trade-tracker.js';
import { GOES_ON, MAY_STILL_GO_ON, NOTHING_SIGNED, NOTHING_SUBMITTED } from '../domain/outcome-words.js';

export interface StopWords {
  /** What happens to a trade left unsigned ("the buy intent expires unused"). */
  unsigned: string;
  /** The command that picks the trade up again before anything was submitted, if any. */
  resume: string | null;
  /** The --json result for a refusal or a decline, from the last intent or authorization seen. */
  jsonResult(last: unknown, idempotencyKey: string): unknown;
}

/** Prints what a stop calls for and returns the error to throw. */
export function presentStop(ctx: Context, stop: TradeStop, words: StopWords): TraderError {
  const { ref } = stop;
  if ((stop.kind === 'refused' || stop.kind === 'declined') && ctx.output.json && ref.last !== null) {
    ctx.output.result(words.jsonResult(ref.last, ref.idempotencyKey), () => '');
  }
  const follow = ref.id ? followCommand(ref.id) : null;
  switch (stop.kind) {
    case 'refused':
      return new RefusedToSignError(stop.problems, stop.hints, stop.trust);
    case 'declined':
      return declined(stop.detail);
    case 'local':
    case 'ended':
      return stop.error;
    case 'interrupted': {
      // Ctrl-C stops waiting, not a trade already under way.
      // The command to copy comes last, so that it can stand on a line of its own.
      const again = words.resume ? `; to pick it up again: ${words.resume}` : '';
      const goesOn = stop.phase === 'submitted' && follow !== null;
      const note = goesOn
        ? `${GOES_ON}; follow it with: ${follow}`
        : `${stop.phase === 'prompting' ? NOTHING_SIGNED : NOTHING_SUBMITTED}; ${words.unsigned}${again}`;
      return new InterruptedError(stop.signal, [], note).endingWith(goesOn ? follow : words.resume);
    }
    case 'service-error': {
      // A service failure after submitting does not undo the trade: say how to follow it.
      const followNote = stop.phase === 'submitted' && follow ? `${MAY_STILL_GO_ON}: check it with ${follow}` : null;
      const notes = [stop.proven, followNote].filter((n): n is string => n !== null);
      return notes.length ? stop.error.withNote(notes.join('; ')).endingWith(followNote ? follow : null) : stop.error;
    }
  }
}
