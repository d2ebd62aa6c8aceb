// A service that misbehaves exactly when a test says, in front of a real sandbox: a script sees
// each request in turn and decides when it reaches the sandbox (now, later, never) and what
// the client hears (the sandbox's answer, another, or nothing: the connection dropped). Races
// between a client and a slow service are played out in a fixed order this way, without
// timers: "the first deposit lands just before its resend" is a line of the script.
import { createServer, type Server } from 'node:http';
import { listenLocally } from './local-server.js';

export interface ProxiedRequest {
  method: string;
  /** Path with the query. */
  path: string;
  body: string;
  apiKey: string;
}

export interface Answer {
  status: number;
  text: string;
}

/** `'drop'` closes the connection without an answer. */
export type Script = (
  req: ProxiedRequest,
  forward: (req: ProxiedRequest) => Promise<Answer>,
) => Promise<Answer | 'drop'>;

export interface ScriptedProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts the proxy on 127.0.0.1 with an ephemeral port in front of `upstream`. */
export async function startScriptedProxy(upstream: string, script: Script): Promise<ScriptedProxy> {
  const forward = async (req: ProxiedRequest): Promise<Answer> => {
    const res = await fetch(upstream + req.path, {
      method: req.method,
      headers: { 'content-type': 'application/json', 'x-api-key': req.apiKey },
      body: req.body || undefined,
    });
    return { status: res.status, text: await res.text() };
  };
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const request = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      body,
      apiKey: String(req.headers['x-api-key'] ?? ''),
    };
    let answer: Answer | 'drop';
    try {
      answer = await script(request, forward);
    } catch (err) {
      answer = { status: 502, text: JSON.stringify({ error: { code: 'PROXY', message: String(err) } }) };
    }
    if (answer === 'drop') {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.text);
  });
  return {
    url: await listenLocally(server),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
