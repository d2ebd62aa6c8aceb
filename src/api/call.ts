// One call to the service: its request, its attempts under the retry policy (each one logged,
// its failure cleaned of the key), the 2xx answer parsed and checked, and the failure it ends in.
import type { Clock } from '../domain/clock.js';
import { ALWAYS_WALKED_LENGTH, keyRedactor, redactDeep, type Redactor } from './redact.js';
import { ServiceRejectedError, UsageError } from '../domain/errors.js';
import { resolveApiRoot } from './base-url.js';
import { defaultCodeFor, type Failure, httpFailure, oneLine, toApiError } from './http-errors.js';
import { fetchFor, proxyFor } from '../net/proxy.js';
import { type Repeatability, type RetryPolicy, parseRetryAfter, resolvePolicy, withRetry } from './retry.js';
import type * as S from './schemas.js';
import { type AttemptLimits, type FetchFn, type RawResponse, attempt } from './transport.js';
import { NOTHING_CREATED } from '../domain/outcome-words.js';

export interface RequestLog {
  method: string;
  /** Path below /api/v1, with the query (which holds no secret). */
  path: string;
  status: number | null;
  ms: number;
  requestId: string | null;
  attempt: number;
  /** Error code of a failed attempt. */
  error?: string;
}

export interface ClientOptions {
  /** Service root; '/api/v1' is appended unless it already ends in it (with or without trailing slash). */
  baseUrl: string;
  /** Sent as X-API-Key; never in any error message or log. */
  apiKey: string;
  /** Bound on connect + response headers of one attempt. */
  requestTimeoutMs: number;
  /** Idle time allowed between body chunks (default requestTimeoutMs). */
  bodyTimeoutMs?: number;
  /** Default 5 MiB; larger answers fail with RESPONSE_TOO_LARGE. */
  maxBodyBytes?: number;
  /** Allow plain http:// to non-loopback hosts. */
  insecure?: boolean;
  /** Proxy variables (HTTP_PROXY, HTTPS_PROXY, NO_PROXY, lower-case too). */
  env?: Record<string, string | undefined>;
  /** Backoff sleeps and elapsed times come from here. */
  clock: Clock;
  retry?: Partial<RetryPolicy>;
  /** Jitter source in [0, 1). */
  random: () => number;
  /**
   * The HTTP engine: Node's global fetch (undici), injected by the context. The undici package
   * replaces it only when a proxy applies.
   */
  fetch: typeof globalThis.fetch;
  /** Called after every attempt (for --verbose); never given the key or headers. */
  onRequest?: (log: RequestLog) => void;
  /** Aborts everything; its reason is rethrown unchanged. */
  signal?: AbortSignal;
  userAgent?: string;
}

const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface Call {
  method: 'GET' | 'POST';
  /** Below /api/v1, already encoded, with query. */
  path: string;
  body?: unknown;
  repeatability: Repeatability;
  check: S.Check;
  /** A retry of this call waits at least this long (the status endpoint: no faster than every 2 s). */
  minGapMs?: number;
  /** A trade's create: its refusal as invalid (400, 422) comes before anything is signed, and is the user's input to change. */
  creates?: 'buy' | 'sell';
}

/** The answers to a create that refuse its input (a mint not traded, an amount too small), not the service failing. */
const REFUSED_INPUT = new Set([400, 422]);

/** What every call of one client shares: where, with which key, within which bounds. */
export interface Wire {
  opts: ClientOptions;
  root: URL;
  apiKey: string;
  limits: AttemptLimits;
  policy: RetryPolicy;
  clock: Clock;
  proxyLabel: string | null;
  /** The HTTP engine, chosen at the first request (a proxy's needs the undici package). */
  getFetch: () => Promise<FetchFn>;
  redact: Redactor;
}

/** A call's answer: the resource and the envelope it came in. */
export type Answer<T> = { data: T; envelope: Record<string, unknown> };

