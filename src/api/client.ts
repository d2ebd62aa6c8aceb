// The service's HTTP API: one typed function per endpoint. It never prints and never reads
// process.env; everything (key, clock, proxy variables, abort signal) is passed in.
// Transport and engine choice: see transport.ts. Errors: errors.ts. Retries: retry.ts.

import type { Clock } from '../domain/clock.js';
import { MIN_STATUS_INTERVAL_MS } from '../domain/defaults.js';
import { ALWAYS_WALKED_LENGTH, keyRedactor, redactDeep, type Redactor } from './redact.js';
import { ServiceRejectedError, UsageError } from '../domain/errors.js';
import { resolveApiRoot } from './base-url.js';
import { defaultCodeFor, type Failure, httpFailure, oneLine, toApiError } from './errors.js';
import { fetchFor, proxyFor } from '../net/proxy.js';
import { type Repeatability, type RetryPolicy, parseRetryAfter, resolvePolicy, withRetry } from './retry.js';
import * as S from './schemas.js';
import { type FetchFn, attempt } from './transport.js';
import type {
  Account,
  ActivityEntry,
  AuthorizeSellRequest,
  AuthorizeSellResponse,
  BuyIntentResponse,
  CreateBuyRequest,
  CreateBuyResponse,
  CreateSellRequest,
  GetSellResponse,
  Holding,
  Pagination,
  PointsSummary,
  Position,
  SellAuthorizationResponse,
  SubmitDepositRequest,
  Trade,
  TradeStatus,
} from './types.js';
import { NOTHING_CREATED } from '../domain/outcome-words.js';

export type { RetryPolicy } from './retry.js';
export { DEFAULT_RETRY_POLICY } from './retry.js';
export { UncertainOutcomeError, isUncertainOutcome } from './errors.js';

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

export interface Page<T> {
  items: T[];
  pagination: Pagination;
  requestId: string;
}

export interface ServiceClient {
  me(): Promise<Account>;
  points(): Promise<PointsSummary>;
  listPositions(q: { status?: string; limit?: number; cursor?: string }): Promise<Page<Position>>;
  getPosition(id: string): Promise<Position>;
  listActivity(q: { types?: string[]; limit?: number; cursor?: string }): Promise<Page<ActivityEntry>>;
  holdings(): Promise<Holding[]>;
  getTrade(id: string): Promise<Trade>;
  getTradeStatus(id: string): Promise<TradeStatus>;
  createBuy(req: CreateBuyRequest): Promise<CreateBuyResponse>;
  submitDeposit(id: string, req: SubmitDepositRequest): Promise<BuyIntentResponse>;
  getBuy(id: string): Promise<BuyIntentResponse>;
  cancelBuy(id: string): Promise<BuyIntentResponse>;
  createSell(req: CreateSellRequest): Promise<SellAuthorizationResponse>;
  authorizeSell(id: string, req: AuthorizeSellRequest): Promise<AuthorizeSellResponse>;
  getSell(id: string): Promise<GetSellResponse>;
}

const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

/** One path segment, URL-encoded; empty, "." and ".." are refused (URL parsing would resolve them). */
function segment(id: string): string {
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..') {
    throw new UsageError(`invalid id ${JSON.stringify(oneLine(String(id), 60))}`, 'INVALID_ID');
  }
  return encodeURIComponent(id);
}

