// The sandbox clock: real time plus an offset that the control surface moves either way,
// so tests reach expiries without sleeping. The offset lives in the state so it persists.

/** Sandbox time in ms since the epoch for a given offset. */
export function sandboxNow(offsetMs: number): number {
  return Date.now() + offsetMs;
}

/** ISO 8601 string of a sandbox timestamp. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