/** The client's wire; checks the base URL and the key now (UsageError for a bad or insecure one). */
export function wireFor(opts: ClientOptions): Wire {
  const root = resolveApiRoot(opts.baseUrl, opts.insecure ?? false);
  const apiKey = opts.apiKey;
  if (typeof apiKey !== 'string' || apiKey === '') {
    throw new UsageError('missing API key: set TRADER_API_KEY or run trader config init', 'NOT_CONFIGURED');
  }
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new UsageError(
      'the API key contains spaces or characters that cannot be sent in an HTTP header',
      'UNSENDABLE_API_KEY',
    );
  }
  const requestTimeoutMs = opts.requestTimeoutMs > 0 ? opts.requestTimeoutMs : 30_000;
  const limits = {
    requestTimeoutMs,
    bodyTimeoutMs: opts.bodyTimeoutMs && opts.bodyTimeoutMs > 0 ? opts.bodyTimeoutMs : requestTimeoutMs,
    maxBodyBytes: opts.maxBodyBytes && opts.maxBodyBytes > 0 ? opts.maxBodyBytes : DEFAULT_MAX_BODY_BYTES,
  };
  let engine: Promise<FetchFn> | undefined;
  const getFetch = (): Promise<FetchFn> =>
    (engine ??= fetchFor(root, opts.env, opts.fetch).then(({ fetch }) => fetch as unknown as FetchFn));
  return {
    opts,
    root,
    apiKey,
    limits,
    policy: resolvePolicy(opts.retry),
    clock: opts.clock,
    proxyLabel: proxyFor(root, opts.env)?.host ?? null,
    getFetch,
    redact: keyRedactor(apiKey),
  };
}

/** A failure with the key hidden from every field a person may read. */
function clean(w: Wire, f: Failure): Failure {
  return {
    ...f,
    message: w.redact(f.message),
    code: w.redact(f.code),
    requestId: f.requestId === null ? null : w.redact(f.requestId),
  };
}

interface Request {
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The call's URL, headers (the key among them) and JSON body. */
function requestOf(w: Wire, c: Call): Request {
  const headers: Record<string, string> = { 'X-API-Key': w.apiKey, Accept: 'application/json' };
  if (w.opts.userAgent) headers['User-Agent'] = w.opts.userAgent;
  let body: string | undefined;
  if (c.method === 'POST') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(c.body ?? {});
  }
  return { url: w.root.href + c.path, headers, body };
}

/** Sends the call, retried as its repeatability allows; its answer, or the typed error it ends in. */
export async function call<T>(w: Wire, c: Call): Promise<Answer<T>> {
  const fetchFn = await w.getFetch();
  const request = requestOf(w, c);
  const outcome = await withRetry<Answer<T>>({
    repeatability: c.repeatability,
    policy: w.policy,
    clock: w.clock,
    random: w.opts.random,
    signal: w.opts.signal,
    minDelayMs: c.minGapMs ?? 0,
    attempt: (n) => attemptOnce<T>(w, c, n, fetchFn, request),
  });
  if (outcome.ok) return outcome.value;
  const f = outcome.failure;
  if (c.creates && f.kind === 'http' && f.status !== null && REFUSED_INPUT.has(f.status)) {
    // The service's code when it gave one; else a code of its own, not a read's BAD_REQUEST (exit 3).
    const code = f.code === defaultCodeFor(f.status) ? 'REQUEST_REFUSED' : f.code;
    throw new ServiceRejectedError(`the service refused this ${c.creates}: ${f.message}; ${NOTHING_CREATED}`, {
      code,
      status: f.status,
      requestId: f.requestId,
      hints: f.hints,
    });
  }
  throw toApiError(f, outcome.attempts, outcome.uncertain);
}