function query(params: Record<string, string | number | string[] | undefined>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length) parts.push(`${name}=${value.map(encodeURIComponent).join(',')}`);
    } else if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) throw new UsageError(`${name} must be an integer`, 'INVALID_ARGUMENT');
      parts.push(`${name}=${value}`);
    } else {
      parts.push(`${name}=${encodeURIComponent(value)}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

interface Call {
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

/** Creates the client; checks the base URL now (UsageError for a bad or insecure one). */
export function createClient(opts: ClientOptions): ServiceClient {
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
  const policy = resolvePolicy(opts.retry);
  const { random } = opts;
  const { clock } = opts;
  const proxyLabel = proxyFor(root, opts.env)?.host ?? null;

  let engine: Promise<FetchFn> | undefined;
  const getFetch = (): Promise<FetchFn> =>
    (engine ??= fetchFor(root, opts.env, opts.fetch).then(({ fetch }) => fetch as unknown as FetchFn));

  const redact = keyRedactor(apiKey);
  const clean = (f: Failure): Failure => ({
    ...f,
    message: redact(f.message),
    code: redact(f.code),
    requestId: f.requestId === null ? null : redact(f.requestId),
  });

  async function call<T>(c: Call): Promise<{ data: T; envelope: Record<string, unknown> }> {
    const fetchFn = await getFetch();
    const url = root.href + c.path;
    const headers: Record<string, string> = { 'X-API-Key': apiKey, Accept: 'application/json' };
    if (opts.userAgent) headers['User-Agent'] = opts.userAgent;
    let body: string | undefined;
    if (c.method === 'POST') {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(c.body ?? {});
    }
    const outcome = await withRetry<{ data: T; envelope: Record<string, unknown> }>({
      repeatability: c.repeatability,
      policy,
      clock,
      random,
      signal: opts.signal,
      minDelayMs: c.minGapMs ?? 0,
      attempt: async (n) => {
        const started = clock.now();
        const log = (status: number | null, requestId: string | null, error?: string) =>
          opts.onRequest?.({
            method: c.method,
            path: c.path,
            status,
            ms: Math.max(0, clock.now() - started),
            requestId,
            attempt: n,
            ...(error ? { error } : {}),
          });
        let sent;
        try {
          sent = await attempt(fetchFn, url, { method: c.method, headers, body }, limits, opts.signal, proxyLabel);
        } catch (err) {
          log(null, null, 'ABORTED');
          throw err;
        }
        if (!sent.ok) {
          const f = clean(sent.failure);
          log(f.status, f.requestId, f.code);
          return { ok: false, failure: f };
        }
        const res = sent.response;
        const headerRequestId = res.headers.get('x-request-id');
        if (res.status < 200 || res.status >= 300) {
          const f = clean(
            httpFailure(
              {
                status: res.status,
                path: c.path.replace(/\?.*$/, ''),
                body: res.body,
                contentType: res.headers.get('content-type'),
                headerRequestId,
                location: res.headers.get('location'),
                retryAfterMs: parseRetryAfter(res.headers.get('retry-after'), clock.now()),
              },
              redact,
            ),
          );
          log(f.status, f.requestId, f.code);
          return { ok: false, failure: f };
        }
        const parsed = parseSuccess<T>(
          res.status,
          res.headers.get('content-type'),
          res.body,
          c,
          headerRequestId === null ? null : redact(headerRequestId),
          redact,
        );
        if (!parsed.ok) {
          const f = clean(parsed.failure);
          log(f.status, f.requestId, f.code);
          return { ok: false, failure: f };
        }
        log(res.status, oneLine(redact(parsed.value.envelope.requestId as string), 128));
        return parsed;
      },
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

  const get = <T>(path: string, check: S.Check) => call<T>({ method: 'GET', path, repeatability: 'read', check });
  const dataOf = async <T>(p: Promise<{ data: T }>): Promise<T> => (await p).data;
  const page = async <T>(path: string, item: S.Check): Promise<Page<T>> => {
    const r = await call<T[]>({ method: 'GET', path, repeatability: 'read', check: S.envelope(S.arrayOf(item), true) });
    return {
      items: r.data,
      pagination: r.envelope.pagination as Pagination,
      requestId: r.envelope.requestId as string,
    };
  };

  return {
    // The account names the key (prefix, name): parseSuccess hides any piece of it the service shows.
    me: async () => dataOf(get<Account>('/me', S.envelope(S.account))),
    points: async () => dataOf(get<PointsSummary>('/points', S.envelope(S.pointsSummary))),
    listPositions: async (q) =>
      page<Position>(`/positions${query({ status: q.status, limit: q.limit, cursor: q.cursor })}`, S.position),
    getPosition: async (id) => dataOf(get<Position>(`/positions/${segment(id)}`, S.envelope(S.position))),
    listActivity: async (q) =>
      page<ActivityEntry>(`/activity${query({ type: q.types, limit: q.limit, cursor: q.cursor })}`, S.activityEntry),
    holdings: async () => dataOf(get<Holding[]>('/holdings', S.envelope(S.arrayOf(S.holding)))),
    getTrade: async (id) => dataOf(get<Trade>(`/trades/${segment(id)}`, S.envelope(S.trade))),
    // The API allows this endpoint to be read every 2 s at most: a retry keeps that pace too.
    getTradeStatus: async (id) =>
      dataOf(
        call<TradeStatus>({
          method: 'GET',
          path: `/trades/${segment(id)}/status`,
          repeatability: 'read',
          check: S.envelope(S.tradeStatus),
          minGapMs: MIN_STATUS_INTERVAL_MS,
        }),
      ),
    createBuy: async (req) =>
      dataOf(
        call<CreateBuyResponse>({
          method: 'POST',
          path: '/trade/buys',
          body: req,
          repeatability: 'idempotent-create',
          check: S.envelope(S.createBuyResponse),
          creates: 'buy',
        }),
      ),
    submitDeposit: async (id, req) =>
      dataOf(
        call<BuyIntentResponse>({
          method: 'POST',
          path: `/trade/buys/${segment(id)}/deposit`,
          body: req,
          repeatability: 'once',
          check: S.envelope(S.buyIntentResponse),
        }),
      ),
    getBuy: async (id) => dataOf(get<BuyIntentResponse>(`/trade/buys/${segment(id)}`, S.envelope(S.buyIntentResponse))),
    cancelBuy: async (id) =>
      dataOf(
        call<BuyIntentResponse>({
          method: 'POST',
          path: `/trade/buys/${segment(id)}/cancel`,
          body: {},
          repeatability: 'once',
          check: S.envelope(S.buyIntentResponse),
        }),
      ),
    createSell: async (req) =>
      dataOf(
        call<SellAuthorizationResponse>({
          method: 'POST',
          path: '/trade/sells',
          body: req,
          repeatability: 'idempotent-create',
          check: S.envelope(S.sellAuthorizationResponse),
          creates: 'sell',
        }),
      ),
    authorizeSell: async (id, req) =>
      dataOf(
        call<AuthorizeSellResponse>({
          method: 'POST',
          path: `/trade/sells/${segment(id)}/authorize`,
          body: req,
          repeatability: 'once',
          check: S.envelope(S.authorizeSellResponse),
        }),
      ),
    getSell: async (id) => dataOf(get<GetSellResponse>(`/trade/sells/${segment(id)}`, S.envelope(S.getSellResponse))),
  };
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
