// One HTTP attempt with the bounds fetch lacks: a timer on connect+headers, an idle timer
// between body chunks and a byte limit, all through one AbortController per attempt.
//
// Engine: undici, as the design asks, in the copy Node ships as the global fetch: measured
// cheaper at start-up than importing the undici package (≈ +58 ms at the first request against
// ≈ +90 ms to import, docs/bench.md). Only when a proxy applies is the undici package imported,
// lazily, for its ProxyAgent, and its own fetch used with it (the two are never mixed).

import type { Failure } from './http-errors.js';
import { oneLine } from './http-errors.js';
import { secondsText } from '../domain/units.js';
import { SANDBOX_RECIPE } from '../domain/person-prefix.js';

export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  redirect: 'manual';
}
export interface FetchResponse {
  status: number;
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
}
export type FetchFn = (url: string, init: FetchInit) => Promise<FetchResponse>;

export interface AttemptLimits {
  /** Bound on connect + response headers, and separately on the whole body after them. */
  requestTimeoutMs: number;
  /** Idle time allowed between body chunks. */
  bodyTimeoutMs: number;
  /** Larger 2xx bodies fail with RESPONSE_TOO_LARGE. */
  maxBodyBytes: number;
}

export interface RawResponse {
  status: number;
  headers: { get(name: string): string | null };
  body: string;
}

type ChunkResult = { done: boolean; value?: Uint8Array };

export type AttemptOutcome = { ok: true; response: RawResponse } | { ok: false; failure: Failure };

/** Error bodies are read only this far; what follows is dropped. */
const ERROR_BODY_LIMIT = 64 * 1024;

function failure(
  kind: Failure['kind'],
  code: string,
  message: string,
  uncertain: boolean,
  status: number | null = null,
): Failure {
  return { kind, code, message, status, requestId: null, hints: [], uncertain, retryAfterMs: null };
}

/** The error code (ECONNREFUSED, UND_ERR_SOCKET, …) inside fetch's "fetch failed" TypeError. */
function causeCode(err: unknown): { code: string | null; detail: string } {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e; depth++) {
    const rec = e as { code?: unknown; cause?: unknown; errors?: unknown; message?: unknown };
    if (typeof rec.code === 'string')
      return { code: rec.code, detail: typeof rec.message === 'string' ? rec.message : '' };
    if (Array.isArray(rec.errors) && rec.errors.length) e = rec.errors[0];
    else e = rec.cause;
  }
  const msg =
    (err as { cause?: { message?: unknown }; message?: unknown })?.cause?.message ??
    (err as { message?: unknown })?.message;
  return { code: null, detail: typeof msg === 'string' ? msg : String(err) };
}

const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
]);

/** A failed fetch (no response) as a Failure naming the host, never the key. */
export function networkFailure(err: unknown, host: string, via: string | null): Failure {
  const { code, detail } = causeCode(err);
  const where = via ? `${host} (via proxy ${via})` : host;
  const c = code ?? '';
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(c)) {
    return failure('network-permanent', 'NETWORK_ERROR', `TLS error talking to ${where}: ${oneLine(c, 60)}`, false);
  }
  let what: string;
  const hints: string[] = [];
  switch (c) {
    case 'ECONNREFUSED':
      what = `could not connect to ${where}: connection refused`;
      // Refused on this machine, without a proxy: most likely a sandbox that was stopped (old TRADER_* variables).
      if (!via && isLoopback(host))
        hints.push(`no sandbox or local service is running at ${host}; start one with \`${SANDBOX_RECIPE}\``);
      break;
    case 'ENOTFOUND':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      what = `could not resolve host ${where}`;
      break;
    case 'EAI_AGAIN':
      what = `could not resolve host ${where} (temporary DNS failure)`;
      break;
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      what = `could not connect to ${where}: connection timed out`;
      break;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      what = `could not reach ${where}: network unreachable`;
      break;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      what = `the connection to ${where} was closed before the service answered`;
      break;
    default:
      what = `network error talking to ${where}: ${oneLine(c || detail || 'unknown error', 120)}`;
  }
  return { ...failure('network', 'NETWORK_ERROR', what, !NOT_SENT.has(c)), hints };
}