/** One attempt, logged (for --verbose) whatever its end: a cleaned failure or the checked answer. */
async function attemptOnce<T>(w: Wire, c: Call, n: number, fetchFn: FetchFn, request: Request): Promise<Parsed<T>> {
  const started = w.clock.now();
  const log = (status: number | null, requestId: string | null, error?: string) =>
    w.opts.onRequest?.({
      method: c.method,
      path: c.path,
      status,
      ms: Math.max(0, w.clock.now() - started),
      requestId,
      attempt: n,
      ...(error ? { error } : {}),
    });
  const failed = (failure: Failure): Parsed<T> => {
    const f = clean(w, failure);
    log(f.status, f.requestId, f.code);
    return { ok: false, failure: f };
  };
  let sent;
  try {
    const init = { method: c.method, headers: request.headers, body: request.body };
    sent = await attempt(fetchFn, request.url, init, w.limits, w.opts.signal, w.proxyLabel);
  } catch (err) {
    log(null, null, 'ABORTED');
    throw err;
  }
  if (!sent.ok) return failed(sent.failure);
  const res = sent.response;
  if (res.status < 200 || res.status >= 300) return failed(httpFailureOf(w, c, res));
  const headerRequestId = res.headers.get('x-request-id');
  const parsed = parseSuccess<T>(
    res.status,
    res.headers.get('content-type'),
    res.body,
    c,
    headerRequestId === null ? null : w.redact(headerRequestId),
    w.redact,
  );
  if (!parsed.ok) return failed(parsed.failure);
  log(res.status, oneLine(w.redact(parsed.value.envelope.requestId as string), 128));
  return parsed;
}

/** A non-2xx answer as the failure it names. */
function httpFailureOf(w: Wire, c: Call, res: RawResponse): Failure {
  return httpFailure(
    {
      status: res.status,
      path: c.path.replace(/\?.*$/, ''),
      body: res.body,
      contentType: res.headers.get('content-type'),
      headerRequestId: res.headers.get('x-request-id'),
      location: res.headers.get('location'),
      retryAfterMs: parseRetryAfter(res.headers.get('retry-after'), w.clock.now()),
    },
    w.redact,
  );
}

type Parsed<T> = { ok: true; value: { data: T; envelope: Record<string, unknown> } } | { ok: false; failure: Failure };

/** A 2xx answer: JSON, the envelope and the resource checked; the original object is kept. */
function parseSuccess<T>(
  status: number,
  contentType: string | null,
  body: string,
  c: Call,
  headerRequestId: string | null,
  redact: Redactor,
): Parsed<T> {
  const where = c.path.replace(/\?.*$/, '');
  const bad = (what: string, requestId: string | null = headerRequestId): Parsed<T> => ({
    ok: false,
    failure: {
      kind: 'unexpected',
      code: 'UNEXPECTED_RESPONSE',
      message: `unexpected response from the service: ${where}: ${what}`,
      status,
      requestId: requestId === null ? null : oneLine(redact(requestId), 128),
      hints: [],
      uncertain: true,
      retryAfterMs: null,
    },
  });
  const ct = (contentType ?? '').toLowerCase();
  const text = body.replace(/^\uFEFF/, '').trim();
  if (ct.includes('html') || /^<(?:!doctype|html|head|body)/i.test(text)) {
    return bad(`HTTP ${status} with an HTML page instead of JSON (a proxy or captive portal?)`);
  }
  if (ct && !ct.includes('json'))
    return bad(`HTTP ${status} with content-type ${oneLine(redact(ct), 60)} instead of JSON`);
  if (!text) return bad(`HTTP ${status} with an empty body`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return bad(`HTTP ${status} with a body that is not valid JSON`);
  }
  // A service that echoes the key (or a piece of it, in any form) anywhere gets it hidden; the
  // deep walk runs on a short answer, or when the body may hold a piece or has escapes that could
  // spell one (a page is at most 100 items).
  if (text.length <= ALWAYS_WALKED_LENGTH || redact.holdsPiece(text) || /\\u[0-9a-fA-F]{4}/.test(text))
    json = redactDeep(json, redact);
  const bodyRequestId = (json as { requestId?: unknown } | null)?.requestId;
  const problem = c.check(json, '');
  if (problem)
    return bad(oneLine(redact(problem), 200), typeof bodyRequestId === 'string' ? bodyRequestId : headerRequestId);
  const envelope = json as Record<string, unknown>;
  return { ok: true, value: { data: envelope.data as T, envelope } };
}
