// The one retry policy: what is retried, how long to wait, when to give up.

import type { Clock } from '../domain/clock.js';
import type { Failure } from './http-errors.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Never sleep past this many ms since the first attempt started. */
  maxTotalMs: number;
  /** Cap on a server's Retry-After. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  maxTotalMs: 60_000,
  maxRetryAfterMs: 30_000,
};

/** Reads are retried; creates too (the same idempotencyKey is resent); deposit, authorize and cancel never. */
export type Repeatability = 'read' | 'idempotent-create' | 'once';

/** Whether a call of this kind may be sent again after a transient failure. */
export function mayRepeat(r: Repeatability): boolean {
  return r !== 'once';
}

const TRANSIENT_STATUSES = new Set([429, 502, 503, 504]);

/** Network errors, timeouts, cut-off bodies, 429, 502, 503, 504. */
export function isTransient(f: Failure): boolean {
  if (f.kind === 'network' || f.kind === 'timeout' || f.kind === 'truncated') return true;
  return f.kind === 'http' && f.status !== null && TRANSIENT_STATUSES.has(f.status);
}

/** Retry-After as ms: delta-seconds or an HTTP-date (relative to `nowMs`); null if absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  if (!/[a-z]/i.test(v)) return null;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** Full jitter: random × min(maxDelay, base × 2^retry), `retry` counting from 0. */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(Math.min(1, Math.max(0, random())) * ceiling);
}

export function resolvePolicy(p: Partial<RetryPolicy> | undefined): RetryPolicy {
  const merged = { ...DEFAULT_RETRY_POLICY };
  for (const [k, v] of Object.entries(p ?? {}) as [keyof RetryPolicy, number | undefined][]) {
    if (v !== undefined && Number.isFinite(v) && v >= 0) merged[k] = v;
  }
  merged.maxAttempts = Math.max(1, Math.floor(merged.maxAttempts));
  return merged;
}

export type AttemptResult<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export interface RetryRun<T> {
  repeatability: Repeatability;
  policy: RetryPolicy;
  clock: Clock;
  random: () => number;
  signal?: AbortSignal;
  /** The least time between two attempts (an endpoint that may not be read faster); default 0. */
  minDelayMs?: number;
  /** One attempt (1-based); throws only for a user abort. */
  attempt: (n: number) => Promise<AttemptResult<T>>;
}

export type RetryOutcome<T> =
  { ok: true; value: T } | { ok: false; failure: Failure; attempts: number; uncertain: boolean };

/** Runs attempts until success, a permanent failure, or the attempt/time budget is spent. */
export async function withRetry<T>(run: RetryRun<T>): Promise<RetryOutcome<T>> {
  const { policy, clock } = run;
  const started = clock.now();
  let uncertain = false;
  for (let n = 1; ; n++) {
    const result = await run.attempt(n);
    if (result.ok) return result;
    const f = result.failure;
    uncertain ||= f.uncertain;
    const giveUp = (): RetryOutcome<T> => ({ ok: false, failure: f, attempts: n, uncertain });
    if (!mayRepeat(run.repeatability) || !isTransient(f) || n >= policy.maxAttempts) return giveUp();
    const delay = Math.max(
      run.minDelayMs ?? 0,
      f.retryAfterMs !== null
        ? Math.min(f.retryAfterMs, policy.maxRetryAfterMs)
        : backoffDelay(policy, n - 1, run.random),
    );
    if (clock.now() - started + delay > policy.maxTotalMs) return giveUp();
    await clock.sleep(delay, run.signal);
  }
}
