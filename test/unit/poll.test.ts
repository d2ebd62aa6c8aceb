import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock, type Clock } from '../../src/domain/clock.js';
import { ApiError } from '../../src/domain/errors.js';
import { pollUntil } from '../../src/trade/poll.js';

const START = 1_000_000;

// Vitest's fake timers stand in for time: the real clock (Date.now, setTimeout) runs on them, so
// pauses, deadlines and slow reads happen in the order their times say, whatever the machine's speed.
beforeEach(() => {
  vi.useFakeTimers({ now: START });
});
afterEach(() => {
  vi.useRealTimers();
});

/** The real clock, recording every pause that ran to its end. */
function recordingClock(): Clock & { pauses: number[] } {
  const pauses: number[] = [];
  return {
    pauses,
    now: () => systemClock.now(),
    sleep: async (ms, signal) => {
      await systemClock.sleep(ms, signal);
      pauses.push(ms);
    },
  };
}

/** Runs the poll to its end, moving fake time along as far as its timers need. */
async function settle<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {}); // judged below, once time has run
  await vi.runAllTimersAsync();
  return p;
}

/** A read that answers `value` after `ms` of (fake) time. */
const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

const signal = new AbortController().signal;

describe('pollUntil', () => {
  it('reads until done, pausing the interval between reads', async () => {
    const clock = recordingClock();
    const values = ['a', 'b', 'done'];
    const result = await settle(
      pollUntil({
        clock,
        signal,
        intervalMs: 2000,
        deadlineMs: null,
        read: async () => values.shift()!,
        isDone: (v) => v === 'done',
      }),
    );
    expect(result).toEqual({ done: true, value: 'done' });
    expect(clock.pauses).toEqual([2000, 2000]);
    expect(Date.now()).toBe(START + 4000);
  });

  it('never sleeps past the deadline', async () => {
    const clock = recordingClock();
    const result = await settle(
      pollUntil({
        clock,
        signal,
        intervalMs: 2000,
        deadlineMs: START + 5000,
        read: async () => 'pending',
        isDone: () => false,
      }),
    );
    expect(result).toEqual({ done: false, value: 'pending' });
    expect(clock.pauses).toEqual([2000, 2000, 1000]);
    expect(Date.now()).toBe(START + 5000);
  });

  it('a read still retrying past the deadline is left behind: the wait ends within one interval of it', async () => {
    const clock = recordingClock();
    let reads = 0;
    const result = await settle(
      pollUntil({
        clock,
        signal,
        intervalMs: 2000,
        deadlineMs: START + 3000,
        read: () => (++reads === 1 ? Promise.resolve('pending') : new Promise<string>(() => {})),
        isDone: () => false,
      }),
    );
    expect(result).toEqual({ done: false, value: 'pending' });
    // read 1 at 0 s, pause to 2 s, read 2 hangs: given until max(deadline, now + interval) = 4 s.
    expect(reads).toBe(2);
    expect(Date.now()).toBe(START + 4000);
  });

  it('survives transient failures and gives up after too many', async () => {
    const clock = recordingClock();
    const flaky = new ApiError('HTTP 503', { status: 503 });
    let n = 0;
    const ok = await settle(
      pollUntil({
        clock,
        signal,
        intervalMs: 2000,
        deadlineMs: null,
        read: async () => (++n < 4 ? Promise.reject(flaky) : 'done'),
        isDone: (v) => v === 'done',
      }),
    );
    expect(ok.done).toBe(true);
    expect(clock.pauses).toEqual([2000, 2000, 2000]);
    await expect(
      settle(
        pollUntil({
          clock,
          signal,
          intervalMs: 2000,
          deadlineMs: null,
          read: async () => Promise.reject(flaky),
          isDone: () => false,
        }),
      ),
    ).rejects.toBe(flaky);
  });

  it('a Retry-After on a failed read is waited for instead of the interval, capped at a minute', async () => {
    const clock = recordingClock();
    const asks = [
      new ApiError('HTTP 503', { status: 503, retryAfterMs: 5000 }),
      new ApiError('HTTP 429', { status: 429, retryAfterMs: 3_600_000 }),
    ];
    const result = await settle(
      pollUntil({
        clock,
        signal,
        intervalMs: 2000,
        deadlineMs: null,
        read: async () => (asks.length ? Promise.reject(asks.shift()) : 'done'),
        isDone: (v) => v === 'done',
      }),
    );
    expect(result).toEqual({ done: true, value: 'done' });
    expect(clock.pauses).toEqual([5000, 60_000]);
  });

  it('the read made at the deadline may finish (one interval of grace), a slower one is left behind', async () => {
    for (const [readMs, done] of [
      [1999, true],
      [2001, false],
    ] as const) {
      const clock = recordingClock();
      const start = Date.now();
      let reads = 0;
      let endedAt = 0;
      const result = await settle(
        pollUntil({
          clock,
          signal,
          intervalMs: 2000,
          deadlineMs: start + 2000,
          // The read at the deadline takes readMs: it finishes within the interval of grace, or not.
          read: () => (++reads === 1 ? Promise.resolve('pending') : after(readMs, 'done')),
          isDone: (v) => v === 'done',
        }).finally(() => (endedAt = Date.now())),
      );
      expect(result).toEqual(done ? { done: true, value: 'done' } : { done: false, value: 'pending' });
      expect(endedAt - start).toBe(2000 + (done ? readMs : 2000));
    }
  });

  it('a 4xx is not transient: thrown at once', async () => {
    const clock = recordingClock();
    const notFound = new ApiError('HTTP 404', { status: 404 });
    await expect(
      settle(
        pollUntil({
          clock,
          signal,
          intervalMs: 2000,
          deadlineMs: null,
          read: async () => Promise.reject(notFound),
          isDone: () => false,
        }),
      ),
    ).rejects.toBe(notFound);
    expect(clock.pauses).toEqual([]);
  });

  it('an abort ends a pause at once with its reason', async () => {
    const clock = recordingClock();
    const stop = new AbortController();
    const p = pollUntil({
      clock,
      signal: stop.signal,
      intervalMs: 2000,
      deadlineMs: null,
      read: async () => 'pending',
      isDone: () => false,
    });
    p.catch(() => {});
    await vi.advanceTimersByTimeAsync(3000);
    stop.abort(new Error('interrupted'));
    await expect(p).rejects.toThrow('interrupted');
    expect(clock.pauses).toEqual([2000]);
    expect(vi.getTimerCount()).toBe(0); // the pause's timer went with it
  });
});
