// What the servers tests put in front of a sandbox (proxies, misbehaving services) have in
// common: they listen on 127.0.0.1 at a port the system picks, so files can run side by side,
// and a failure of the server itself is a 502 the client can tell from the sandbox's answers.
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `server` listening on 127.0.0.1 at an ephemeral port; resolves to its base URL. */
export async function listenLocally(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Answers that the proxy itself failed (the upstream unreachable, a rewrite that threw): 502 PROXY. */
export function answerProxyFailure(res: ServerResponse, err: unknown): void {
  res.writeHead(502, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: 'PROXY', message: String(err) } }));
}
