import { afterEach, describe, expect, it } from 'vitest';
import { isUncertainOutcome, type RequestLog } from '../../src/api/client.js';
import { ApiError } from '../../src/errors.js';
import { API_KEY, account, client, failure, ok, sendJson, startServer, type TestServer } from './api-helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('timeouts and limits', () => {
  it('a server that never answers: TIMEOUT, no hang', async () => {
    server = await startServer(() => {});
    const { c } = client(server, { requestTimeoutMs: 200, retry: { maxAttempts: 1 } });
    const started = Date.now();
    const e = await failure(c.me());
    expect(Date.now() - started).toBeLessThan(2000);
    expect(e).toBeInstanceOf(ApiError);
    expect([e.code, e.status, e.message]).toEqual(['TIMEOUT', null, 'the service did not answer within 0.2 s']);
    expect(isUncertainOutcome(e)).toBe(true);
  });

  it('a timed-out read is retried; a timed-out deposit submit is not', async () => {
    server = await startServer(() => {});
    const { c } = client(server, { requestTimeoutMs: 150, retry: { maxAttempts: 2 } });
    const e = await failure(c.getBuy('b1'));
    expect(server.requests).toHaveLength(2);
    expect(e.message).toBe('the service did not answer within 0.15 s (after 2 attempts)');
    const d = await failure(c.submitDeposit('b1', { signedTransaction: 'AQ' }));
    expect(server.requests).toHaveLength(3);
    expect(d.code).toBe('TIMEOUT');
    expect(isUncertainOutcome(d)).toBe(true);
  });

  it('a body that stalls: TIMEOUT', async () => {
    server = await startServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": {"accountId": "a"');
    });
    const { c } = client(server, { requestTimeoutMs: 5000, bodyTimeoutMs: 200, retry: { maxAttempts: 1 } });
    const started = Date.now();
    const e = await failure(c.me());
    expect(Date.now() - started).toBeLessThan(2000);
    expect([e.code, e.status]).toEqual(['TIMEOUT', 200]);
    expect(e.message).toMatch(/stopped sending its answer for more than 0\.2 s/);
  });

  it('a body over maxBodyBytes: RESPONSE_TOO_LARGE (declared or streamed)', async () => {
    const big = JSON.stringify(ok({ ...account, pad: 'x'.repeat(5000) }));
    server = await startServer((q, res) => {
      if (q.url!.endsWith('/me')) return sendJson(res, 200, big);
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked, no length
      res.write(big.slice(0, 2000));
      setTimeout(() => res.end(big.slice(2000)), 20);
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
    server = await startServer(() => {});
    const ac = new AbortController();
    const reason = new Error('user pressed Ctrl-C');
    const { c, clock } = client(server, { signal: ac.signal, requestTimeoutMs: 10_000 });
    setTimeout(() => ac.abort(reason), 50);
    const started = Date.now();
    const e = await failure(c.me());
    expect(e).toBe(reason);
    expect(Date.now() - started).toBeLessThan(1000);
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
    const seen = JSON.stringify([errors.map((e) => [e.message, e.code, e.requestId, e.hints, String(e), e.stack]), logs]);
    expect(errors.map((e) => e.status)).toEqual([401, 500, 200, null, null]);
    for (let i = 0; i + 8 <= API_KEY.length; i++) expect(seen).not.toContain(API_KEY.slice(i, i + 8));
    expect(seen).toContain(`${API_KEY.slice(0, 4)}…`);
  });
});
