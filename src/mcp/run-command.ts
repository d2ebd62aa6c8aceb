// Runs one command in this process as `trader … --json` would (src/run.ts: the same parse,
// checks and flows), with its stdout and stderr captured: the tool's result is the one JSON
// document the CLI prints, its error the `{"error":…}` line.
import type { ProcessFacts } from '../cli/context.js';
import type { ProgramFacts } from '../cli/definition.js';
import type { ErrorReport } from '../domain/errors.js';

export interface CommandRun {
  exitCode: number;
  /** What --json printed on stdout, parsed (null when nothing, or not one document). */
  data: unknown;
  error: ErrorReport | null;
  /** The `{"warning":…}` lines. */
  warnings: string[];
  /** The `{"pagination":…}` line of a list with more pages. */
  pagination: { nextCursor: string | null; hasMore: boolean } | null;
}

/** Runs `trader <argv> --json` with these facts and captured streams (the entry's runCaptured, handed down in the context). */
export async function runCommand(
  runCaptured: ProgramFacts['runCaptured'],
  argv: string[],
  facts: Omit<ProcessFacts, 'stdout' | 'stderr' | 'stdin'>,
): Promise<CommandRun> {
  // --json before the `--` that ends the options.
  const { code: exitCode, stdout: out, stderr: err } = await runCaptured(['--json', ...argv], facts);
  const run: CommandRun = { exitCode, data: parseOrNull(out), error: null, warnings: [], pagination: null };
  for (const line of err.split('\n')) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON line of any shape, read field by field below
    const parsed = parseOrNull(line) as Record<string, any> | null;
    if (!parsed || typeof parsed !== 'object') continue;
    if (parsed.error) run.error = parsed.error as ErrorReport;
    else if (typeof parsed.warning === 'string') run.warnings.push(parsed.warning);
    else if (parsed.pagination) run.pagination = parsed.pagination;
  }
  return run;
}

function parseOrNull(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
