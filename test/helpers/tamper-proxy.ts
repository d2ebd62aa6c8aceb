// A misbehaving service for refusal tests: forwards every request to a real sandbox, but lets
// a test rewrite chosen responses (a hostile deposit transaction, a lying sell message) and
// records what reached it, so a test can assert that no deposit or authorize was ever sent.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { answerProxyFailure, listenLocally } from './local-server.js';

export interface SeenRequest {
  method: string;
  path: string;
  body: unknown;
}

/** Rewrites the parsed JSON body of a response; return it (or a new value). */
export type Rewrite = (body: any, request: SeenRequest) => any;

export interface TamperProxy {
  url: string;
  seen: SeenRequest[];
  /** Rewrites responses to requests whose method and path match. */
  rewrite(method: string, pathPattern: RegExp, fn: Rewrite): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

/** Starts the proxy on 127.0.0.1 with an ephemeral port in front of `upstream`. */
export async function startTamperProxy(upstream: string): Promise<TamperProxy> {
  const rules: Array<{ method: string; pattern: RegExp; fn: Rewrite }> = [];
  const seen: SeenRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    try {
      const text = await readBody(req);
      const path = req.url ?? '/';
      const entry: SeenRequest = { method: req.method ?? 'GET', path, body: text ? JSON.parse(text) : null };
      seen.push(entry);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const key = req.headers['x-api-key'];
      if (typeof key === 'string') headers['x-api-key'] = key;
      const upstreamRes = await fetch(upstream + path, { method: req.method, headers, body: text || undefined });
      let body = await upstreamRes.text();
      const rule = rules.find((r) => r.method === req.method && r.pattern.test(path.split('?')[0]!));
      if (rule && upstreamRes.ok) body = JSON.stringify(rule.fn(JSON.parse(body), entry));
      res.writeHead(upstreamRes.status, { 'content-type': 'application/json' });
      res.end(body);
    } catch (err) {
      answerProxyFailure(res, err);
    }
  });
  return {
    url: await listenLocally(server),
    seen,
    rewrite: (method, pattern, fn) => rules.push({ method, pattern, fn }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
