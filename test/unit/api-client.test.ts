import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ServiceClient } from '../../src/api/client.js';
import { readTradeOrNull } from '../../src/trade/read-trade.js';
import { ApiError, UsageError } from '../../src/domain/errors.js';
import {
  API_KEY,
  account,
  activity,
  authorization,
  client,
  deposit,
  failure,
  fakeClock,
  holding,
  intent,
  ok,
  pageInfo,
  points,
  position,
  sendJson,
  startServer,
  trade,
  tradeStatus,
  type TestServer,
} from './api-helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('base URL and headers', () => {
  it.each([
    ['', '/api/v1/me'],
    ['/', '/api/v1/me'],
    ['/api/v1', '/api/v1/me'],
    ['/api/v1/', '/api/v1/me'],
    ['/svc', '/svc/api/v1/me'],
    ['/svc/api/v1/', '/svc/api/v1/me'],
  ])('root %j → %s', async (suffix, expected) => {
    server = await startServer((_q, res) => sendJson(res, 200, ok(account)));
    const { c } = client({ url: server.url + suffix });
    await c.me();
    expect(server.requests[0]!.url).toBe(expected);
  });

  it('sends X-API-Key, Accept and User-Agent', async () => {
    server = await startServer((_q, res) => sendJson(res, 200, ok(account)));
    const { c } = client(server, { userAgent: 'trader/0.1.0' });
    await c.me();
    const h = server.requests[0]!.headers;
    expect(h['x-api-key']).toBe(API_KEY);
    expect(h.accept).toBe('application/json');
    expect(h['user-agent']).toBe('trader/0.1.0');
  });

  it('refuses plain http:// to a non-loopback host, unless insecure', () => {
    const base = {
      apiKey: API_KEY,
      requestTimeoutMs: 1000,
      clock: fakeClock(),
      random: Math.random,
      fetch: globalThis.fetch,
    };
    let err: unknown;
    try {
      createClient({ ...base, baseUrl: 'http://api.example.com' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(/https.*--insecure/);
    expect((err as Error).message).not.toContain('\n');
    expect(() => createClient({ ...base, baseUrl: 'http://api.example.com', insecure: true })).not.toThrow();
    for (const ok of ['https://api.example.com', 'http://localhost:8080', 'http://127.0.0.5:1', 'http://[::1]:9']) {
      expect(() => createClient({ ...base, baseUrl: ok })).not.toThrow();
    }
    for (const bad of ['ftp://x', 'not a url', 'https://u:p@host', 'https://host/?q=1']) {
      expect(() => createClient({ ...base, baseUrl: bad })).toThrow(UsageError);
    }
  });
});

describe('requests', () => {
  it('URL-encodes cursors, query values and path segments', async () => {
    server = await startServer((_q, res) => sendJson(res, 200, ok([], { pagination: pageInfo })));
    const { c } = client(server);
    await c.listPositions({ status: 'open', limit: 10, cursor: 'a+b/c=d&e' });
    await c.listActivity({ types: ['buy', 'sell'], cursor: 'x==' });
    await c.listPositions({});
    const [p, a, bare] = server.requests.map((r) => r.url);
    expect(p).toBe('/api/v1/positions?status=open&limit=10&cursor=a%2Bb%2Fc%3Dd%26e');
    expect(new URL(p!, 'http://h').searchParams.get('cursor')).toBe('a+b/c=d&e');
    expect(a).toBe('/api/v1/activity?type=buy,sell&cursor=x%3D%3D');
    expect(bare).toBe('/api/v1/positions');
  });

  it('encodes ids in paths and refuses dot segments', async () => {
    server = await startServer((_q, res) => sendJson(res, 200, ok({ ...position, id: 'a/b?c#d' })));
    const { c } = client(server);
    await c.getPosition('a/b?c#d');
    expect(server.requests[0]!.url).toBe('/api/v1/positions/a%2Fb%3Fc%23d');
    await expect(c.getPosition('..')).rejects.toBeInstanceOf(UsageError);
    await expect(c.getPosition('')).rejects.toBeInstanceOf(UsageError);
    expect(server.requests).toHaveLength(1);
  });

  it('each endpoint: method, path, body, and the data returned unchanged', async () => {
    const sell = { status: 'swap_pending', progress: { swaps: 1 } };
    const routes: Record<string, unknown> = {
      'GET /api/v1/me': ok(account),
      'GET /api/v1/points': ok(points),
      'GET /api/v1/positions/pos-1': ok(position),
      'GET /api/v1/positions': ok([position], { pagination: { nextCursor: 'n+1', hasMore: true } }),
      'GET /api/v1/activity': ok([activity], { pagination: pageInfo }),
      'GET /api/v1/holdings': ok([holding]),
      'GET /api/v1/trades/t-1': ok(trade),
      'GET /api/v1/trades/t-1/status': ok(tradeStatus),
      'POST /api/v1/trade/buys': ok({ intent, deposit }),
      'POST /api/v1/trade/buys/b1/deposit': ok({ intent: { ...intent, status: 'deposit_submitted' } }),
      [`GET /api/v1/trade/buys/${intent.id}`]: ok({ intent }),
      'POST /api/v1/trade/buys/b1/cancel': ok({ intent: { ...intent, status: 'cancelled' } }),
      'POST /api/v1/trade/sells': ok({ authorization }),
      'POST /api/v1/trade/sells/sell_1/authorize': ok({
        authorization: { ...authorization, status: 'authorized' },
        sell,
      }),
      'GET /api/v1/trade/sells/sell_abc': ok({ authorization, sell: null }),
    };
    server = await startServer((q, res) => {
      const key = `${q.method} ${q.url!.replace(/\?.*/, '')}`;
      if (key in routes) sendJson(res, 200, routes[key]);
      else sendJson(res, 404, { error: { code: 'NO_ROUTE', message: key } });
    });
    const { c } = client(server);
    const data = (k: string) => (routes[k] as { data: unknown }).data;
    expect(await c.me()).toEqual(account);
    expect(await c.points()).toEqual(points);
    expect(await c.getPosition('pos-1')).toEqual(position);
    const page = await c.listPositions({ limit: 1 });
    expect(page).toEqual({ items: [position], pagination: { nextCursor: 'n+1', hasMore: true }, requestId: 'req_ok' });
    expect((await c.listActivity({})).items).toEqual([activity]);
    expect(await c.holdings()).toEqual([holding]);
    expect(await c.getTrade('t-1')).toEqual(trade);
    expect(await c.getTradeStatus('t-1')).toEqual(tradeStatus);
    const buyReq = { mint: 'MintOut111', amountLamports: '100000000', idempotencyKey: 'idem-1', slippageBps: 50 };
    expect(await c.createBuy(buyReq)).toEqual(data('POST /api/v1/trade/buys'));
    expect(await c.submitDeposit('b1', { signedTransaction: 'AQID' })).toEqual(
      data('POST /api/v1/trade/buys/b1/deposit'),
    );
    expect(await c.getBuy(intent.id)).toEqual({ intent });
    expect((await c.cancelBuy('b1')).intent.status).toBe('cancelled');
    expect(await c.createSell({ mint: 'MintX', amount: '1000', idempotencyKey: 'idem-2' })).toEqual({ authorization });
    expect(await c.authorizeSell('sell_1', { signature: 'sig58' })).toEqual(
      data('POST /api/v1/trade/sells/sell_1/authorize'),
    );
    expect(await c.getSell('sell_abc')).toEqual({ authorization, sell: null });

    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.url, JSON.parse(r.body)])).toEqual([
      ['/api/v1/trade/buys', buyReq],
      ['/api/v1/trade/buys/b1/deposit', { signedTransaction: 'AQID' }],
      ['/api/v1/trade/buys/b1/cancel', {}],
      ['/api/v1/trade/sells', { mint: 'MintX', amount: '1000', idempotencyKey: 'idem-2' }],
      ['/api/v1/trade/sells/sell_1/authorize', { signature: 'sig58' }],
    ]);
    for (const r of posts) expect(r.headers['content-type']).toBe('application/json');
  });

  it('a read by id answered about another id is the service contradicting itself (exit 3), never returned as the one asked for (attack-log-3 F4); a UUID in either case is the same', async () => {
    const reads: Array<[string, (c: ServiceClient, id: string) => Promise<unknown>, (id: string) => unknown]> = [
      ['trade', (c, id) => c.getTrade(id), (id) => ({ ...trade, id })],
      ['trade', (c, id) => c.getTradeStatus(id), (id) => ({ ...tradeStatus, id })],
      ['buy', (c, id) => c.getBuy(id), (id) => ({ intent: { ...intent, id } })],
      ['sell', (c, id) => c.getSell(id), (id) => ({ authorization: { ...authorization, id }, sell: null })],
      ['position', (c, id) => c.getPosition(id), (id) => ({ ...position, id })],
    ];
    const asked = intent.id;
    let answered = asked;
    let answer: (id: string) => unknown = () => null;
    server = await startServer((_q, res) => sendJson(res, 200, ok(answer(answered))));
    const { c } = client(server);
    for (const [what, read, shape] of reads) {
      answer = shape;
      answered = asked;
      await expect(read(c, asked)).resolves.toEqual(shape(asked));
      answered = asked.toUpperCase();
      await expect(read(c, asked)).resolves.toEqual(shape(answered));
      answered = `${asked.slice(0, -1)}2`;
      const err = await read(c, asked).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({
        code: 'SERVICE_CONTRADICTION',
        exitCode: 3,
        message: `the service answered the read of ${what} "${asked}" with ${what} "${answered}": not the one asked for`,
      });
    }
    // What differs where it cannot be seen is named (attack-log-4 R4-2).
    answer = reads[0]![2];
    answered = `${asked}\u00a0`;
    await expect(c.getTrade(asked)).rejects.toMatchObject({
      message: `the service answered the read of trade "${asked}" with trade "${asked}<U+00A0>": not the one asked for`,
    });
    answered = ` ${asked}`;
    await expect(c.getTrade(asked)).rejects.toThrow(`with trade " ${asked}"`);
    // Not a UUID: exact. A trade read by its sell's sell_… id has a group key of its own.
    answer = reads[3]![2];
    answered = 'SELL_ABC';
    await expect(c.getSell('sell_abc')).rejects.toMatchObject({ code: 'SERVICE_CONTRADICTION' });
    answer = (id) => ({ ...trade, id, side: 'sell' });
    answered = 'sg_key1';
    await expect(c.getTrade('sell_abc')).resolves.toMatchObject({ id: 'sg_key1' });
    // …but a buy is no sell's trade (review of attack log 4).
    answer = (id) => ({ ...trade, id, side: 'buy' });
    await expect(c.getTrade('sell_abc')).rejects.toMatchObject({ code: 'SERVICE_CONTRADICTION' });
    // A summary's read gives null for a service error, never for a contradiction (it stops the run, exit 3).
    await expect(readTradeOrNull(c, 'sell_abc')).rejects.toMatchObject({ code: 'SERVICE_CONTRADICTION' });
    answer = () => ({ bad: true });
    await expect(readTradeOrNull(c, 'sell_abc')).resolves.toBeNull();
  });

  it('keeps unknown fields and accepts unknown enum values', async () => {
    const extra = { ...account, tier: 'gold', apiKey: { ...account.apiKey, lastUsedAt: 'x' } };
    const newStatus = { ...intent, status: 'deposit_rebroadcast', hint: { a: 1 } };
    server = await startServer((q, res) =>
      sendJson(res, 200, q.url!.endsWith('/me') ? ok(extra, { meta: 1 }) : ok({ intent: newStatus, more: true })),
    );
    const { c } = client(server);
    expect(await c.me()).toEqual(extra);
    expect(await c.getBuy(intent.id)).toEqual({ intent: newStatus, more: true });
  });
});

