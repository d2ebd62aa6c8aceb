// A trade's next time-based step: when it is due and what it does. The scheduler runs it with
// the time it was due, not the time someone looked (see scheduler.ts).
export interface TimeStep {
  at: number;
  run: (at: number) => void;
}

/** The step due `seconds` (one of the configured delays) after `since`, a record's last change. */
export function stepAfter(since: number, seconds: number, run: (at: number) => void): TimeStep {
  return { at: since + seconds * 1000, run };
}
