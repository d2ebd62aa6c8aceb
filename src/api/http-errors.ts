// HTTP statuses, error bodies and transport failures turned into ApiError — in this one place.

import { STATUS_CODES } from 'node:http';
import { ApiError } from '../domain/errors.js';

/**
 * The request may have been processed by the service even though no usable answer arrived
 * (lost connection after sending, timeout, 5xx, malformed 2xx). Callers of calls that must not
 * be repeated (deposit submit, sell authorize) read the trade instead of failing.
 */
export class UncertainOutcomeError extends ApiError {
  readonly mayHaveBeenProcessed = true as const;
}

/** True when the failed request may nevertheless have been processed by the service. */
export function isUncertainOutcome(err: unknown): err is UncertainOutcomeError {
  return err instanceof UncertainOutcomeError;
}

/** What went wrong in one attempt; retry.ts decides from `kind`/`status`, toApiError builds the error. */
export interface Failure {
  kind: 'http' | 'network' | 'network-permanent' | 'timeout' | 'truncated' | 'unexpected' | 'too-large';
  code: string;
  message: string;
  status: number | null;
  requestId: string | null;
  hints: string[];
  /** The service may have processed the request. */
  uncertain: boolean;
  /** Delay asked for by a Retry-After header, in ms. */
  retryAfterMs: number | null;
}

// ESC/CSI/OSC/DCS sequences, then the remaining C0/C1 controls, line separators and bidi overrides.
const ESCAPES =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?|\x9b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;

/** One printable line: terminal escapes and control characters removed, cut to `max` characters. */
export function oneLine(text: string, max = 200): string {
  const s = text.replace(ESCAPES, '').replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(s);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : s;
}

export interface ErrorBody {
  kind: 'json' | 'html' | 'text' | 'empty';
  code: string | null;
  message: string | null;
  requestId: string | null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (Array.isArray(v)) {
    const parts = v.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
    return parts.length ? parts.slice(0, 3).join('; ') : null;
  }
  return null;
}

const CODE_LIKE = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

