// The entry point: the real process's streams, environment, clock and signals for one run
// (run.ts), and the one place that exits.
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { systemClock } from './domain/clock.js';
import { ExitCode, InterruptedError } from './domain/errors.js';
import { runTrader } from './run.js';
import { errorLine } from './io/error-line.js';

/** How long a signalled run has to stop by itself before it is ended. */
const SIGNAL_GRACE_MS = 2_000;

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Runs `trader` with these arguments in this process; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const abort = new AbortController();
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => () => {
    const code = signal === 'SIGINT' ? ExitCode.sigint : ExitCode.sigterm;
    if (abort.signal.aborted) process.exit(code); // second Ctrl-C: leave now
    abort.abort(new InterruptedError(signal));
    // A step that does not listen for the abort (standard input that never ends, …) must not
    // keep the run alive: what listens ends well within this, with its own message.
    setTimeout(() => {
      process.stderr.write(`${errorLine(`interrupted (${signal})`)}\n`);
      process.exit(code);
    }, SIGNAL_GRACE_MS).unref();
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
