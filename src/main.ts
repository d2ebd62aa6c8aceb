// The entry point: runs the program and is the one place that turns errors into exit codes
// and prints them (one line for people, a JSON line on stderr with --json).
import { CommanderError } from 'commander';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { systemClock } from './clock.js';
import type { GlobalFlags } from './config/settings.js';
import { ApiError, DeclinedError, ExitCode, InterruptedError, TraderError, UsageError } from './errors.js';
import { safeForTerminal } from './io/terminal-text.js';
import { buildProgram } from './program.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Runs `trader` with these arguments; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const abort = new AbortController();
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => () => {
    if (abort.signal.aborted) process.exit(signal === 'SIGINT' ? ExitCode.sigint : ExitCode.sigterm); // second Ctrl-C: leave now
    abort.abort(new InterruptedError(signal));
  };
  process.on('SIGINT', onSignal('SIGINT'));
  process.on('SIGTERM', onSignal('SIGTERM'));

  // Until commander has parsed, guess the output mode from argv so even usage errors honour --json.
  let flags: GlobalFlags = { json: argv.includes('--json'), verbose: argv.includes('--verbose') || argv.includes('-v') };
  const program = buildProgram({
    facts: {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      env: process.env,
      home: homedir(),
      clock: systemClock,
      signal: abort.signal,
      version,
      fetch: globalThis.fetch,
    },
    onFlags: (parsed) => {
      flags = parsed;
    },
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (err) {
    return report(err, flags, process.env);
  }
}

function report(err: unknown, flags: GlobalFlags, env: Record<string, string | undefined>): number {
  const json = Boolean(flags.json);
  const verbose = Boolean(flags.verbose) || env.TRADER_DEBUG === '1';
  if (err instanceof CommanderError) {
    if (err.exitCode === 0) return ExitCode.ok; // --help, --version
    const message = err.message.replace(/^error:\s*/, '');
    return printError(new UsageError(message, 'USAGE'), json, verbose);
  }
  return printError(err, json, verbose);
}

function printError(err: unknown, json: boolean, verbose: boolean): number {
  const known = err instanceof TraderError ? err : null;
  const exitCode = known ? known.exitCode : ExitCode.internal;
  const message = known ? known.message : `internal error: ${(err as Error)?.message ?? String(err)}`;
  const status = err instanceof ApiError ? err.status : null;
  const requestId = err instanceof ApiError ? err.requestId : null;

  if (json) {
    // The error line has no field for hints (how to follow the trade, what to fix): they go in the message.
    const hints = (known?.hints ?? []).filter((h) => !message.includes(h));
    const full = hints.length ? `${message}; ${hints.join('; ')}` : message;
    process.stderr.write(JSON.stringify({ error: { code: known?.code ?? 'INTERNAL', message: full, status, requestId } }) + '\n');
  } else if (err instanceof DeclinedError) {
    process.stderr.write(`${message}\n`); // the user's choice, not an error
  } else {
    const lines = [`error: ${message}`];
    const second = [...(known?.hints ?? []), ...(requestId ? [`request id: ${requestId}`] : [])].join('  ');
    if (second) lines.push(second);
    process.stderr.write(safeForTerminal(lines.join('\n')) + '\n');
  }
  if (verbose && !known && err instanceof Error && err.stack) process.stderr.write(err.stack + '\n');
  return exitCode;
}

// Exit at once: idle keep-alive sockets must not hold the process open after the work is
// done (stdout and stderr are synchronous for files and pipes on Linux, so nothing is lost).
process.exit(await main(process.argv.slice(2)));
