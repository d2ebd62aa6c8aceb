// The spinner waits about 300 ms before it shows, so a quick read does not flash one; a wait
// that lasts shows it. Fake timers: nothing here waits on real time.
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import { createProgress, SPINNER_DELAY_MS } from '../../src/io/progress.js';
import type { Terminal } from '../../src/io/terminal.js';

function terminal(spinners: boolean): Terminal & { written: () => string } {
  const stderr = Object.assign(new PassThrough(), {
    isTTY: spinners,
    columns: 80,
    clearLine: () => true,
    cursorTo: () => true,
    moveCursor: () => true,
  });
  let text = '';
  stderr.on('data', (d: Buffer) => (text += d.toString('utf8')));
  return {
    stdout: new PassThrough(),
    stderr,
    stdin: new PassThrough(),
    stdoutIsTTY: spinners,
    stderrIsTTY: spinners,
    color: false,
    spinners,
    interactive: false,
    columns: 80,
    written: () => text,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('progress on a terminal', () => {
  it('shows nothing for a wait shorter than the delay', async () => {
    const t = terminal(true);
    const progress = await createProgress(t, false, systemClock);
    progress.update('Buy 1: confirming deposit');
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS - 50);
    progress.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(t.written()).toBe('');
  });

  it('shows the spinner with the latest text once the wait passes the delay, and stops clean', async () => {
    const t = terminal(true);
    const progress = await createProgress(t, false, systemClock);
    progress.update('Buy 1: confirming deposit');
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS - 1);
    expect(t.written()).toBe('');
    progress.update('Buy 1: funding');
    await vi.advanceTimersByTimeAsync(1);
    expect(t.written()).toContain('Buy 1: funding');
    expect(t.written()).not.toContain('confirming deposit');
    progress.stop();
    // A new wait after a stop waits again.
    const before = t.written().length;
    progress.update('Buy 1: executing');
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS - 1);
    expect(t.written().length).toBe(before);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.written().slice(before)).toContain('Buy 1: executing');
    progress.stop();
  });
});

describe('progress off a terminal', () => {
  it('prints each change at once, one line each, with no delay', async () => {
    const t = terminal(false);
    const progress = await createProgress(t, false, systemClock);
    progress.update('a: confirming deposit');
    progress.update('a: confirming deposit');
    progress.update('a: funding');
    expect(t.written()).toBe('a: confirming deposit\na: funding\n');
  });

  it('prints nothing in --json mode', async () => {
    const t = terminal(true);
    const progress = await createProgress(t, true, systemClock);
    progress.update('x');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(t.written()).toBe('');
  });
});
