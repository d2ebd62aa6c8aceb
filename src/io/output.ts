// The presentation layer's front door: commands hand it data and a human renderer; it
// decides between --json and human output (and writes --csv when a command asks). Nothing else
// writes to stdout.
import { withCommand } from './command-line.js';
import type { CsvColumn } from './csv-output.js';
import { displayWidth, screenRows } from './display-width.js';
import { JsonArrayWriter, toJson, writeJsonLine } from './json-output.js';
import type { ListPrinter } from './list-printer.js';
import { safeForTerminal } from './terminal-text.js';
import type { Terminal } from './terminal.js';
import type { Theme } from './theme.js';
import { wrapWords } from './word-wrap.js';

export class Output {
  constructor(
    readonly terminal: Terminal,
    readonly json: boolean,
    readonly theme: Theme,
  ) {}

  /** Prints a single result: the object unchanged in --json mode, else the human rendering. */
  result(value: unknown, human: (theme: Theme) => string): void {
    if (this.json) this.terminal.stdout.write(toJson(value) + '\n');
    else this.line(human(this.theme));
  }

  /**
   * A list: in --json mode a JSON array written page by page; in human mode the rows are
   * collected and rendered once at the end (one table, aligned), or `empty` when none.
   */
  list<T>(human: (items: T[], theme: Theme) => string, empty: string): ListPrinter<T> {
    if (this.json) {
      const writer = new JsonArrayWriter(this.terminal.stdout);
      return { page: (items) => writer.write(items), end: () => writer.end() };
    }
    const rows: T[] = [];
    return {
      page: (items) => {
        rows.push(...items);
      },
      end: () => this.line(rows.length === 0 ? empty : human(rows, this.theme)),
    };
  }

  /** A --csv list on stdout, streamed page by page; the CSV writer is loaded only now. */
  async csv<T>(columns: readonly CsvColumn<T>[]): Promise<ListPrinter<T>> {
    const { csvList } = await import('./csv-output.js');
    // Written to a file or pipe, the CSV is the data unchanged; shown on a terminal, service text
    // goes through the same filter as every human line (no escapes reach the screen).
    const out = this.terminal.stdout;
    const stream = this.terminal.stdoutIsTTY ? { write: (text: string) => out.write(safeForTerminal(text)) } : out;
    return csvList(stream, columns);
  }

  /** Tells how to get the next page: a hint line, or a `{"pagination":…}` JSON line on stderr. */
  morePages(pagination: { nextCursor: string | null; hasMore: boolean }, nextCommand: string): void {
    if (this.json) writeJsonLine(this.terminal.stderr, { pagination });
    else {
      // The command to copy is not left to the terminal to wrap: too wide, it goes on lines of its own.
      const one = `More results: ${nextCommand}  (or --all)`;
      const columns = this.terminal.stderrColumns;
      const text =
        columns === undefined || displayWidth(one) <= columns
          ? one
          : withCommand('More results (or --all):', nextCommand, columns, true);
      this.terminal.stderr.write(safeForTerminal(this.theme.dim(text)) + '\n');
    }
  }

  /** A warning on stderr (a `{"warning":…}` line in --json mode). */
  warn(message: string): void {
    if (this.json) writeJsonLine(this.terminal.stderr, { warning: message });
    else this.terminal.stderr.write(this.forStderr(`${this.theme.pending('warning:')} ${message}`) + '\n');
  }

  /** A note for people (stderr, human mode only): hints, progress summaries. */
  note(message: string): void {
    if (!this.json) this.terminal.stderr.write(this.forStderr(message) + '\n');
  }

  /** Rows `message` takes as note() prints it on the terminal (the same filter and wrapping); null when stderr is no terminal. */
  noteRows(message: string): number | null {
    const columns = this.terminal.stderrColumns;
    return columns === undefined ? null : screenRows(this.forStderr(message), columns);
  }

  /** Human text for stderr: filtered, and wrapped at spaces to the terminal's width when stderr is one (piped, a line stays a line). */
  private forStderr(text: string): string {
    const safe = safeForTerminal(text);
    const columns = this.terminal.stderrColumns;
    return columns === undefined ? safe : wrapWords(safe, columns);
  }

  /** Human text for stdout: filtered, and on a terminal wrapped by the one rule (tables and key–value views already fit it). */
  private line(text: string): void {
    const safe = safeForTerminal(text);
    const fitted = this.terminal.stdoutIsTTY ? wrapWords(safe, this.terminal.columns) : safe;
    this.terminal.stdout.write(fitted.endsWith('\n') ? fitted : fitted + '\n');
  }
}
