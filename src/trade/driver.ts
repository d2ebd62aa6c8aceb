// The one driver of every trade: runs a buy's or a sell's steps (trade/trade-needs.ts) and
// serves each need: the tracker and the journal are told, the signing gate signs, the screen
// shows and the person is asked, through the seat the command (or `trader mcp`, whose context
// asks through elicitation) gives. A step that fails is thrown back into the flow at its yield.
import type { RunRecorder } from '../journal/recorder.js';
import type { Signer } from '../wallet/owner-wallet.js';
import { signedAlready, signThroughGate } from './signing-gate.js';
import type { AskNeed, NoteNeed, PinNeed, ShowNeed, TradeNeed, TradeSteps } from './trade-needs.js';
import type { StopWords, TradeTracker } from './trade-tracker.js';
import type { NotShown } from '../domain/screen-fit.js';

/** Where a trade runs: what signs, what records, what tracks its stop, and the person and screen it has. */
export interface TradeSeat<Review> {
  signer: Signer;
  journal: RunRecorder;
  track: TradeTracker;
  /** The side's words for a stop. */
  words: StopWords;
  /** Asks the person (or answers for them under --yes); `notShown`: it could not stand whole on the screen. */
  ask(need: AskNeed<Review>): Promise<boolean | NotShown>;
  /** Shows what the flow reports. */
  show(need: ShowNeed): void;
  /** The side's own moments (its command says or keeps them). */
  note(need: NoteNeed): void;
  /** Pins what a person's yes granted; returns what is pinned after. */
  pin(need: PinNeed): string;
  /** A fresh idempotency key (a fresh quote is a new trade). */
  newKey(): string;
  /** Runs the trade with its progress line. */
  progress<R>(run: () => Promise<R>): Promise<R>;
}

/** Runs `steps` to their result; the tracker gives a stop what became of the trade, the journal records how it ended. */
export function driveTrade<R extends { kind: string }, Review>(
  steps: TradeSteps<R, Review>,
  seat: TradeSeat<Review>,
): Promise<R> {
  const { track, journal } = seat;
  return seat.progress(() =>
    track.flow(seat.words, () =>
      serveAll(steps, seat).then(
        (result) => journal.outcome(result),
        (err: unknown) => Promise.reject(journal.stopped(err, track.ref.id)),
      ),
    ),
  );
}

async function serveAll<R, Review>(steps: TradeSteps<R, Review>, seat: TradeSeat<Review>): Promise<R> {
  let next = await steps.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = await serve(next.value, seat);
    } catch (err) {
      next = await steps.throw(err);
      continue;
    }
    next = await steps.next(answer);
  }
  return next.value;
}

/** One need served. */
async function serve<Review>(need: TradeNeed<Review>, seat: TradeSeat<Review>): Promise<unknown> {
  const { track, journal } = seat;
  switch (need.kind) {
    case 'created':
      track.created(need.trade.id, need.last, need.pastSigning);
      return journal.created(need.trade);
    case 'ask':
      // These very bytes signed already (another run's): not asked again, the gate gives the signature back.
      if (need.signing && signedAlready(journal, need.signing)) return true;
      return track.asking(() => seat.ask(need));
    case 'show':
      return seat.show(need);
    case 'note':
      return seat.note(need);
    case 'pin':
      return seat.pin(need);
    case 'record':
      return journal.answer(need.answer);
    case 'sign':
      track.phase = 'approved';
      return signThroughGate(seat.signer, journal, need.verdict, need.toSign);
    case 'track':
      if (need.phase) track.phase = need.phase;
      if (need.last !== undefined) track.seen(need.last);
      if (need.proven !== undefined) track.proven = need.proven;
      return;
    case 'new-key': {
      const idempotencyKey = seat.newKey();
      // A fresh quote is a new trade: its key is the one a retry resumes.
      Object.assign(track.ref, { idempotencyKey, id: null });
      return idempotencyKey;
    }
  }
}
