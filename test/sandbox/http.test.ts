import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { completeBuy, newKey, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});
beforeEach(async () => {
  await sb.control('/reset', {});
});

describe('envelope and routing', () => {
  it('wraps data with requestId and sets x-request-id', async () => {
    const res = await sb.call('GET', '/me');
    expect(res.status).toBe(200);
    expect(res.body.requestId).toMatch(/^req_/);
    expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
    expect(res.body.data).toMatchObject({
      walletAddress: sb.walletAddress,
      apiKey: { prefix: sb.apiKey.slice(0, 16), scopes: ['trade:intents', 'read:account', 'read:public'] },
    });
    expect(JSON.stringify(res.body)).not.toContain(sb.apiKey);
  });

  it('answers unknown routes and methods with JSON 404 / 405', async () => {
    const unknown = await sb.call('GET', '/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('ROUTE_NOT_FOUND');
    expect(unknown.headers.get('x-request-id')).toBe(unknown.body.requestId);
    const root = await fetch(`${sb.url}/`);
    expect(root.status).toBe(404);
    const wrong = await sb.call('DELETE', '/positions');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
  });
});

describe('authentication and scopes', () => {
  it('401 without a key or with an unknown one', async () => {
    const none = await sb.call('GET', '/me', { key: null });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('MISSING_API_KEY');
    const bad = await sb.call('GET', '/positions', { key: 'sk_sandbox_nope' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('INVALID_API_KEY');
  });

  it('403 on every trade endpoint for a read-only key; reads work', async () => {
    const key = sb.readOnlyApiKey;
    const calls: Array<[string, string]> = [
      ['POST', '/trade/buys'],
      ['POST', '/trade/buys/x/deposit'],
      ['GET', '/trade/buys/x'],
      ['POST', '/trade/buys/x/cancel'],
      ['POST', '/trade/sells'],
      ['POST', '/trade/sells/sell_x/authorize'],
      ['GET', '/trade/sells/sell_x'],
    ];
    for (const [method, path] of calls) {
      const res = await sb.call(method, path, { key, body: method === 'POST' ? {} : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
    for (const path of ['/positions', '/activity', '/holdings', '/me', '/points']) {
      expect((await sb.call('GET', path, { key })).status, path).toBe(200);
    }
    expect((await sb.call('GET', '/me', { key })).body.data.apiKey.scopes).toEqual(['read:account', 'read:public']);
  });

  it("404 for another account's buy, sell, trade and position", async () => {
    const { intent, positionId } = await completeBuy(sb);
    const sell = await sb.call('POST', '/trade/sells', {
      body: { mint: sb.tokens[0]!.mint, amount: '1000', idempotencyKey: newKey() },
    });
    const sellId = sell.body.data.authorization.id;
    const other = { key: sb.otherApiKey };
    for (const path of [
      `/trade/buys/${intent.id}`,
      `/trades/${intent.id}`,
      `/trades/${intent.id}/status`,
      `/positions/${positionId}`,
      `/trade/sells/${sellId}`,
    ]) {
      const res = await sb.call('GET', path, other);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await sb.call('POST', `/trade/buys/${intent.id}/cancel`, { ...other, body: {} })).status).toBe(404);
    expect((await sb.call('GET', '/positions', other)).body.data).toEqual([]);
    expect((await sb.call('GET', '/me', other)).body.data.walletAddress).not.toBe(sb.walletAddress);
  });
});

describe('bad input is a 4xx JSON error, never a crash', () => {
  const mint = () => sb.tokens[0]!.mint;
  it.each([
    ['malformed JSON', { rawBody: '{"mint":' }, 400, 'INVALID_JSON'],
    ['array body', { rawBody: '[1,2]' }, 400, 'INVALID_BODY'],
    [
      'wrong content type',
      { rawBody: 'mint=x', contentType: 'application/x-www-form-urlencoded' },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['missing fields', { body: {} }, 400, 'VALIDATION_ERROR'],
  ])('%s', async (_name, opts, status, code) => {
    const res = await sb.call('POST', '/trade/buys', opts as any);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.message).toEqual(expect.any(String));
  });

  it('wrong field types and values', async () => {
    const base = () => ({ mint: mint(), amountLamports: '100000000', idempotencyKey: newKey() });
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ amountLamports: 100000000 }, 400, 'VALIDATION_ERROR'],
      [{ amountLamports: '-5' }, 400, 'VALIDATION_ERROR'],
      [{ amountLamports: '1.5' }, 400, 'VALIDATION_ERROR'],
      [{ amountLamports: '0' }, 400, 'VALIDATION_ERROR'],
      [{ amountLamports: '18446744073709551616' }, 400, 'VALIDATION_ERROR'],
      [{ amountLamports: '999' }, 400, 'AMOUNT_TOO_SMALL'],
      [{ mint: 'not-a-mint' }, 400, 'VALIDATION_ERROR'],
      [{ mint: 42 }, 400, 'VALIDATION_ERROR'],
      [{ mint: '11111111111111111111111111111111' }, 422, 'UNKNOWN_TOKEN'],
      [{ idempotencyKey: '' }, 400, 'VALIDATION_ERROR'],
      [{ idempotencyKey: 'x'.repeat(129) }, 400, 'VALIDATION_ERROR'],
      [{ slippageBps: 10001 }, 400, 'VALIDATION_ERROR'],
      [{ slippageBps: 1.5 }, 400, 'VALIDATION_ERROR'],
      [{ slippageBps: '100' }, 400, 'VALIDATION_ERROR'],
    ];
    for (const [patch, status, code] of cases) {
      const res = await sb.call('POST', '/trade/buys', { body: { ...base(), ...patch } });
      expect([res.status, res.body.error?.code], JSON.stringify(patch)).toEqual([status, code]);
    }
    const sell = await sb.call('POST', '/trade/sells', { body: { mint: mint(), amount: 5, idempotencyKey: newKey() } });
    expect(sell.status).toBe(400);
    const auth = await sb.call('POST', '/trade/sells/sell_nope/authorize', { body: { signature: 'x' } });
    expect(auth.status).toBe(404);
  });

  it('oversized bodies are 413', async () => {
    const res = await sb.call('POST', '/trade/buys', { rawBody: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('bad limit, status, type and cursor are 400', async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['/positions', { limit: '0' }, 'INVALID_LIMIT'],
      ['/positions', { limit: '101' }, 'INVALID_LIMIT'],
      ['/positions', { limit: 'ten' }, 'INVALID_LIMIT'],
      ['/activity', { limit: '2.5' }, 'INVALID_LIMIT'],
      ['/positions', { status: 'opened' }, 'VALIDATION_ERROR'],
      ['/activity', { type: 'buy,swap' }, 'VALIDATION_ERROR'],
      ['/activity', { type: '' }, 'VALIDATION_ERROR'],
      ['/positions', { cursor: 'garbage!' }, 'INVALID_CURSOR'],
      ['/activity', { cursor: Buffer.from('positions:0').toString('base64url') }, 'INVALID_CURSOR'],
      ['/activity', { cursor: Buffer.from('activity:99999').toString('base64url') }, 'INVALID_CURSOR'],
    ];
    for (const [path, query, code] of cases) {
      const res = await sb.call('GET', path, { query });
      expect([res.status, res.body.error?.code], `${path} ${JSON.stringify(query)}`).toEqual([400, code]);
    }
  });
});

describe('pagination', () => {
  it('walks every activity entry once, newest first, across pages; filters by type', async () => {
    await sb.control('/seed', { activity: 237 });
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await sb.call('GET', '/activity', { query: { limit: 50, ...(cursor ? { cursor } : {}) } });
      expect(res.status).toBe(200);
      seen.push(...res.body.data);
      cursor = res.body.pagination.nextCursor;
      expect(res.body.pagination.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toHaveLength(237);
    expect(new Set(seen.map((e) => e.id)).size).toBe(237);
    const times = seen.map((e) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const buys = await sb.call('GET', '/activity', { query: { type: 'buy,sell', limit: 100 } });
    expect(buys.body.data.every((e: any) => e.type === 'buy' || e.type === 'sell')).toBe(true);
    expect(buys.body.data).toHaveLength(95);
    expect(buys.body.pagination).toEqual({ nextCursor: null, hasMore: false });
  });

  it('pages positions with a status filter and the default limit of 25', async () => {
    await sb.control('/seed', { positions: 30, positionStatus: 'open' });
    await sb.control('/seed', { positions: 40 });
    const first = await sb.call('GET', '/positions');
    expect(first.body.data).toHaveLength(25);
    const open: any[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await sb.call('GET', '/positions', {
        query: { status: 'open', limit: 7, ...(cursor ? { cursor } : {}) },
      });
      open.push(...res.body.data);
      cursor = res.body.pagination.nextCursor;
    } while (cursor);
    expect(open).toHaveLength(30);
    expect(new Set(open.map((p) => p.id)).size).toBe(30);
    expect(open.every((p) => p.status === 'open')).toBe(true);
  });

  it('pages through 10,000+ activity entries and 1,000+ positions, and sums holdings over all of them', async () => {
    // How fast is not asserted (that would depend on the machine); that every entry comes back once is.
    await sb.control('/seed', { activity: 12_000, positions: 1_500, positionStatus: 'open' });
    let cursor: string | null = null;
    const ids = new Set<string>();
    do {
      const res: any = await sb.call('GET', '/activity', { query: { limit: 100, ...(cursor ? { cursor } : {}) } });
      for (const e of res.body.data) ids.add(e.id);
      cursor = res.body.pagination.nextCursor;
    } while (cursor);
    expect(ids.size).toBe(12_000);
    const holdings = await sb.call('GET', '/holdings');
    expect(holdings.body.data.reduce((n: number, h: any) => n + h.positionIds.length, 0)).toBe(1_500);
  });
});

describe('points', () => {
  it('rank is null with no points, and set once points exist', async () => {
    const before = (await sb.call('GET', '/points')).body.data;
    expect(before).toMatchObject({
      totalPoints: 0,
      rank: null,
      completedSwaps: 0,
      volumeUsd: '0.00',
      pointsPerUsd: 50,
    });
    expect(before.participants).toBeGreaterThan(10);
    await completeBuy(sb);
    const after = (await sb.call('GET', '/points')).body.data;
    expect(after.rank).toBeGreaterThanOrEqual(1);
    expect(after.participants).toBe(before.participants + 1);
  });
});

describe('faults and the request log', () => {
  it('a status burst answers 503 with Retry-After, then normal service resumes', async () => {
    await sb.control('/faults', {
      faults: [{ match: { method: 'GET', path: '/me' }, count: 2, kind: 'status', status: 503, retryAfter: 1 }],
    });
    for (let i = 0; i < 2; i++) {
      const res = await sb.call('GET', '/me');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
    }
    expect((await sb.call('GET', '/me')).status).toBe(200);
  });

  it('status faults can carry any body and content type (HTML from a proxy, 200 with bad JSON)', async () => {
    await sb.control('/faults', [
      {
        match: { path: '/points' },
        kind: 'status',
        status: 502,
        body: '<html>Bad gateway</html>',
        contentType: 'text/html',
      },
      { match: { path: '/points' }, kind: 'status', status: 200, body: '{"data":', contentType: 'application/json' },
    ]);
    const html = await sb.call('GET', '/points');
    expect([html.status, html.headers.get('content-type'), html.text]).toEqual([
      502,
      'text/html',
      '<html>Bad gateway</html>',
    ]);
    const bad = await sb.call('GET', '/points');
    expect(bad.status).toBe(200);
    expect(bad.body).toBeUndefined();
  });

  it('drop-after processes the request (the buy exists) but never answers', async () => {
    await sb.control('/faults', { match: { method: 'POST', path: '/trade/buys', exact: true }, kind: 'drop-after' });
    const key = newKey();
    const body = { mint: sb.tokens[0]!.mint, amountLamports: '100000000', idempotencyKey: key };
    await expect(sb.call('POST', '/trade/buys', { body })).rejects.toThrow();
    const replay = await sb.call('POST', '/trade/buys', { body });
    expect(replay.status).toBe(200);
    expect((await sb.call('GET', '/positions')).body.data).toHaveLength(1);
  });

  it('drop-before never processes; truncated bodies stop short; huge bodies are huge', async () => {
    await sb.control('/faults', [
      { match: { method: 'POST', path: '/trade/buys' }, kind: 'drop-before' },
      { match: { path: '/me' }, kind: 'truncated' },
      { match: { path: '/holdings' }, kind: 'huge', megabytes: 3 },
    ]);
    const body = { mint: sb.tokens[0]!.mint, amountLamports: '100000000', idempotencyKey: newKey() };
    await expect(sb.call('POST', '/trade/buys', { body })).rejects.toThrow();
    expect((await sb.call('GET', '/positions')).body.data).toHaveLength(0);
    await expect(sb.call('GET', '/me')).rejects.toThrow();
    const huge = await fetch(`${sb.api}/holdings`, { headers: { 'x-api-key': sb.apiKey } });
    const text = await huge.text();
    expect(text.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(JSON.parse(text).data.length).toBeGreaterThan(3000);
  });

  it('latency holds the answer for its ms, then processes the request', async () => {
    // The sandbox's wait runs on vitest's fake timers: the answer is checked to come no sooner
    // than the fault says and as soon as it does, without a real wait.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // The delays armed, seen through a wrapper of the fake setTimeout: not vi.spyOn, whose restore
    // left a fake setTimeout behind for the next file of the worker (vitest isolate: false).
    const fakeSetTimeout = globalThis.setTimeout;
    const armed: unknown[] = [];
    globalThis.setTimeout = ((fn: () => void, ms?: number, ...rest: unknown[]) => {
      armed.push(ms);
      return fakeSetTimeout(fn, ms, ...rest);
    }) as typeof setTimeout;
    try {
      await sb.control('/faults', {
        match: { method: 'POST', path: '/trade/buys', exact: true },
        kind: 'latency',
        ms: 150,
      });
      const body = { mint: sb.tokens[0]!.mint, amountLamports: '100000000', idempotencyKey: newKey() };
      let answered = false;
      const created = sb.call('POST', '/trade/buys', { body }).finally(() => (answered = true));
      // The request is in the sandbox's hands once its wait is armed (undici's own timers are shorter or far longer).
      for (let turn = 0; !armed.some((ms) => typeof ms === 'number' && ms >= 100 && ms <= 1000); turn++) {
        if (turn > 100_000) throw new Error('the sandbox never started the latency wait');
        await new Promise((r) => setImmediate(r));
      }
      await vi.advanceTimersByTimeAsync(149);
      expect(answered).toBe(false);
      expect((await sb.call('GET', '/positions')).body.data).toHaveLength(0); // not processed yet
      await vi.advanceTimersByTimeAsync(1);
      expect((await created).status).toBe(201);
      expect((await sb.call('GET', '/positions')).body.data).toHaveLength(1);
    } finally {
      globalThis.setTimeout = fakeSetTimeout; // the fake the clock installed, so that it puts the real one back
      vi.useRealTimers();
    }
  });

  it('logs API requests (never the full key, never control requests) and clears', async () => {
    await sb.clearRequests();
    await sb.call('POST', '/trade/buys', { body: { mint: 'x', amountLamports: '1', idempotencyKey: 'k' } });
    await sb.call('GET', '/positions', { query: { limit: 5 } });
    await sb.control('/clock');
    const log = await sb.requests();
    expect(log.map((e) => [e.method, e.path, e.status])).toEqual([
      ['POST', '/api/v1/trade/buys', 400],
      ['GET', '/api/v1/positions', 200],
    ]);
    expect(log[0]!.body).toEqual({ mint: 'x', amountLamports: '1', idempotencyKey: 'k' });
    expect(log[1]!.query).toEqual({ limit: '5' });
    expect(log[1]!.keyPrefix).toBe(sb.apiKey.slice(0, 16));
    expect(JSON.stringify(log)).not.toContain(sb.apiKey);
    await sb.clearRequests();
    expect(await sb.requests()).toEqual([]);
  });

  it('survives a request with a body declared longer than sent and a bad URL', async () => {
    await new Promise<void>((resolve) => {
      const req = request(`${sb.api}/trade/buys`, {
        method: 'POST',
        headers: { 'content-length': '100', 'content-type': 'application/json' },
      });
      req.on('error', () => resolve());
      req.write('{"mint":');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 20);
    });
    expect((await sb.call('GET', '/me')).status).toBe(200);
  });
});

describe('control surface', () => {
  it('adds a token with an existing symbol, sets prices, and lists tokens', async () => {
    const added = await sb.control('/tokens', { symbol: 'WOOF', name: 'Woof Impostor', decimals: 9, usdPrice: 2 });
    expect(added.mint).not.toBe(sb.tokens[0]!.mint);
    expect(added.usdPrice).toBeCloseTo(2, 6);
    const tokens = await sb.control('/tokens');
    expect(tokens.filter((t: any) => t.symbol === 'WOOF')).toHaveLength(2);
    const moved = await sb.control('/price', { mint: added.mint, multiplier: 0.5 });
    expect(moved.usdPrice).toBeCloseTo(1, 6);
    const abs = await sb.control('/price', { mint: added.mint, usdPrice: 3 });
    expect(abs.usdPrice).toBeCloseTo(3, 6);
    const buy = await sb.call('POST', '/trade/buys', {
      body: { mint: added.mint, amountLamports: '100000000', idempotencyKey: newKey() },
    });
    expect(buy.status).toBe(201);
  });

  it('moves the clock both ways and resets to the start state with the same keys', async () => {
    const before = await sb.control('/clock');
    const later = await sb.control('/clock/advance', { seconds: 3600 });
    expect(Date.parse(later.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3_600_000);
    const past = await sb.control('/clock/advance', { seconds: -7200 });
    expect(Date.parse(past.now)).toBeLessThan(Date.parse(before.now));
    await completeBuy(sb);
    await sb.control('/reset', {});
    expect((await sb.call('GET', '/positions')).body.data).toEqual([]);
    expect((await sb.control('/clock')).offsetSeconds).toBe(0);
    expect((await sb.call('GET', '/me')).status).toBe(200);
  });

  it('rejects bad control bodies with 400', async () => {
    const res = await fetch(`${sb.url}/_sandbox/clock/advance`, { method: 'POST', body: '{"seconds":"x"}' });
    expect(res.status).toBe(400);
    const fault = await fetch(`${sb.url}/_sandbox/faults`, { method: 'POST', body: '{"kind":"explode"}' });
    expect(fault.status).toBe(400);
    expect((await fetch(`${sb.url}/_sandbox/nope`)).status).toBe(404);
  });
});