/** Code from an RFC 7807 `type` URI: its last path segment (about:blank gives none). */
function codeFromProblemType(type: unknown): string | null {
  if (typeof type !== 'string' || type === 'about:blank') return null;
  const last = type.split(/[/#]/).filter(Boolean).pop();
  if (!last) return null;
  const code = last
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .toUpperCase();
  return code && /^[A-Z]/.test(code) ? code : null;
}

function fromJson(o: unknown): Omit<ErrorBody, 'kind'> {
  let code: string | null = null;
  let message: string | null = null;
  let requestId: string | null = null;
  if (Array.isArray(o)) o = { errors: o };
  if (!isObject(o)) return { code, message: text(o), requestId };

  const err = o.error;
  if (isObject(err)) {
    code = text(err.code);
    message = text(err.message) ?? text(err.detail) ?? text(err.description) ?? text(err.title);
    requestId = text(err.requestId) ?? text(err.request_id);
  } else if (typeof err === 'string' && err.trim() !== '') {
    const described = text(o.message) ?? text(o.error_description) ?? text(o.detail);
    if (described && CODE_LIKE.test(err)) code = err;
    else message = err;
  }
  if (Array.isArray(o.errors)) {
    const list = o.errors.filter(isObject);
    const first = list[0];
    if (first) code ??= text(first.code);
    const messages = list
      .map((e) => text(e.message) ?? text(e.detail) ?? text(e.title))
      .filter((m): m is string => m !== null);
    if (messages.length) message ??= messages.slice(0, 3).join('; ');
    if (!list.length) message ??= text(o.errors);
  }
  code ??= text(o.code) ?? text(o.errorCode) ?? text(o.error_code);
  message ??= text(o.message) ?? text(o.error_description);
  // RFC 7807 problem details: title (summary) and detail (this occurrence).
  const title = text(o.title);
  const detail = text(o.detail);
  if (title || detail) {
    message ??= title && detail && title !== detail ? `${title}: ${detail}` : (detail ?? title);
    code ??= codeFromProblemType(o.type);
  }
  requestId ??= text(o.requestId) ?? text(o.request_id) ?? text(o.requestID);
  return { code, message, requestId };
}

/** Understands every error-body layout of the contract; never returns HTML. */
export function parseErrorBody(body: string, contentType: string | null): ErrorBody {
  const trimmed = body.replace(/^\uFEFF/, '').trim();
  if (!trimmed) return { kind: 'empty', code: null, message: null, requestId: null };
  const ct = (contentType ?? '').toLowerCase();
  if (ct.includes('html') || /^<(?:!doctype|html|head|body|title|\?xml|!--)/i.test(trimmed)) {
    return { kind: 'html', code: null, message: null, requestId: null };
  }
  if (ct.includes('json') || /^[{[]/.test(trimmed)) {
    try {
      const parsed = fromJson(JSON.parse(trimmed) as unknown);
      return { kind: 'json', ...parsed };
    } catch {
      // not JSON after all: fall through to plain text
    }
  }
  const firstLine = trimmed.split(/\r?\n|\r/).find((l) => l.trim() !== '') ?? '';
  return { kind: 'text', code: null, message: firstLine, requestId: null };
}

const DEFAULT_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
  500: 'SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** Stable code for a status the service gave no code for. */
export function defaultCodeFor(status: number): string {
  return (
    DEFAULT_CODES[status] ??
    (status >= 500 ? 'SERVER_ERROR' : status >= 300 && status < 400 ? 'REDIRECT' : 'HTTP_ERROR')
  );
}

export interface HttpFailureInput {
  status: number;
  path: string;
  body: string;
  contentType: string | null;
  headerRequestId: string | null;
  location: string | null;
  retryAfterMs: number | null;
}

/** A non-2xx response as a Failure: the service's code and message where it gave them. */
export function httpFailure(r: HttpFailureInput, redact: (text: string) => string = (t) => t): Failure {
  // Secrets come out before anything is cut to length, so no cut can leave a piece behind.
  const raw = parseErrorBody(redact(r.body), r.contentType);
  const parsed = {
    ...raw,
    message: raw.message && redact(raw.message),
    code: raw.code && redact(raw.code),
    requestId: raw.requestId && redact(raw.requestId),
  };
  const reason = STATUS_CODES[r.status] ?? 'Error';
  const head = `HTTP ${r.status} ${reason}`;
  const serverMessage = parsed.message ? oneLine(parsed.message) : '';
  let message: string;
  if (r.status >= 300 && r.status < 400) {
    const to = r.location ? ` to ${oneLine(redact(r.location), 150)}` : '';
    message = `${head}: the service redirected${to}; set the base URL to the final address`;
  } else if (serverMessage) {
    message = `HTTP ${r.status}: ${serverMessage}`;
  } else if (parsed.kind === 'html') {
    message = `${head} (HTML page from a proxy?)`;
  } else if (parsed.kind === 'empty') {
    message = `${head} (empty body)`;
  } else {
    message = head;
  }
  const hints: string[] = [];
  if (r.status === 401) hints.push("check the API key: TRADER_API_KEY, or `trader config list` for the profile's");
  if (r.status === 403) {
    // Said once: where the service's message already names the scope, the hint only says where to see the key's.
    hints.push(
      /\bscope/i.test(serverMessage)
        ? '`trader me` lists the scopes of this key'
        : r.path.startsWith('/trade/')
          ? 'trade endpoints need a key with the scope trade:intents'
          : 'the API key may lack the scope this endpoint needs',
    );
  }
  const serverCode = parsed.code ? oneLine(parsed.code, 64) : '';
  const requestId = parsed.requestId
    ? oneLine(parsed.requestId, 128)
    : r.headerRequestId
      ? oneLine(redact(r.headerRequestId), 128)
      : null;
  return {
    kind: 'http',
    code: serverCode || defaultCodeFor(r.status),
    message,
    status: r.status,
    requestId: requestId || null,
    hints,
    uncertain: r.status >= 500,
    retryAfterMs: r.retryAfterMs,
  };
}

/** The final error for a failed call; `attempts` > 1 is said in the message. */
export function toApiError(f: Failure, attempts: number, uncertain: boolean): ApiError {
  const message = attempts > 1 ? `${f.message} (after ${attempts} attempts)` : f.message;
  const opts = { code: f.code, status: f.status, requestId: f.requestId, hints: f.hints, retryAfterMs: f.retryAfterMs };
  return uncertain ? new UncertainOutcomeError(message, opts) : new ApiError(message, opts);
}
