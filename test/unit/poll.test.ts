import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { ApiError } from '../../src/errors.js';
import { pollUntil } from '../../src/trade/poll.js';

/**
 * A clock a thousand times faster than real time (a 2 s pause takes 2 ms), so pauses and reads
 * race as they would; it records every pause that ran to its end.
 */
function fakeClock(start = 1_000_000): Clock & { pauses: number[]; t: number } {
  const clock = {
    t: start,
    pauses: [] as number[],
    now: () => clock.t,
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        // As the real clock does, a pause that ends takes its abort listener with it: the test's
        // one signal outlives many pauses, and left listeners pile up on it.
        const onAbort = () => (clearTimeout(timer), reject(signal!.reason));
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          clock.pauses.push(ms);
          clock.t += ms;
          resolve();
        }, ms / 1000);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
  return clock;
}

const signal = new AbortController().signal;

describe('pollUntil', () => {
  it('reads until done, pausing the interval between reads', async () => {
    const clock = fakeClock();
    const values = ['a', 'b', 'done'];
    const result = await pollUntil({ clock, signal, intervalMs: 2000, deadlineMs: null, read: async () => values.shift()!, isDone: (v) => v === 'done' });
    expect(result).toEqual({ done: true, value: 'done' });
    expect(clock.pauses).toEqual([2000, 2000]);
  });

  it('never sleeps past the deadline', async () => {
    const clock = fakeClock();
    const result = await pollUntil({ clock, signal, intervalMs: 2000, deadlineMs: clock.t + 5000, read: async () => 'pending', isDone: () => false });
    expect(result).toEqual({ done: false, value: 'pending' });
    expect(clock.pauses).toEqual([2000, 2000, 1000]);
  });

  it('a read still retrying past the deadline is left behind: the wait ends within one interval of it', async () => {
    const clock = fakeClock();
    let reads = 0;
    const result = await pollUntil({
      clock,
      signal,
      intervalMs: 2000,
      deadlineMs: clock.t + 3000,
      read: () => (++reads === 1 ? Promise.resolve('pending') : new Promise<string>(() => {})),
      isDone: () => false,
    });
    expect(result).toEqual({ done: false, value: 'pending' });
    // read 1 at 0 s, pause to 2 s, read 2 hangs: given until max(deadline, now + interval) = 4 s.
    expect(clock.t).toBe(1_000_000 + 4000);
  });

  it('survives transient failures and gives up after too many', async () => {
    const clock = fakeClock();
    const flaky = new ApiError('HTTP 503', { status: 503 });
    let n = 0;
    const ok = await pollUntil({ clock, signal, intervalMs: 2000, deadlineMs: null, read: async () => (++n < 4 ? Promise.reject(flaky) : 'done'), isDone: (v) => v === 'done' });
    expect(ok.done).toBe(true);
    await expect(pollUntil({ clock, signal, intervalMs: 2000, deadlineMs: null, read: async () => Promise.reject(flaky), isDone: () => false })).rejects.toBe(flaky);
  });

  it('the read made at the deadline may finish (one interval of grace)', async () => {
    const clock = fakeClock();
    let reads = 0;
    const result = await pollUntil({
      clock,
      signal,
      intervalMs: 2000,
      deadlineMs: clock.t + 2000,
      // The read at the deadline takes 1 s (1 ms real): it finishes within the interval of grace.
      read: () => (++reads === 1 ? Promise.resolve('pending') : new Promise<string>((r) => setTimeout(() => r('done'), 1))),
      isDone: (v) => v === 'done',
    });
    expect(result).toEqual({ done: true, value: 'done' });
  });

  it('a 4xx is not transient: thrown at once', async () => {
    const clock = fakeClock();
    const notFound = new ApiError('HTTP 404', { status: 404 });
    await expect(pollUntil({ clock, signal, intervalMs: 2000, deadlineMs: null, read: async () => Promise.reject(notFound), isDone: () => false })).rejects.toBe(notFound);
    expect(clock.pauses).toEqual([]);
  });
});
