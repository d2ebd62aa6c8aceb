// A proxy whose pagination cursors are full of characters that must be URL-encoded
// (`+ / = & ? # % space é`), so a test can check that the client encodes them: each cursor the
// sandbox issues is handed out with a hostile suffix, and a request whose decoded cursor is not
// one handed out gets a 400. The raw request URLs are recorded.
import { createServer, type Server } from 'node:http';
import { answerProxyFailure, listenLocally } from './local-server.js';

export const HOSTILE_SUFFIX = '+/= &?#%é';

export interface CursorProxy {
  url: string;
  /** Raw request targets as received (path and query, undecoded). */
  rawUrls: string[];
  /** Cursors handed out, in order. */
  issued: string[];
  /** When set, the request with this 1-based number (counted in rawUrls) gets a 500. */
  failRequest: number | null;
  close(): Promise<void>;
}

/** Starts the proxy on 127.0.0.1 with an ephemeral port in front of `upstream` (the service root). */
export async function startCursorProxy(upstream: string): Promise<CursorProxy> {
  const rawUrls: string[] = [];
  const issued: string[] = [];
  const proxy: CursorProxy = {
    url: '',
    rawUrls,
    issued,
    failRequest: null,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer(async (req, res) => {
    const raw = req.url ?? '/';
    rawUrls.push(raw);
    if (proxy.failRequest === rawUrls.length) {
      res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': 'req_proxy_fail' });
      res.end(JSON.stringify({ error: { code: 'PAGE_FAILED', message: 'this page failed' } }));
      return;
    }
    const url = new URL(raw, 'http://proxy.invalid');
    const cursor = url.searchParams.get('cursor');
    if (cursor !== null) {
      if (!issued.includes(cursor) || !cursor.endsWith(HOSTILE_SUFFIX)) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { code: 'BAD_CURSOR_ENCODING', message: `cursor arrived as ${JSON.stringify(cursor)}` },
          }),
        );
        return;
      }
      url.searchParams.set('cursor', cursor.slice(0, -HOSTILE_SUFFIX.length));
    }
    const headers: Record<string, string> = {};
    const key = req.headers['x-api-key'];
    if (typeof key === 'string') headers['x-api-key'] = key;
    try {
      const up = await fetch(upstream + url.pathname + url.search, { method: req.method, headers });
      let body = await up.text();
      if (up.ok) {
        const parsed = JSON.parse(body) as { pagination?: { nextCursor: string | null } };
        if (parsed.pagination && typeof parsed.pagination.nextCursor === 'string') {
          parsed.pagination.nextCursor += HOSTILE_SUFFIX;
          issued.push(parsed.pagination.nextCursor);
          body = JSON.stringify(parsed);
        }
      }
      res.writeHead(up.status, {
        'content-type': 'application/json',
        'x-request-id': up.headers.get('x-request-id') ?? '',
      });
      res.end(body);
    } catch (err) {
      answerProxyFailure(res, err);
    }
  });
  proxy.url = await listenLocally(server);
  return proxy;
}
