// The log of API requests, for tests and rehearsals: what arrived and what was answered.
// Never holds a full API key, only its display prefix.

export interface RequestLogEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  body: unknown;
  status: number | null;
  requestId: string;
  keyPrefix: string | null;
  fault: string | null;
  durationMs: number;
}

const MAX_ENTRIES = 10_000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;

  /** Record one request (oldest entries are dropped past 10,000). */
  add(entry: Omit<RequestLogEntry, 'seq'>): void {
    this.entries.push({ seq: ++this.seq, ...entry });
    if (this.entries.length > MAX_ENTRIES + 1_000) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  /** Every entry, oldest first. */
  list(): RequestLogEntry[] {
    return this.entries;
  }

  /** Forget everything. */
  clear(): void {
    this.entries = [];
  }
}

/** Query parameters as a plain object (repeated names become arrays). */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of params) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
