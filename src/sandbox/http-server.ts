// node:http front end: routing, the JSON envelope, errors, faults and the request log.
// Every handler runs inside try/catch, so bad input is always a 4xx JSON answer, never a crash.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { API_PREFIX } from '../api/types.js';
import { authenticate, keyLabel, requireScope } from './accounts.js';
import { bodyForLog, parseJsonBody, readBody } from './body.js';
import { iso } from './offset-clock.js';
import { handleControl } from './control.js';
import { HttpError } from './sandbox-error.js';
import { type FaultStore, writeFault } from './faults.js';
import { newRequestId } from './ids.js';
import { queryObject, type RequestLog } from './request-log.js';
import { matchApiRoute } from './routes/api.js';
import { handleRpc } from './rpc.js';
import { advance } from './scheduler.js';
import type { World } from './world.js';

export interface ServerDeps {
  world: World;
  faults: FaultStore;
  log: RequestLog;
  reset(): void;
  /** Trade the portfolio history for the main account (POST /_sandbox/seed-portfolio). */
  seedHistory?(): unknown;
  logError(message: string): void;
}

interface Reply {
  status: number;
  payload: unknown;
  /** The body already written as JSON (the RPC's, with exact big integers); else payload is. */
  text?: string;
  headers?: Record<string, string>;
}

const CONTROL_PREFIX = '/_sandbox';
/** The simulated chain's Solana JSON-RPC endpoint. */
export const RPC_PATH = '/rpc';

/** Create the sandbox HTTP server (not yet listening). */
export function createSandboxServer(deps: ServerDeps): Server {
  const server = createServer((req, res) => {
    handle(deps, req, res).catch((err: unknown) => {
      deps.logError(`sandbox: unhandled error: ${(err as Error)?.stack ?? String(err)}`);
      if (!res.headersSent)
        send(res, newRequestId(), errorReply(new HttpError(500, 'INTERNAL_ERROR', 'internal sandbox error'), ''));
      else res.destroy();
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  return server;
}

function send(res: ServerResponse, requestId: string, reply: Reply): void {
  if (res.destroyed) return;
  const body = reply.text ?? JSON.stringify(reply.payload);
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    ...reply.headers,
  });
  res.end(body);
}

function errorReply(err: HttpError, requestId: string): Reply {
  return {
    status: err.status,
    payload: { error: { code: err.code, message: err.message, ...err.extra }, requestId },
    headers: err.headers,
  };
}

function toHttpError(err: unknown, deps: ServerDeps): HttpError {
  if (err instanceof HttpError) return err;
  deps.logError(`sandbox: internal error: ${(err as Error)?.stack ?? String(err)}`);
  return new HttpError(500, 'INTERNAL_ERROR', 'internal sandbox error');
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = newRequestId();
  const started = Date.now();
  const method = (req.method ?? 'GET').toUpperCase();
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  } catch {
    await readBody(req);
    return send(
      res,
      requestId,
      errorReply(new HttpError(400, 'INVALID_URL', 'the request URL is malformed'), requestId),
    );
  }
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;

  if (path === RPC_PATH) {
    const { raw } = await readBody(req, 1024 * 1024);
    if (method !== 'POST')
      return send(res, requestId, {
        status: 405,
        payload: { jsonrpc: '2.0', error: { code: -32600, message: 'use POST' }, id: null },
        headers: { allow: 'POST' },
      });
    advance(deps.world);
    try {
      return send(res, requestId, { status: 200, payload: null, text: handleRpc(deps.world, raw) });
    } finally {
      deps.world.onChange();
    }
  }

  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
    const { raw, tooLarge } = await readBody(req, 8 * 1024 * 1024);
    return send(
      res,
      requestId,
      control(deps, method, path.slice(CONTROL_PREFIX.length), url.searchParams, raw, tooLarge, requestId),
    );
  }

  const fault = deps.faults.take(method, path);
  const record = (status: number | null, raw: Buffer | null) =>
    deps.log.add({
      time: iso(deps.world.now()),
      method,
      path,
      query: queryObject(url.searchParams),
      body: raw ? bodyForLog(raw) : null,
      status,
      requestId,
      keyPrefix: keyLabel(deps.world, req.headers['x-api-key']),
      fault: fault?.kind ?? null,
      durationMs: Date.now() - started,
    });

  if (fault?.kind === 'drop-before') {
    record(null, null);
    req.socket.destroy();
    return;
  }
  const { raw, tooLarge } = await readBody(req);
  if (fault && (fault.kind === 'status' || fault.kind === 'truncated' || fault.kind === 'huge')) {
    record(writeFault(res, fault, requestId), raw);
    return;
  }
  if (fault?.kind === 'latency') await new Promise((r) => setTimeout(r, fault.ms ?? 1_000));

  const reply = api(deps, method, path, url.searchParams, req.headers, raw, tooLarge, requestId);
  record(reply.status, raw);
  if (fault?.kind === 'drop-after') {
    // The request was processed (state changed); the client never hears about it.
    res.socket?.destroy();
    return;
  }
  send(res, requestId, reply);
}

function api(
  deps: ServerDeps,
  method: string,
  path: string,
  query: URLSearchParams,
  headers: IncomingHttpHeaders,
  raw: Buffer,
  tooLarge: boolean,
  requestId: string,
): Reply {
  const { world } = deps;
  let advanced = false;
  try {
    if (!path.startsWith(`${API_PREFIX}/`)) throw new HttpError(404, 'ROUTE_NOT_FOUND', `no route ${method} ${path}`);
    const found = matchApiRoute(method, path.slice(API_PREFIX.length));
    if (!('route' in found)) {
      if (found.allowed.length > 0) {
        throw new HttpError(
          405,
          'METHOD_NOT_ALLOWED',
          `${method} is not allowed on ${path}`,
          {},
          { allow: found.allowed.join(', ') },
        );
      }
      throw new HttpError(404, 'ROUTE_NOT_FOUND', `no route ${method} ${path}`);
    }
    const owner = authenticate(world, headers['x-api-key']);
    if (found.route.scope) requireScope(owner, found.route.scope);
    const body = method === 'POST' ? parseJsonBody(headers['content-type'], raw, tooLarge) : {};
    advanced = true;
    advance(world);
    const result = found.route.handle({ world, owner, params: found.params, query, body });
    const payload: Record<string, unknown> = { data: result.data };
    if (result.pagination) payload.pagination = result.pagination;
    payload.requestId = requestId;
    return { status: result.status ?? 200, payload };
  } catch (err) {
    return errorReply(toHttpError(err, deps), requestId);
  } finally {
    if (advanced) world.onChange();
  }
}

function control(
  deps: ServerDeps,
  method: string,
  sub: string,
  query: URLSearchParams,
  raw: Buffer,
  tooLarge: boolean,
  requestId: string,
): Reply {
  try {
    if (tooLarge) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'control bodies are limited to 8 MiB');
    let body: unknown;
    const text = raw.toString('utf8').trim();
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        throw new HttpError(400, 'INVALID_JSON', 'the request body is not valid JSON');
      }
    }
    advance(deps.world);
    const r = handleControl(method, sub, {
      world: deps.world,
      faults: deps.faults,
      log: deps.log,
      reset: deps.reset,
      seedHistory: deps.seedHistory,
      body,
      query,
    });
    return { status: r.status, payload: { data: r.data, requestId } };
  } catch (err) {
    return errorReply(toHttpError(err, deps), requestId);
  } finally {
    deps.world.onChange();
  }
}
