import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isUncertainOutcome } from '../../src/api/client.js';
import { oneLine, parseErrorBody } from '../../src/api/http-errors.js';
import { ApiError } from '../../src/domain/errors.js';
import { API_KEY, client, failure, startServer, type TestServer } from './api-helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The ApiError for one response with this status, body and headers (no retries). */
async function errorFor(status: number, body: string, headers: Record<string, string> = {}, path: 'me' | 'buy' = 'me') {
  server = await startServer((_q, res) => {
    res.writeHead(status, headers);
    res.end(body);
  });
  const { c } = client(server, { retry: { maxAttempts: 1 } });
  const err = await failure(path === 'me' ? c.me() : c.getBuy('b1'));
  await server.close();
  server = undefined;
  expect(err).toBeInstanceOf(ApiError);
  expect(err.exitCode).toBe(3);
  expect(err.message).not.toMatch(/[\n\r\x1b]/);
  return err as ApiError;
}

const json = { 'content-type': 'application/json' };

describe('error bodies of every layout', () => {
  it('{"error":{"code","message","requestId"}}', async () => {
    const e = await errorFor(
      400,
      JSON.stringify({ error: { code: 'INVALID_AMOUNT', message: 'amount too small', requestId: 'r-1' } }),
      json,
    );
    expect([e.status, e.code, e.message, e.requestId]).toEqual([
      400,
      'INVALID_AMOUNT',
      'HTTP 400: amount too small',
      'r-1',
    ]);
  });

  it('{"code","message"} with request_id', async () => {
    const e = await errorFor(
      409,
      JSON.stringify({ code: 'DUPLICATE', message: 'already exists', request_id: 'r-2' }),
      json,
    );
    expect([e.status, e.code, e.message, e.requestId]).toEqual([409, 'DUPLICATE', 'HTTP 409: already exists', 'r-2']);
  });

  it('{"errors":[{code, message|detail}]}', async () => {
    const e = await errorFor(
      422,
      JSON.stringify({ errors: [{ code: 'BAD_MINT', detail: 'mint is not base58' }, { message: 'amount missing' }] }),
      json,
    );
    expect([e.code, e.message]).toEqual(['BAD_MINT', 'HTTP 422: mint is not base58; amount missing']);
  });

  it('RFC 7807 problem details', async () => {
    const body = {
      type: 'https://errors.example/probs/insufficient-funds',
      title: 'Insufficient funds',
      status: 402,
      detail: 'balance 5 < 10',
    };
    const e = await errorFor(402, JSON.stringify(body), {
      'content-type': 'application/problem+json',
      'x-request-id': 'hdr-7',
    });
    expect([e.status, e.code, e.message, e.requestId]).toEqual([
      402,
      'INSUFFICIENT_FUNDS',
      'HTTP 402: Insufficient funds: balance 5 < 10',
      'hdr-7',
    ]);
    const blank = await errorFor(400, JSON.stringify({ type: 'about:blank', title: 'Bad Request' }), json);
    expect([blank.code, blank.message]).toEqual(['BAD_REQUEST', 'HTTP 400: Bad Request']);
  });

  it('{"message"} and {"error":"string"}', async () => {
    let e = await errorFor(500, JSON.stringify({ message: 'boom' }), json);
    expect([e.code, e.message]).toEqual(['SERVER_ERROR', 'HTTP 500: boom']);
    e = await errorFor(400, JSON.stringify({ error: 'mint not tradable' }), json);
    expect([e.code, e.message]).toEqual(['BAD_REQUEST', 'HTTP 400: mint not tradable']);
    e = await errorFor(401, JSON.stringify({ error: 'invalid_token', error_description: 'key revoked' }), json);
    expect([e.code, e.message]).toEqual(['invalid_token', 'HTTP 401: key revoked']);
  });

  it('plain text: first line, trimmed, cut to about 200 characters', async () => {
    let e = await errorFor(500, '\n  upstream exploded  \nstack trace line 2\n', { 'content-type': 'text/plain' });
    expect(e.message).toBe('HTTP 500: upstream exploded');
    e = await errorFor(500, 'x'.repeat(1000), { 'content-type': 'text/plain' });
    expect(e.message.length).toBeLessThanOrEqual(215);
  });

  it('HTML from a proxy: one line, no markup', async () => {
    const html =
      '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>Bad Gateway</h1><script>x</script></body></html>';
    const e = await errorFor(502, html, { 'content-type': 'text/html' });
    expect(e.message).toBe('HTTP 502 Bad Gateway (HTML page from a proxy?)');
    expect(e.code).toBe('BAD_GATEWAY');
    const untyped = await errorFor(503, '<html><body>down</body></html>');
    expect(untyped.message).toBe('HTTP 503 Service Unavailable (HTML page from a proxy?)');
  });

  it('empty body and request id from the x-request-id header', async () => {
    const e = await errorFor(404, '', { 'x-request-id': 'hdr-404' });
    expect([e.status, e.code, e.message, e.requestId]).toEqual([
      404,
      'NOT_FOUND',
      'HTTP 404 Not Found (empty body)',
      'hdr-404',
    ]);
  });

  it('body request id wins over the header; the server code is kept on 404', async () => {
    const e = await errorFor(
      404,
      JSON.stringify({ code: 'POSITION_NOT_FOUND', message: 'no such position', requestId: 'body-1' }),
      { ...json, 'x-request-id': 'hdr-1' },
    );
    expect([e.code, e.requestId]).toEqual(['POSITION_NOT_FOUND', 'body-1']);
  });

  it('401 and 403 get codes and hints', async () => {
    const u = await errorFor(401, '');
    expect(u.code).toBe('UNAUTHORIZED');
    expect(u.hints.join(' ')).toContain('TRADER_API_KEY');
    const f = await errorFor(403, JSON.stringify({ message: 'forbidden' }), json, 'buy');
    expect(f.code).toBe('FORBIDDEN');
    expect(f.hints.join(' ')).toContain('trade:intents');
    // A message that names the scope itself: the hint does not say it again.
    const named = 'this endpoint needs a key with the scope trade:intents';
    const s = await errorFor(403, JSON.stringify({ message: named }), json, 'buy');
    expect(s.message).toBe(`HTTP 403: ${named}`);
    expect(s.hints).toEqual(['`trader me` lists the scopes of this key']);
    const g = await errorFor(403, '', {}, 'me');
    expect(g.hints.join(' ')).not.toContain('trade:intents');
  });

  it('strips terminal escapes and control characters; never echoes the key', async () => {
    const evil = {
      error: { code: 'X\x1b[2J', message: `bad key ${API_KEY}\x1b]0;pwned\x07\x1b[31m red\r\nsecond line\u202e` },
    };
    const e = await errorFor(400, JSON.stringify(evil), json);
    expect(e.message).toBe('HTTP 400: bad key sk_t… red second line');
    expect(e.code).toBe('X');
  });

  it('redirects are not followed (the key must not travel elsewhere)', async () => {
    const e = await errorFor(302, '', { location: 'http://evil.example/steal' });
    expect(e.code).toBe('REDIRECT');
    expect(e.message).toContain('redirected to http://evil.example/steal');
  });

  it('5xx is uncertain; 4xx is not', async () => {
    expect(isUncertainOutcome(await errorFor(500, ''))).toBe(true);
    expect(isUncertainOutcome(await errorFor(400, ''))).toBe(false);
  });
});