describe('response validation', () => {
  async function fails(body: unknown, call: (c: ServiceClient) => Promise<unknown>, contentType = 'application/json') {
    const s = await startServer((_q, res) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(200, { 'content-type': contentType, 'x-request-id': 'hdr-1' });
      res.end(text);
    });
    server = s;
    const { c } = client(s);
    const err = await failure(call(c));
    await s.close();
    server = undefined;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('UNEXPECTED_RESPONSE');
    expect(err.status).toBe(200);
    expect(err.exitCode).toBe(3);
    expect(err.message).not.toMatch(/[\n\r]/);
    return err as ApiError;
  }

  it('names the missing field', async () => {
    const { amountLamports: _, ...noAmount } = intent;
    const err = await fails(ok({ intent: noAmount }), (c) => c.getBuy('b1'));
    expect(err.message).toBe(
      'unexpected response from the service: /trade/buys/b1: data.intent.amountLamports missing',
    );
    expect(err.requestId).toBe('req_ok');
  });

  it('wrong JSON types', async () => {
    let err = await fails(ok({ ...account, walletAddress: 42 }), (c) => c.me());
    expect(err.message).toMatch(/data\.walletAddress not a string \(got number\)$/);
    err = await fails(ok({ ...points, completedSwaps: 1.5 }), (c) => c.points());
    expect(err.message).toMatch(/data\.completedSwaps not an integer/);
    err = await fails(ok({ ...account, apiKey: { ...account.apiKey, scopes: 'trade:intents' } }), (c) => c.me());
    expect(err.message).toMatch(/data\.apiKey\.scopes not an array/);
    err = await fails(ok({ ...trade, signatures: { ...trade.signatures, swaps: [1] } }), (c) => c.getTrade('t'));
    expect(err.message).toMatch(/data\.signatures\.swaps\[0\] not a string/);
    err = await fails(ok({ ...trade, terminal: 'yes' }), (c) => c.getTradeStatus('t'));
    expect(err.message).toMatch(/data\.terminal not a boolean/);
    err = await fails(ok({ ...position, token: { symbol: 'X', name: null } }), (c) => c.getPosition('p'));
    expect(err.message).toMatch(/data\.token\.decimals missing/);
    err = await fails(ok({ ...position, mint: undefined }), (c) => c.getPosition('p'));
    expect(err.message).toMatch(/data\.mint missing/);
    err = await fails(ok({ ...trade, failure: { code: 5, reason: null } }), (c) => c.getTrade('t'));
    expect(err.message).toMatch(/data\.failure\.code not a string/);
    err = await fails(ok({ ...trade, refund: { amountLamports: null } }), (c) => c.getTrade('t'));
    expect(err.message).toMatch(/data\.refund\.state missing/);
  });

  it('amounts must be decimal integer strings', async () => {
    for (const bad of ['1.5', '-1', '1e9', ' 1', '', '0x10']) {
      const err = await fails(ok({ intent: { ...intent, amountLamports: bad } }), (c) => c.getBuy('b'));
      expect(err.message).toMatch(/data\.intent\.amountLamports not a decimal integer string/);
    }
    const err = await fails(ok({ intent, deposit: { ...deposit, lastValidBlockHeight: '5' } }), (c) =>
      c.createBuy({ mint: 'm', amountLamports: '1', idempotencyKey: 'k' }),
    );
    expect(err.message).toMatch(/data\.deposit\.lastValidBlockHeight not an integer/);
    const num = await fails(ok([{ ...holding, amount: 1000 }]), (c) => c.holdings());
    expect(num.message).toMatch(/data\[0\]\.amount not a decimal integer string \(got number\)/);
  });

  it('envelope, pagination, holdings array, sell objects', async () => {
    let err = await fails({ data: account }, (c) => c.me());
    expect(err.message).toMatch(/: requestId missing$/);
    err = await fails({ requestId: 'r' }, (c) => c.me());
    expect(err.message).toMatch(/: data missing$/);
    err = await fails(ok([position]), (c) => c.listPositions({}));
    expect(err.message).toMatch(/pagination missing/);
    err = await fails(ok([], { pagination: { nextCursor: null } }), (c) => c.listActivity({}));
    expect(err.message).toMatch(/pagination\.hasMore missing/);
    err = await fails(ok([], { pagination: { nextCursor: 5, hasMore: true } }), (c) => c.listActivity({}));
    expect(err.message).toMatch(/pagination\.nextCursor not a string/);
    err = await fails(ok({ items: [] }), (c) => c.holdings());
    expect(err.message).toMatch(/data not an array/);
    err = await fails(ok({ authorization, sell: { progress: 1 } }), (c) => c.getSell('sell_1'));
    expect(err.message).toMatch(/data\.sell\.status missing/);
    err = await fails(ok({ authorization, sell: null }), (c) => c.authorizeSell('sell_1', { signature: 's' }));
    expect(err.message).toMatch(/data\.sell not an object \(got null\)/);
    err = await fails([ok(account)], (c) => c.me());
    expect(err.message).toMatch(/response not an object/);
  });

  it('malformed, HTML, wrong content type, empty', async () => {
    let err = await fails('{"data": {', (c) => c.me());
    expect(err.message).toMatch(/not valid JSON/);
    expect(err.requestId).toBe('hdr-1');
    err = await fails(
      '<!DOCTYPE html><html><body><h1>Login</h1>\n<p>portal</p></body></html>',
      (c) => c.me(),
      'text/html',
    );
    expect(err.message).toMatch(/HTML page instead of JSON/);
    expect(err.message).not.toContain('<');
    err = await fails(JSON.stringify(ok(account)), (c) => c.me(), 'text/plain');
    expect(err.message).toMatch(/content-type text\/plain instead of JSON/);
    err = await fails('', (c) => c.me());
    expect(err.message).toMatch(/empty body/);
  });
});
