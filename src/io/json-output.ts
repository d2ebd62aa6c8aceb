// The one --json code path: a single document on stdout, JSON lines on stderr.

const bigintAsString = (_key: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

/** Serialises a value; bigints (never expected from the API) become strings rather than throwing. */
export function toJson(value: unknown, indent = 2): string {
  // A replacer function costs a call per key; API data never holds a bigint, so try without.
  try {
    return JSON.stringify(value, null, indent);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return JSON.stringify(value, bigintAsString, indent);
  }
}

/** Writes one JSON line to stderr-like streams: `{"warning":…}`, `{"pagination":…}`, `{"error":…}`. */
export function writeJsonLine(stream: NodeJS.WritableStream, value: unknown): void {
  stream.write(toJson(value, 0) + '\n');
}

/**
 * Writes a JSON array incrementally, one item per line, so `--all` never holds every page in
 * memory. If the caller never calls end() (a page failed), the array stays unterminated and
 * can never parse as a complete result.
 */
export class JsonArrayWriter {
  private count = 0;
  private started = false;
  constructor(private readonly stream: NodeJS.WritableStream) {}

  /** Writes a batch of items (e.g. one page) as soon as it arrives. */
  write(items: readonly unknown[]): void {
    if (!this.started) {
      this.stream.write('[');
      this.started = true;
    }
    // One write per batch: a write per item is a system call per item on a file or pipe.
    let text = '';
    for (const item of items) {
      text += (this.count === 0 ? '\n' : ',\n') + toJson(item, 0);
      this.count++;
    }
    if (text) this.stream.write(text);
  }

  /** Closes the array. */
  end(): void {
    if (!this.started) this.stream.write('[');
    this.stream.write(this.count === 0 ? ']\n' : '\n]\n');
  }
}
