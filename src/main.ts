// The entry point: the real process's streams, environment, clock and signals for one run
// (run.ts), and the one place that exits.
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { systemClock } from './domain/clock.js';
import { ExitCode, InterruptedError } from './domain/errors.js';
import { runTrader } from './run.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Runs `trader` with these arguments in this process; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const abort = new AbortController();
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => () => {
    if (abort.signal.aborted) process.exit(signal === 'SIGINT' ? ExitCode.sigint : ExitCode.sigterm); // second Ctrl-C: leave now
    abort.abort(new InterruptedError(signal));
  };
  process.on('SIGINT', onSignal('SIGINT'));
  process.on('SIGTERM', onSignal('SIGTERM'));

  return runTrader(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    home: homedir(),
    clock: systemClock,
    signal: abort.signal,
    version,
    fetch: globalThis.fetch,
  });
}

// Exit at once: idle keep-alive sockets must not hold the process open after the work is
// done (stdout and stderr are synchronous for files and pipes on Linux, so nothing is lost).
process.exit(await main(process.argv.slice(2)));
