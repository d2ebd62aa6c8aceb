import { afterEach, describe, expect, it, vi } from 'vitest';
import { isUncertainOutcome, type RequestLog } from '../../src/api/client.js';
import { ApiError } from '../../src/domain/errors.js';
import {
  API_KEY,
  account,
  client,
  failure,
  ok,
  sendJson,
  startServer,
  type Handler,
  type TestServer,
} from './api-helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

/**
 * The transport's own timers (request and body timeouts) on vitest's fake timers, the network
 * real: a test moves time only once the request is where it wants it, so a timeout fires when
 * its time says, never because the machine was slow. `arrived(n)` resolves when the server has
 * the n-th request (0-based), `headersIn()` once the client has response headers and is
 * reading the body; `fetch` is the engine to give the client.
 */
async function fakeTimersAndServer(handler: Handler = () => {}) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const arrivals = signals();
  server = await startServer((q, res, n, body) => {
    arrivals.fire();
    handler(q, res, n, body);
  });
  const responses = signals();
  const fetch = (async (url: string, init: RequestInit) => {
    const res = await globalThis.fetch(url, init);
    responses.fire();
    return res;
  }) as typeof globalThis.fetch;
  return {
    server,
    fetch,
    arrived: (n: number) => arrivals.at(n),
    headersIn: async () => {
      await responses.at(0);
      await new Promise((resolve) => setImmediate(resolve)); // the transport arms its body timers
    },
  };
}

/** Numbered events: `at(n)` resolves once the n-th (0-based) has fired. */
function signals() {
  let count = 0;
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  return {
    fire() {
      count++;
      for (const w of waiting.filter((x) => x.n < count)) w.resolve();
    },
    at: (n: number) => (n < count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve }))),
  };
}

/** Tracks whether a promise has settled yet. */
function watch<T>(p: Promise<T>): { p: Promise<T>; settled: () => boolean } {
  let done = false;
  const tracked = p.finally(() => (done = true));
  return { p: tracked, settled: () => done };
}