/** A host (with its port) on this machine: localhost, 127.0.0.0/8 or [::1]. */
function isLoopback(host: string): boolean {
  const name = host.replace(/:\d+$/, '').toLowerCase();
  return name === 'localhost' || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** One attempt's bounds and its one abort: the caller's signal and the timer running now feed it. */
interface AttemptState {
  controller: AbortController;
  limits: AttemptLimits;
  userSignal: AbortSignal | undefined;
  /** The timer running now (headers, then the whole body); cleared when the attempt ends. */
  timer: NodeJS.Timeout | undefined;
}

/** Sends one request; throws only the caller's abort reason, everything else becomes a Failure. */
export async function attempt(
  fetchFn: FetchFn,
  url: string,
  init: Omit<FetchInit, 'signal' | 'redirect'>,
  limits: AttemptLimits,
  userSignal: AbortSignal | undefined,
  proxyLabel: string | null,
): Promise<AttemptOutcome> {
  if (userSignal?.aborted) throw userSignal.reason;
  const st: AttemptState = { controller: new AbortController(), limits, userSignal, timer: undefined };
  const onUserAbort = () => st.controller.abort(userSignal!.reason);
  userSignal?.addEventListener('abort', onUserAbort, { once: true });
  try {
    const sent = await sendForHeaders(st, fetchFn, url, init, proxyLabel);
    if (!sent.ok) return sent;
    return await readBody(st, sent.res);
  } finally {
    if (st.timer) clearTimeout(st.timer);
    userSignal?.removeEventListener('abort', onUserAbort);
  }
}

/** The request, bounded by requestTimeoutMs up to the response's headers. */
async function sendForHeaders(
  st: AttemptState,
  fetchFn: FetchFn,
  url: string,
  init: Omit<FetchInit, 'signal' | 'redirect'>,
  proxyLabel: string | null,
): Promise<{ ok: true; res: FetchResponse } | { ok: false; failure: Failure }> {
  const host = new URL(url).host;
  let timedOut = false;
  st.timer = setTimeout(() => {
    timedOut = true;
    st.controller.abort(new Error('request timeout'));
  }, st.limits.requestTimeoutMs);
  let res: FetchResponse;
  try {
    res = await fetchFn(url, { ...init, signal: st.controller.signal, redirect: 'manual' });
  } catch (err) {
    if (st.userSignal?.aborted) throw st.userSignal.reason;
    if (timedOut) {
      return {
        ok: false,
        failure: failure(
          'timeout',
          'REQUEST_TIMEOUT',
          `the service did not answer within ${secondsText(st.limits.requestTimeoutMs)}`,
          true,
        ),
      };
    }
    return { ok: false, failure: networkFailure(err, host, proxyLabel) };
  }
  clearTimeout(st.timer);
  st.timer = undefined;
  return { ok: true, res };
}

/** The body, within its byte limit (a 2xx's, or the short one of an error body) and its timers. */
async function readBody(st: AttemptState, res: FetchResponse): Promise<AttemptOutcome> {
  const success = res.status >= 200 && res.status < 300;
  const limit = success ? st.limits.maxBodyBytes : ERROR_BODY_LIMIT;
  const declared = Number(res.headers.get('content-length'));
  if (success && Number.isFinite(declared) && declared > limit) {
    st.controller.abort(new Error('response too large'));
    return { ok: false, failure: tooLarge(res.status, limit) };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    const reader = res.body.getReader();
    const chunked = boundedReader(st, reader);
    for (;;) {
      let chunk: ChunkResult;
      try {
        chunk = await chunked.read();
      } catch {
        if (st.userSignal?.aborted) throw st.userSignal.reason;
        if (!success) break; // keep the status; the partial error body is enough
        return { ok: false, failure: cutOff(st.limits, chunked.stalled(), res.status, size) };
      }
      if (chunk.done || !chunk.value) break;
      size += chunk.value.byteLength;
      if (size > limit) {
        st.controller.abort(new Error('response too large'));
        reader.cancel().catch(() => {});
        if (success) return { ok: false, failure: tooLarge(res.status, limit) };
        break;
      }
      chunks.push(chunk.value);
    }
  }
  const body = new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  return { ok: true, response: { status: res.status, headers: res.headers, body } };
}

/** Reads chunk by chunk, each within bodyTimeoutMs of the last and all within requestTimeoutMs. */
function boundedReader(
  st: AttemptState,
  reader: ReadableStreamDefaultReader<Uint8Array>,
): { read: () => Promise<ChunkResult>; stalled: () => 'idle' | 'slow' | null } {
  let stalled: 'idle' | 'slow' | null = null;
  const stop = (why: 'idle' | 'slow', reject: (e: Error) => void) => {
    stalled = why;
    st.controller.abort(new Error('body timeout'));
    reader.cancel().catch(() => {});
    reject(new Error('body timeout'));
  };
  // Besides the idle timer, the whole body has requestTimeoutMs: a service that drips a
  // byte now and then must not hold the tool for ever.
  let rejectSlow: (e: Error) => void = () => {};
  const slow = new Promise<never>((_resolve, reject) => (rejectSlow = reject));
  slow.catch(() => {});
  st.timer = setTimeout(() => stop('slow', rejectSlow), st.limits.requestTimeoutMs);
  const read = () =>
    Promise.race([
      slow,
      new Promise<ChunkResult>((resolve, reject) => {
        const idle = setTimeout(() => stop('idle', reject), st.limits.bodyTimeoutMs);
        reader.read().then(
          (r) => (clearTimeout(idle), resolve(r)),
          (e: unknown) => (clearTimeout(idle), reject(e)),
        );
      }),
    ]);
  return { read, stalled: () => stalled };
}

/** A 2xx body that stopped: too slow, idle too long, or cut off by the other end. */
function cutOff(limits: AttemptLimits, stalled: 'idle' | 'slow' | null, status: number, size: number): Failure {
  if (stalled) {
    const what =
      stalled === 'slow'
        ? `the service took more than ${secondsText(limits.requestTimeoutMs)} to send its answer`
        : `the service stopped sending its answer for more than ${secondsText(limits.bodyTimeoutMs)}`;
    return failure('timeout', 'REQUEST_TIMEOUT', what, true, status);
  }
  return failure(
    'truncated',
    'UNEXPECTED_RESPONSE',
    `unexpected response from the service: the answer was cut off (HTTP ${status}, ${size} bytes received)`,
    true,
    status,
  );
}

function tooLarge(status: number, limit: number): Failure {
  const mib = Number((limit / (1024 * 1024)).toFixed(2));
  return failure(
    'too-large',
    'RESPONSE_TOO_LARGE',
    `response too large: the service sent more than ${mib} MiB`,
    true,
    status,
  );
}
