// The polling loop every wait uses: read, stop when done, sleep, never past a known deadline,
// survive a run of transient service errors.
import type { Clock } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';

export interface PollOptions<T> {
  clock: Clock;
  signal: AbortSignal;
  /** Pause between reads in milliseconds. */
  intervalMs: number;
  /** Clock time after which polling gives up; null waits without limit. */
  deadlineMs: number | null;
  read(): Promise<T>;
  isDone(value: T): boolean;
  /** Called with every value read (progress display). */
  onValue?(value: T): void;
  /** Consecutive transient failures tolerated before giving up (the client already retried each). */
  maxTransientFailures?: number;
  /**
   * Reads never closer together than this (a rate-limited endpoint): when the deadline would cut
   * the pause shorter, polling stops without reading rather than reading early.
   */
  minGapMs?: number;
}

/** A Retry-After longer than this is not waited for in one go (the deadline still applies). */
const MAX_RETRY_AFTER_MS = 60_000;

export type PollResult<T> = { done: true; value: T } | { done: false; value: T | undefined };

/**
 * Failures worth another read later: no response, timeouts, 429 and any 5xx. Wider than the
 * client's retry rule (api/retry.ts) on purpose: the client has already retried and given up,
 * and a poll read is harmless to repeat a few seconds on.
 */
function mayPassByNextRead(err: unknown): boolean {
  return (
    err instanceof ApiError &&
    (err.status === null || err.status === 429 || err.status >= 500) &&
    err.code !== 'UNEXPECTED_RESPONSE' &&
    err.code !== 'SERVICE_CONTRADICTION'
  );
}

/** Polls until `isDone` or the deadline; transient errors are tolerated, others thrown. */
export async function pollUntil<T>(opts: PollOptions<T>): Promise<PollResult<T>> {
  const maxFailures = opts.maxTransientFailures ?? 5;
  let failures = 0;
  let last: T | undefined;
  for (;;) {
    // A service that said Retry-After on its last answer is not read again sooner.
    let interval = opts.intervalMs;
    try {
      const read = await withinDeadline(opts);
      if (read.late) return { done: false, value: last };
      last = read.value;
      failures = 0;
      opts.onValue?.(last);
      if (opts.isDone(last)) return { done: true, value: last };
    } catch (err) {
      if (opts.signal.aborted) throw opts.signal.reason;
      if (!mayPassByNextRead(err) || ++failures > maxFailures) throw err;
      interval = Math.max(interval, Math.min((err as ApiError).retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
    }
    const now = opts.clock.now();
    if (opts.deadlineMs !== null && now >= opts.deadlineMs) return { done: false, value: last };
    const pause = opts.deadlineMs === null ? interval : Math.min(interval, opts.deadlineMs - now);
    if (pause < (opts.minGapMs ?? 0)) return { done: false, value: last };
    await opts.clock.sleep(pause, opts.signal);
  }
}

/**
 * One read, bounded by the deadline: the client's own retries (with their backoff and
 * Retry-After) know nothing of --timeout, so a read still going one poll interval past the
 * deadline is left behind. (The interval of grace lets the read made at the deadline finish.)
 */
async function withinDeadline<T>(opts: PollOptions<T>): Promise<{ late: false; value: T } | { late: true }> {
  if (opts.deadlineMs === null) return { late: false, value: await opts.read() };
  const stop = new AbortController();
  const onAbort = () => stop.abort(opts.signal.reason);
  opts.signal.addEventListener('abort', onAbort, { once: true });
  const reading = opts.read();
  reading.catch(() => {}); // a read left behind must not become an unhandled rejection
  try {
    const timeLeft = Math.max(opts.intervalMs, opts.deadlineMs - opts.clock.now());
    const deadline = opts.clock.sleep(timeLeft, stop.signal).then(() => ({ late: true }) as const);
    deadline.catch(() => {});
    return await Promise.race([reading.then((value) => ({ late: false, value }) as const), deadline]);
  } finally {
    stop.abort();
    opts.signal.removeEventListener('abort', onAbort);
  }
}