/** The call's result, which must come without more (fake) time passing: a few turns of the event loop at most. */
async function settledNow<T>(call: { p: Promise<T>; settled: () => boolean }): Promise<T> {
  for (let turn = 0; turn < 100 && !call.settled(); turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(call.settled(), 'the call is still waiting once its timeout has run out').toBe(true);
  return call.p;
}

describe('timeouts and limits', () => {
  it('a server that never answers: TIMEOUT when the request timeout runs out, not before', async () => {
    const { server, arrived } = await fakeTimersAndServer();
    const { c } = client(server, { requestTimeoutMs: 200, retry: { maxAttempts: 1 } });
    const call = watch(failure(c.me()));
    await arrived(0);
    await vi.advanceTimersByTimeAsync(199);
    expect(call.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const e = await settledNow(call);
    expect(e).toBeInstanceOf(ApiError);
    expect([e.code, e.status, e.message]).toEqual(['REQUEST_TIMEOUT', null, 'the service did not answer within 0.2 s']);
    expect(isUncertainOutcome(e)).toBe(true);
  });

  it('a timed-out read is retried; a timed-out deposit submit is not', async () => {
    const { server, arrived } = await fakeTimersAndServer();
    const { c } = client(server, { requestTimeoutMs: 150, retry: { maxAttempts: 2 } });
    const read = watch(failure(c.getBuy('b1')));
    for (const n of [0, 1]) {
      await arrived(n);
      await vi.advanceTimersByTimeAsync(150);
    }
    const e = await settledNow(read);
    expect(server.requests).toHaveLength(2);
    expect(e.message).toBe('the service did not answer within 0.15 s (after 2 attempts)');
    const submit = watch(failure(c.submitDeposit('b1', { signedTransaction: 'AQ' })));
    await arrived(2);
    await vi.advanceTimersByTimeAsync(150);
    const d = await settledNow(submit);
    expect(server.requests).toHaveLength(3);
    expect(d.code).toBe('REQUEST_TIMEOUT');
    expect(isUncertainOutcome(d)).toBe(true);
  });

  it('a body that stalls: TIMEOUT once it has been idle for the body timeout', async () => {
    const { server, fetch, headersIn } = await fakeTimersAndServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": {"accountId": "a"');
    });
    const { c } = client(server, { fetch, requestTimeoutMs: 5000, bodyTimeoutMs: 200, retry: { maxAttempts: 1 } });
    const call = watch(failure(c.me()));
    await headersIn();
    await vi.advanceTimersByTimeAsync(199);
    expect(call.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const e = await settledNow(call);
    expect([e.code, e.status]).toEqual(['REQUEST_TIMEOUT', 200]);
    expect(e.message).toMatch(/stopped sending its answer for more than 0\.2 s/);
  });

  it('a body still coming when the request timeout runs out: TIMEOUT, whatever the idle timer says', async () => {
    // A service that drips its body never trips the idle timer; the whole body has the request timeout.
    const { server, fetch, headersIn } = await fakeTimersAndServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": {"accountId": "a"');
    });
    const { c } = client(server, { fetch, requestTimeoutMs: 500, bodyTimeoutMs: 60_000, retry: { maxAttempts: 1 } });
    const call = watch(failure(c.me()));
    await headersIn();
    await vi.advanceTimersByTimeAsync(499);
    expect(call.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const e = await settledNow(call);
    expect([e.code, e.status]).toEqual(['REQUEST_TIMEOUT', 200]);
    expect(e.message).toMatch(/took more than 0\.5 s to send its answer/);
    expect(isUncertainOutcome(e)).toBe(true);
  });

  it('a body over maxBodyBytes: RESPONSE_TOO_LARGE (declared or streamed)', async () => {
    const big = JSON.stringify(ok({ ...account, pad: 'x'.repeat(5000) }));
    server = await startServer((q, res) => {
      if (q.url!.endsWith('/me')) return sendJson(res, 200, big);
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked, no length
      res.write(big.slice(0, 2000));
      setImmediate(() => res.end(big.slice(2000)));
    });
    const { c } = client(server, { maxBodyBytes: 1000, retry: { maxAttempts: 1 } });
    for (const call of [() => c.me(), () => c.points()]) {
      const e = await failure(call());
      expect([e.code, e.status, e.exitCode]).toEqual(['RESPONSE_TOO_LARGE', 200, 3]);
      expect(e.message).toMatch(/^response too large/);
    }
    expect(await client(server, { maxBodyBytes: 100_000 }).c.me()).toMatchObject({ pad: expect.any(String) });
  });

  it('a truncated body: UNEXPECTED_RESPONSE', async () => {
    server = await startServer((q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"data": {"accountId": "a", ');
      setTimeout(() => q.socket.destroy(), 10);
    });
    const { c } = client(server, { retry: { maxAttempts: 1 } });
    const e = await failure(c.me());
    expect([e.code, e.status]).toEqual(['UNEXPECTED_RESPONSE', 200]);
    expect(e.message).toMatch(/cut off/);
    expect(isUncertainOutcome(e)).toBe(true);
  });
});

describe('abort', () => {
  it('the signal stops a hung request at once with its own reason, no retry', async () => {
    const ac = new AbortController();
    const reason = new Error('user pressed Ctrl-C');
    // The user gives up once the request is in the server's hands (the 10 s timeout never comes into it).
    server = await startServer(() => ac.abort(reason));
    const { c, clock } = client(server, { signal: ac.signal, requestTimeoutMs: 10_000 });
    const e = await failure(c.me());
    expect(e).toBe(reason);
    expect(server.requests).toHaveLength(1);
    expect(clock.delays).toEqual([]);
  });

  it('an aborted signal sends nothing; an abort during backoff stops the retries', async () => {
    server = await startServer((_q, res) => sendJson(res, 503, {}, { 'retry-after': '1' }));
    const ac = new AbortController();
    ac.abort('stop');
    await expect(client(server, { signal: ac.signal }).c.me()).rejects.toBe('stop');
    expect(server.requests).toHaveLength(0);

    const ac2 = new AbortController();
    const { c, clock } = client(server, { signal: ac2.signal });
    clock.sleep = async (_ms, signal) => {
      ac2.abort('stop2');
      throw signal?.reason;
    };
    await expect(c.me()).rejects.toBe('stop2');
    expect(server.requests).toHaveLength(1);
  });
});

describe('the API key stays secret', () => {
  it('never appears in any error message, hint or onRequest log', async () => {
    server = await startServer((q, res, n) => {
      const echo = `${q.headers['x-api-key']}`;
      if (n % 4 === 0) sendJson(res, 401, { error: { code: echo, message: `key ${echo} revoked`, requestId: echo } });
      else if (n % 4 === 1) {
        res.writeHead(500, { 'content-type': 'text/plain', 'x-request-id': echo });
        res.end(`${echo}\n${echo}`);
      } else if (n % 4 === 2) sendJson(res, 200, { data: { [echo]: 1 }, requestId: echo });
      else q.socket.destroy();
    });
    const logs: RequestLog[] = [];
    const { c } = client(server, { onRequest: (l) => logs.push(l), retry: { maxAttempts: 1 } });
    const errors = [];
    for (let i = 0; i < 4; i++) errors.push(await failure(c.me()));
    errors.push(await failure(client({ url: 'http://127.0.0.1:1' }, { retry: { maxAttempts: 1 } }).c.me()));
    const seen = JSON.stringify([
      errors.map((e) => [e.message, e.code, e.requestId, e.hints, String(e), e.stack]),
      logs,
    ]);
    expect(errors.map((e) => e.status)).toEqual([401, 500, 200, null, null]);
    for (let i = 0; i + 8 <= API_KEY.length; i++) expect(seen).not.toContain(API_KEY.slice(i, i + 8));
    expect(seen).toContain(`${API_KEY.slice(0, 4)}…`);
  });
});
