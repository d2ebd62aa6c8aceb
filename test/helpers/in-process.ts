// Runs `trader` inside the test process (src/run.ts with fake streams): the same parsing, checks
// and error lines as the binary, in milliseconds instead of a process start. For tables of
// argv cases; end-to-end behaviour is still checked through the built binary (cli.ts).
import { systemClock, type Clock } from '../../src/domain/clock.js';
import { runCaptured } from '../../src/run.js';
import type { CliResult } from './cli.js';

/** What a run may be given instead of the real thing: a clock (sandbox-clock.ts) and the HTTP engine that goes with it. */
export interface InProcessOptions {
  clock?: Clock;
  fetch?: typeof globalThis.fetch;
}

/** `trader ...args` in-process with exactly `env` (plus NO_COLOR); never throws on a failure. */
export async function runInProcess(
  args: string[],
  env: Record<string, string | undefined> = {},
  opts: InProcessOptions = {},
): Promise<CliResult> {
  const fullEnv = { NO_COLOR: '1', ...env };
  const { code, stdout, stderr } = await runCaptured(args, {
    env: fullEnv,
    home: fullEnv.HOME ?? '/nonexistent',
    clock: opts.clock ?? systemClock,
    signal: new AbortController().signal,
    version: '0.0.0-test',
    fetch: opts.fetch ?? globalThis.fetch,
  });
  return { code, signal: null, stdout, stderr };
}