describe('network failures', () => {
  it('connection refused: NETWORK_ERROR naming the host, no status, not uncertain', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    await new Promise<void>((r) => blocker.close(() => r()));
    const { c, clock } = client({ url: `http://127.0.0.1:${port}` }, { retry: { maxAttempts: 2 } });
    const e = await failure(c.me());
    expect(e).toBeInstanceOf(ApiError);
    expect([e.code, e.status]).toEqual(['NETWORK_ERROR', null]);
    expect(e.message).toBe(`could not connect to 127.0.0.1:${port}: connection refused (after 2 attempts)`);
    expect(isUncertainOutcome(e)).toBe(false);
    expect(clock.delays).toEqual([125]);
  });
});

describe('parseErrorBody and oneLine', () => {
  it('layouts without a server', () => {
    expect(parseErrorBody('[{"code":"A","message":"m"}]', null)).toMatchObject({ code: 'A', message: 'm' });
    expect(parseErrorBody('{"message":["a","b"]}', 'application/json')).toMatchObject({ message: 'a; b' });
    expect(parseErrorBody('{not json', 'application/json')).toMatchObject({ kind: 'text', message: '{not json' });
    expect(parseErrorBody('  ', null).kind).toBe('empty');
    expect(parseErrorBody('<?xml version="1.0"?><err/>', null).kind).toBe('html');
  });
  it('oneLine', () => {
    expect(oneLine('a\x1b[1;31mb\x1b[0m\tc\x00d\x9b2Je')).toBe('ab c de');
    expect(Array.from(oneLine('é'.repeat(300), 200))).toHaveLength(200);
  });
});
