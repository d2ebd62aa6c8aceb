// A buy's or sell's steps driven in a unit test by the one driver (src/trade/driver.ts), as a
// command drives them, with the test's fakes for the person and the screen and an in-memory journal.
import type { NotShown } from '../../src/domain/screen-fit.js';
import type { TradeRecorder } from '../../src/journal/recorder.js';
import { driveTrade } from '../../src/trade/driver.js';
import type { AskNeed, NoteNeed, PinNeed, ShowNeed, TradeSteps } from '../../src/trade/trade-needs.js';
import type { StopWords, TradeTracker } from '../../src/trade/trade-tracker.js';
import type { Signer } from '../../src/wallet/owner-wallet.js';

const WORDS: StopWords = { unsigned: 'unused', resume: () => null, result: (last) => last };

/** The test's person and screen. */
export interface TestSeat<Review> {
  ask(need: AskNeed<Review>): Promise<boolean | NotShown>;
  show(need: ShowNeed): void;
  note(need: NoteNeed): void;
  pin(need: PinNeed): string;
  newKey(): string;
}

/** Drives `steps` to their end with `seat`, signing with `signer` through the gate and recording in `journal`. */
export function driveSteps<R extends { kind: string }, Review>(
  steps: TradeSteps<R, Review>,
  run: { signer: Signer; journal: TradeRecorder; track: TradeTracker },
  seat: TestSeat<Review>,
): Promise<R> {
  const journal = { ...run.journal, trade: null, outcome: <T>(r: T) => r, stopped: (err: unknown) => err };
  return driveTrade(steps, {
    ...seat,
    signer: run.signer,
    journal,
    track: run.track,
    words: WORDS,
    progress: (flow) => flow(),
  });
}
