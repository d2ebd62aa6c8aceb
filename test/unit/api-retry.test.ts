import { afterEach, describe, expect, it } from 'vitest';
import { isUncertainOutcome, type RequestLog } from '../../src/api/client.js';
import { DEFAULT_RETRY_POLICY, backoffDelay, parseRetryAfter } from '../../src/api/retry.js';
import { ApiError } from '../../src/domain/errors.js';
import {
  account,
  authorization,
  client,
  deposit,
  failure,
  fakeClock,
  intent,
  ok,
  sendJson,
  startServer,
  type TestServer,
} from './api-helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Fails the first `times` requests with `status` (and headers), then answers `body`. */
function flaky(times: number, status: number, body: unknown, headers: Record<string, string> = {}) {
  return startServer((_q, res, n) => {
    if (n < times) sendJson(res, status, { error: { code: 'BUSY', message: 'try later' } }, headers);
    else sendJson(res, 200, body);
  });
}

describe('retries', () => {
  it('503 with Retry-After seconds: waits what the server asked', async () => {
    server = await flaky(1, 503, ok(account), { 'retry-after': '2' });
    const { c, clock } = client(server);
    expect(await c.me()).toEqual(account);
    expect(server.requests).toHaveLength(2);
    expect(clock.delays).toEqual([2000]);
  });

  it('Retry-After as an HTTP-date, and capped by maxRetryAfterMs', async () => {
    const clock = fakeClock(Date.parse('2026-01-01T00:00:00Z'));
    server = await flaky(1, 503, ok(account), { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' });
    await client(server, { clock }).c.me();
    expect(clock.delays).toEqual([5000]);
    await server.close();
    server = await flaky(1, 429, ok(account), { 'retry-after': '3600' });
    const capped = fakeClock();
    await client(server, { clock: capped, retry: { maxTotalMs: 120_000 } }).c.me();
    expect(capped.delays).toEqual([DEFAULT_RETRY_POLICY.maxRetryAfterMs]);
  });

  it('429 and 502/504 without Retry-After: exponential backoff with full jitter', async () => {
    server = await flaky(3, 429, ok(account));
    const { c, clock } = client(server, { random: () => 0.5 });
    await c.me();
    expect(server.requests).toHaveLength(4);
    expect(clock.delays).toEqual([125, 250, 500]);
    for (const status of [502, 504]) {
      await server.close();
      server = await flaky(1, status, ok(account));
      const r = client(server, { random: () => 1 });
      await r.c.me();
      expect(r.clock.delays).toEqual([250]);
    }
  });

  it('connection reset is retried', async () => {
    server = await startServer((q, res, n) => {
      if (n === 0) q.socket.destroy();
      else sendJson(res, 200, ok(account));
    });
    const { c, clock } = client(server);
    expect(await c.me()).toEqual(account);
    expect(server.requests).toHaveLength(2);
    expect(clock.delays).toHaveLength(1);
  });

  it('creates are retried with the same body (same idempotencyKey)', async () => {
    server = await flaky(2, 503, ok({ intent, deposit }));
    const { c } = client(server);
    await c.createBuy({ mint: 'm', amountLamports: '5', idempotencyKey: 'idem-9' });
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((r) => r.body)).size).toBe(1);
    expect(JSON.parse(server.requests[2]!.body).idempotencyKey).toBe('idem-9');
    await server.close();
    server = await flaky(1, 502, ok({ authorization }));
    await client(server).c.createSell({ mint: 'm', amount: '5', idempotencyKey: 'k' });
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ['submitDeposit', (c: any) => c.submitDeposit('b1', { signedTransaction: 'AQ' })],
    ['authorizeSell', (c: any) => c.authorizeSell('sell_1', { signature: 's' })],
    ['cancelBuy', (c: any) => c.cancelBuy('b1')],
  ])('%s is never retried; a 503 is flagged uncertain', async (_name, call) => {
    server = await flaky(5, 503, ok({}), { 'retry-after': '1' });
    const { c, clock } = client(server);
    const e = await failure(call(c));
    expect(server.requests).toHaveLength(1);
    expect(clock.delays).toEqual([]);
    expect(e.code).toBe('BUSY');
    expect(e.status).toBe(503);
    expect(isUncertainOutcome(e)).toBe(true);
    expect(e.mayHaveBeenProcessed).toBe(true);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).not.toMatch(/attempts/);
  });

  it('submitDeposit after a lost connection is not retried and is uncertain', async () => {
    server = await startServer((q) => q.socket.destroy());
    const e = await failure(client(server).c.submitDeposit('b1', { signedTransaction: 'AQ' }));
    expect(server.requests).toHaveLength(1);
    expect(e.code).toBe('NETWORK_ERROR');
    expect(e.message).toMatch(/^the connection to 127\.0\.0\.1:\d+ was closed before the service answered$/);
    expect(isUncertainOutcome(e)).toBe(true);
  });

  it('4xx is not retried', async () => {
    server = await flaky(5, 400, ok(account));
    const { c, clock } = client(server);
    const e = await failure(c.me());
    expect([e.status, server.requests.length, clock.delays.length]).toEqual([400, 1, 0]);
    expect(isUncertainOutcome(e)).toBe(false);
  });

  it('attempts are bounded and the error says how many were made', async () => {
    server = await flaky(100, 503, ok(account));
    const { c, clock } = client(server);
    const e = await failure(c.me());
    expect(server.requests).toHaveLength(4);
    expect(clock.delays).toHaveLength(3);
    expect(e.message).toBe('HTTP 503: try later (after 4 attempts)');
    expect(e.code).toBe('BUSY');
    expect(e.status).toBe(503);
  });

  it('total time is bounded: never sleeps past maxTotalMs', async () => {
    server = await flaky(100, 503, ok(account), { 'retry-after': '4' });
    const { c, clock } = client(server, { retry: { maxAttempts: 10, maxTotalMs: 10_000 } });
    const e = await failure(c.me());
    expect(clock.delays).toEqual([4000, 4000]);
    expect(server.requests).toHaveLength(3);
    expect(e.message).toMatch(/after 3 attempts\)$/);
  });

  it('onRequest logs every attempt without the key', async () => {
    server = await flaky(1, 503, ok(account), { 'x-request-id': 'rid-1' });
    const logs: RequestLog[] = [];
    const { c } = client(server, { onRequest: (l) => logs.push(l) });
    await c.listPositions({ cursor: 'c+1' }).catch(() => {});
    await c.me();
    expect(logs.map((l) => [l.method, l.path, l.status, l.attempt, l.error ?? null, l.requestId])).toEqual([
      ['GET', '/positions?cursor=c%2B1', 503, 1, 'BUSY', 'rid-1'],
      ['GET', '/positions?cursor=c%2B1', 200, 2, 'UNEXPECTED_RESPONSE', 'req_ok'],
      ['GET', '/me', 200, 1, null, 'req_ok'],
    ]);
    for (const l of logs) expect(typeof l.ms).toBe('number');
  });

  it('onRequest gets a printable request id', async () => {
    server = await startServer((_q, res) => sendJson(res, 200, { data: account, requestId: 'r\x1b[2J-1\n' }));
    const logs: RequestLog[] = [];
    const data = await client(server, { onRequest: (l) => logs.push(l) }).c.me();
    expect(data).toEqual(account);
    expect(logs[0]!.requestId).toBe('r-1');
  });
});

describe('policy pieces', () => {
  it('backoffDelay: random × min(max, base × 2^n)', () => {
    const p = { ...DEFAULT_RETRY_POLICY };
    expect([0, 1, 2, 5, 10].map((n) => backoffDelay(p, n, () => 1))).toEqual([250, 500, 1000, 8000, 8000]);
    expect(backoffDelay(p, 3, () => 0)).toBe(0);
  });
  it('parseRetryAfter', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('-3', now)).toBeNull();
  });
});
