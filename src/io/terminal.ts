// What a command may do with the terminal: the one place that knows whether stdout and
// stderr are terminals, whether colour is allowed and whether a prompt can be shown.

export interface Terminal {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout/stderr: only on a TTY, never with NO_COLOR, --no-color or --json. */
  color: boolean;
  /** Spinners: only on a TTY stderr and never in --json mode. */
  spinners: boolean;
  /** A person can answer a prompt: stdin and stderr are terminals and --json is off. */
  interactive: boolean;
  /** Width for tables: stdout's when it is a terminal, else $COLUMNS, else 80 (at least 40). */
  columns: number;
  /** Height of the terminal stderr shows on, when it is one: a review before a prompt is fitted to it. */
  rows?: number;
  /** Width of the terminal stderr shows on, when it is one: notes and commands to copy are laid out to it (never when piped). */
  stderrColumns?: number;
}

interface TtyStream {
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

/** Derives the terminal facts from the real streams, the environment and the global flags. */
export function detectTerminal(
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; stdin: NodeJS.ReadableStream },
  env: Record<string, string | undefined>,
  flags: { json: boolean; color: boolean },
): Terminal {
  const stdoutIsTTY = Boolean((streams.stdout as TtyStream).isTTY);
  const stderrIsTTY = Boolean((streams.stderr as TtyStream).isTTY);
  const stdinIsTTY = Boolean((streams.stdin as TtyStream).isTTY);
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  // Tables go to stdout: piped, they get 80 columns (or what $COLUMNS says), not stderr's width.
  const fromEnv = /^[1-9][0-9]{0,3}$/.test(env.COLUMNS ?? '') ? Number(env.COLUMNS) : null;
  const columns = (stdoutIsTTY ? (streams.stdout as TtyStream).columns : undefined) ?? fromEnv ?? 80;
  return {
    ...streams,
    stdoutIsTTY,
    stderrIsTTY,
    color: !flags.json && flags.color && !noColor && (stdoutIsTTY || stderrIsTTY) && env.TERM !== 'dumb',
    spinners: !flags.json && stderrIsTTY && env.TERM !== 'dumb',
    interactive: !flags.json && stdinIsTTY && stderrIsTTY,
    columns: Math.max(40, columns),
    ...(stderrIsTTY && (streams.stderr as TtyStream).rows ? { rows: (streams.stderr as TtyStream).rows } : {}),
    ...(stderrIsTTY && (streams.stderr as TtyStream).columns
      ? { stderrColumns: Math.max(40, (streams.stderr as TtyStream).columns!) }
      : {}),
  };
}
