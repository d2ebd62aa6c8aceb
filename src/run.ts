// One run of `trader` on given argv and process facts: parse, run the command, and turn any
// error into its exit code and its one printed line (a JSON line on stderr with --json). It
// touches nothing of the process itself, so tests can run it in-process (runCaptured); main.ts
// wires it to the real process (streams, environment, signals, exit). The MCP server runs its
// tools through runCaptured too, handed to it in the context: nothing below imports this file.
import { PassThrough } from 'node:stream';
import { CommanderError } from 'commander';
import type { CapturedRun, ProcessFacts } from './cli/context.js';
import {
  answerOf,
  DeclinedError,
  errorTail,
  ExitCode,
  errorReport,
  exitCodeOf,
  RefusedToSignError,
  tradeTagOf,
  TraderError,
  UsageError,
  type NeededTrust,
} from './domain/errors.js';
import { configPath } from './config/config-file.js';
import { DEFAULT_PROFILE } from './domain/defaults.js';
import { forPerson, personPrefix, type PersonPrefix } from './domain/person-prefix.js';
import { toJson } from './io/json-output.js';
import { withCommand } from './io/command-line.js';
import { safeForTerminal } from './io/terminal-text.js';
import { wrapWords } from './io/word-wrap.js';
import { errorLine, errorMessage } from './io/error-line.js';
import { buildProgram } from './program.js';

/** How errors are printed: as JSON lines or not, with a stack trace or not. */
interface OutputMode {
  json: boolean;
  verbose: boolean;
  /** --profile as typed, once parsed. */
  profile?: string;
}

/** Runs `trader` with these arguments; resolves to the exit code. */
export async function runTrader(argv: string[], facts: ProcessFacts): Promise<number> {
  // Until commander has parsed, guess the output mode from argv so even usage errors honour --json.
  let flags: OutputMode = { json: argv.includes('--json'), verbose: argv.includes('--verbose') || argv.includes('-v') };
  const program = buildProgram({
    facts,
    runCaptured,
    onFlags: (parsed) => {
      flags = parsed;
    },
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (err) {
    return report(err, flags, facts);
  }
}

/** Runs `trader <argv>` with these facts, stdin empty, and returns what it wrote. */
export async function runCaptured(
  argv: string[],
  facts: Omit<ProcessFacts, 'stdout' | 'stderr' | 'stdin'>,
): Promise<CapturedRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const code = await runTrader(argv, { ...facts, stdout, stderr, stdin });
  await new Promise((resolve) => setImmediate(resolve)); // let the streams deliver what was written
  return { code, stdout: out, stderr: err };
}

function report(err: unknown, flags: OutputMode, facts: ProcessFacts): number {
  const json = flags.json;
  const verbose = flags.verbose || facts.env.TRADER_DEBUG === '1';
  // Commands in the error are for a person at their own terminal: with the profile (and config file) this run used.
  const profile = flags.profile || facts.env.TRADER_PROFILE || DEFAULT_PROFILE;
  const prefix = personPrefix({
    profile,
    env: facts.env,
    agent: facts.agent === true,
    configPath: configPath(facts.env, facts.home),
  });
  if (err instanceof TraderError) personalize(err, prefix);
  if (err instanceof CommanderError) {
    if (err.exitCode === 0) return ExitCode.ok; // --help, --version
    const message = errorMessage(err.message);
    return printError(new UsageError(message, 'USAGE'), json, verbose, facts);
  }
  return printError(err, json, verbose, facts);
}

/** Gives the error's commands (message, hints, the trust command) what a person needs to run them as this run ran. */
function personalize(err: TraderError, prefix: PersonPrefix): void {
  err.message = forPerson(err.message, prefix);
  err.hints.splice(0, err.hints.length, ...err.hints.map((h) => forPerson(h, prefix)));
  if (err.command) (err as { command: string | null }).command = forPerson(err.command, prefix);
  if (err instanceof RefusedToSignError && err.trust?.command)
    (err as { trust: NeededTrust }).trust = { ...err.trust, command: forPerson(err.trust.command, prefix) };
}

function printError(err: unknown, json: boolean, verbose: boolean, { stdout, stderr }: ProcessFacts): number {
  const known = err instanceof TraderError ? err : null;
  const exitCode = exitCodeOf(err);
  // A buy or sell stopped by a refusal or a decline still answers --json on stdout (its last intent or authorization, its key).
  const stopped = tradeTagOf(err)?.result;
  if (json && stopped !== undefined) stdout.write(toJson(stopped) + '\n');
  // On a terminal, words are wrapped at spaces and a long command laid out as shell lines;
  // piped (scripts, tests), each line stays one line.
  const tty = stderr as { isTTY?: boolean; columns?: number };
  const onTerminal = Boolean(tty.isTTY) && tty.columns !== undefined;
  const columns = Math.max(40, tty.columns ?? 80);
  const wrapped = (line: string) => (onTerminal ? wrapWords(line, columns) : line);
  if (json) {
    stderr.write(JSON.stringify({ error: errorReport(err) }) + '\n');
  } else if (err instanceof DeclinedError) {
    stderr.write(`${wrapped(safeForTerminal(err.message))}\n`); // the user's choice, not an error; still service text in it
  } else {
    const { message, hint } = errorTail(err);
    const { requestId } = answerOf(err);
    // A command to copy that would wrap with the words before it stands alone on the next line.
    const command = known?.command ?? null;
    const endsWithCommand = (line: string) => command !== null && line.endsWith(command);
    const fitted = (line: string) =>
      endsWithCommand(line)
        ? withCommand(line.slice(0, -command!.length).trimEnd(), command!, columns, onTerminal)
        : wrapped(line);
    const lines = [fitted(errorLine(message))];
    // The second line: the hint, with the request id (before it when the hint ends with a command to copy).
    const second = !requestId
      ? hint
      : !hint
        ? `request id: ${requestId}`
        : endsWithCommand(hint)
          ? `request id ${requestId}; ${hint}`
          : `${hint} (request id: ${requestId})`;
    if (second) lines.push(fitted(second));
    stderr.write(safeForTerminal(lines.join('\n')) + '\n');
  }
  if (verbose && !known && err instanceof Error && err.stack) stderr.write(err.stack + '\n');
  return exitCode;
}
