// Runs `trader` inside the test process (src/run.ts with fake streams): the same parsing, checks
// and error lines as the binary, in milliseconds instead of a process start. For tables of
// argv cases; end-to-end behaviour is still checked through the built binary (cli.ts).
import { PassThrough } from 'node:stream';
import { systemClock } from '../../src/clock.js';
import { runTrader } from '../../src/run.js';
import type { CliResult } from './cli.js';

/** `trader ...args` in-process with exactly `env` (plus NO_COLOR); never throws on a failure. */
export async function runInProcess(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const fullEnv = { NO_COLOR: '1', ...env };
  const code = await runTrader(args, {
    stdout,
    stderr,
    stdin,
    env: fullEnv,
    home: fullEnv.HOME ?? '/nonexistent',
    clock: systemClock,
    signal: new AbortController().signal,
    version: '0.0.0-test',
    fetch: globalThis.fetch,
  });
  await new Promise((resolve) => setImmediate(resolve)); // let the streams deliver what was written
  return { code, signal: null, stdout: out, stderr: err };
}
