// One clock for `trader` run in-process (in-process.ts) and the sandbox it talks to: the tool's
// now() is the sandbox's now, and a pause the tool takes (a poll interval, a Retry-After, a
// backoff, a deadline) moves the sandbox's clock by its length instead of waiting. A pause ends
// only once the tool waits on nothing else (no request in flight), in the order the pauses are
// due, as fake timers would: so a read raced against a deadline still answers first, and what a
// test sees depends on what the times say, never on how fast the machine is.
import type { Clock } from '../../src/domain/clock.js';
import type { TestSandbox } from './sandbox.js';

export interface SandboxClock extends Clock {
  /** Every pause the tool took to its end, in ms, in order. */
  sleeps: number[];
  /** The HTTP engine to give the run: it tells the clock when requests are in flight. */
  fetch: typeof globalThis.fetch;
}

interface Pause {
  due: number;
  ms: number;
  resolve(): void;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A clock on `sb`'s time for in-process runs (pass both `clock` and `fetch` to runInProcess). */
export function sandboxClock(sb: TestSandbox): SandboxClock {
  const sleeps: number[] = [];
  const pauses = new Set<Pause>();
  let inFlight = 0;
  let idle: (() => void) | null = null;
  let pumping = false;

  // Ends the earliest pause, moving the sandbox clock to it, whenever nothing else is under way.
  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      while (pauses.size > 0) {
        // Let what the last answer set going (more requests, more pauses) start first.
        await turn();
        await turn();
        if (inFlight > 0) {
          await new Promise<void>((resolve) => (idle = resolve));
          continue;
        }
        if (pauses.size === 0) break;
        const next = [...pauses].reduce((a, b) => (b.due < a.due ? b : a));
        const ahead = next.due - sb.now();
        if (ahead > 0) await sb.advance(ahead / 1000);
        if (!pauses.delete(next)) continue; // aborted meanwhile
        sleeps.push(next.ms);
        next.resolve();
      }
    } finally {
      pumping = false;
    }
  };

  const fetch = (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    inFlight++;
    try {
      const res = await globalThis.fetch(input, init);
      // Read in full here, so the request counts as in flight until its body is in.
      const body = await res.arrayBuffer();
      return new Response([101, 204, 205, 304].includes(res.status) ? null : body, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    } finally {
      if (--inFlight === 0) {
        const wake = idle;
        idle = null;
        wake?.();
      }
    }
  }) as typeof globalThis.fetch;

  return {
    sleeps,
    fetch,
    now: () => sb.now(),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          pauses.delete(pause);
          reject(signal!.reason);
        };
        const pause: Pause = {
          due: sb.now() + Math.max(0, ms),
          ms,
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        pauses.add(pause);
        signal?.addEventListener('abort', onAbort, { once: true });
        void pump();
      }),
  };
}
