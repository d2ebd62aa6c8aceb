// Injected faults: API requests that match get a misbehaving answer instead of (or after) the real one.
import type { ServerResponse } from 'node:http';
import { HttpError } from './sandbox-error.js';
import { randomBase58 } from './ids.js';

export const FAULT_KINDS = ['status', 'truncated', 'huge', 'drop-before', 'drop-after', 'latency'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  id: string;
  match: { method?: string; path?: string; exact?: boolean };
  count: number;
  kind: FaultKind;
  status?: number;
  retryAfter?: number;
  body?: string;
  contentType?: string;
  ms?: number;
  megabytes?: number;
}

const bad = (message: string) => new HttpError(400, 'INVALID_FAULT', message);

/** Validate one fault description from the control surface. */
export function parseFault(input: unknown): Fault {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw bad('each fault must be an object');
  const f = input as Record<string, unknown>;
  const kind = f.kind ?? 'status';
  if (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind)) {
    throw bad(`kind must be one of ${FAULT_KINDS.join(', ')}`);
  }
  const count = f.count ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) throw bad('count must be a positive integer');
  const match = (f.match ?? {}) as Record<string, unknown>;
  if (typeof match !== 'object' || Array.isArray(match)) throw bad('match must be an object');
  if (match.method !== undefined && typeof match.method !== 'string') throw bad('match.method must be a string');
  if (match.path !== undefined && typeof match.path !== 'string') throw bad('match.path must be a string');
  const num = (name: string, min: number, max: number): number | undefined => {
    const v = f[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
      throw bad(`${name} must be a number from ${min} to ${max}`);
    return v;
  };
  const str = (name: string): string | undefined => {
    const v = f[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw bad(`${name} must be a string`);
    return v;
  };
  let path = match.path as string | undefined;
  // Paths may be given relative to the API root: `/trade/buys` means `/api/v1/trade/buys`.
  if (path !== undefined && !path.startsWith('/api/')) path = `/api/v1${path.startsWith('/') ? '' : '/'}${path}`;
  return {
    id: `fault_${randomBase58(10)}`,
    match: {
      method: (match.method as string | undefined)?.toUpperCase(),
      path,
      exact: match.exact === true,
    },
    count,
    kind: kind as FaultKind,
    status: num('status', 100, 599),
    retryAfter: num('retryAfter', 0, 86_400),
    body: str('body'),
    contentType: str('contentType'),
    ms: num('ms', 0, 120_000),
    megabytes: num('megabytes', 0, 512),
  };
}

export class FaultStore {
  private faults: Fault[] = [];

  /** Queue faults (in order; the first match wins). */
  add(faults: Fault[]): void {
    this.faults.push(...faults);
  }

  /** Faults still armed. */
  list(): Fault[] {
    return this.faults;
  }

  clear(): void {
    this.faults = [];
  }

  /** The first armed fault matching this request, consuming one of its count. */
  take(method: string, path: string): Fault | null {
    const i = this.faults.findIndex(
      (f) =>
        (!f.match.method || f.match.method === method) &&
        (!f.match.path || (f.match.exact ? path === f.match.path : path.startsWith(f.match.path))),
    );
    if (i < 0) return null;
    const f = this.faults[i]!;
    f.count -= 1;
    if (f.count <= 0) this.faults.splice(i, 1);
    return { ...f };
  }
}

/** Answer with a `status`, `truncated` or `huge` fault; returns the status sent. */
export function writeFault(res: ServerResponse, fault: Fault, requestId: string): number {
  if (fault.kind === 'huge') return writeHuge(res, fault, requestId);
  const status = fault.status ?? (fault.kind === 'truncated' ? 200 : 503);
  const body =
    fault.body ??
    (fault.kind === 'truncated'
      ? `{"data":{"id":"${requestId}","note":"this response is cut short`
      : JSON.stringify({ error: { code: 'SERVICE_UNAVAILABLE', message: 'injected fault' }, requestId }));
  const contentType =
    fault.contentType ?? (fault.body === undefined ? 'application/json' : 'text/plain; charset=utf-8');
  const headers: Record<string, string | number> = { 'x-request-id': requestId };
  if (contentType !== '') headers['content-type'] = contentType;
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  const bytes = Buffer.from(body, 'utf8');
  if (fault.kind === 'truncated') {
    // Promise more than we send, then hang up: the client sees a body cut short.
    headers['content-length'] = bytes.length + 1024;
    res.writeHead(status, headers);
    res.write(bytes, () => res.socket?.destroy());
    return status;
  }
  headers['content-length'] = bytes.length;
  res.writeHead(status, headers);
  res.end(bytes);
  return status;
}

function writeHuge(res: ServerResponse, fault: Fault, requestId: string): number {
  const status = fault.status ?? 200;
  const megabytes = fault.megabytes ?? 16;
  const item = `"${'x'.repeat(1022)}",`; // 1 KiB per array item
  const chunk = item.repeat(1024); // 1 MiB
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId });
  let sent = 0;
  const pump = () => {
    while (sent < megabytes) {
      sent++;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end(`"end"],"requestId":"${requestId}"}`);
  };
  res.write('{"data":[');
  res.on('close', () => (sent = megabytes));
  pump();
  return status;
}
