// `trader` as bin/trader.js runs it (the built dist/, the real process's streams and signals),
// except for its clock: now() is real time plus the milliseconds written in the file named by
// TRADER_TEST_CLOCK_SHIFT (read at every call), so a test can let minutes pass on the tool's
// clock while it waits at a prompt, without waiting them. Pauses stay real. Started by pty.ts
// for prompt tests whose subject is what the passing of time does to the question asked.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { systemClock } from '../../dist/domain/clock.js';
import { ExitCode, InterruptedError } from '../../dist/domain/errors.js';
import { runTrader } from '../../dist/run.js';

const shiftFile = process.env.TRADER_TEST_CLOCK_SHIFT;
if (!shiftFile) throw new Error('TRADER_TEST_CLOCK_SHIFT must name the file holding the shift in ms');
const shift = () => Number(readFileSync(shiftFile, 'utf8').trim() || '0');

const abort = new AbortController();
const onSignal = (signal) => () => {
  if (abort.signal.aborted) process.exit(signal === 'SIGINT' ? ExitCode.sigint : ExitCode.sigterm);
  abort.abort(new InterruptedError(signal));
};
process.on('SIGINT', onSignal('SIGINT'));
process.on('SIGTERM', onSignal('SIGTERM'));

const code = await runTrader(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  home: homedir(),
  clock: { now: () => systemClock.now() + shift(), sleep: systemClock.sleep },
  signal: abort.signal,
  version: '0.0.0-test',
  fetch: globalThis.fetch,
});
process.exit(code);
