// The HTTP engine (when no proxy applies): node:http / node:https behind the FetchFn shape the
// transport uses. Chosen over the built-in fetch by measurement (docs/bench.md): the built-in
// fetch compiles undici's WebAssembly HTTP parser on first use, and at exit V8 waits for that
// background compile — ~35 ms more before the first answer and ~100 ms more at exit, here.
// Idle keep-alive sockets are unref'd by Node's agent (and main.ts exits at once anyway).
import type { IncomingMessage } from 'node:http';
import type { FetchFn, FetchResponse } from './transport.js';

/** One request through node:http(s); redirects are never followed (like redirect: 'manual'). */
export const nodeHttpFetch: FetchFn = (url, init) =>
  new Promise<FetchResponse>((resolve, reject) => {
    const target = new URL(url);
    const lib = target.protocol === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http');
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(init.body));
    const req = lib.request(target, { method: init.method, headers, signal: init.signal }, (res: IncomingMessage) => {
      resolve({
        status: res.statusCode ?? 0,
        headers: {
          get(name) {
            const v = res.headers[name.toLowerCase()];
            return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
          },
        },
        body: bodyOf(res),
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });

/**
 * The body as the little of a web ReadableStream the transport uses (getReader, read, cancel),
 * over the stream's own async iterator: Readable.toWeb would load the web streams
 * implementation, ~9 ms at start-up here.
 */
function bodyOf(res: IncomingMessage): ReadableStream<Uint8Array> {
  const reader = {
    iterator: res[Symbol.asyncIterator]() as AsyncIterator<Buffer>,
    read: () => reader.iterator.next() as Promise<{ done: boolean; value?: Uint8Array }>,
    cancel: async () => {
      res.destroy();
    },
  };
  return { getReader: () => reader } as unknown as ReadableStream<Uint8Array>;
}
