import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { proxyFor } from '../../src/net/proxy.js';
import { UsageError } from '../../src/domain/errors.js';
import { API_KEY, account, client, failure, ok } from './api-helpers.js';

interface Proxy {
  url: string;
  seen: { method: string; url: string; apiKey: string | undefined }[];
  close(): Promise<void>;
}

/** A tiny proxy: records absolute-URI requests and answers them itself; refuses CONNECT (after recording). */
async function startProxy(): Promise<Proxy> {
  const seen: Proxy['seen'] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, apiKey: req.headers['x-api-key'] as string | undefined });
    const body = JSON.stringify(ok(account));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.on('connect', (req, socket) => {
    seen.push({ method: 'CONNECT', url: req.url!, apiKey: undefined });
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

let proxy: Proxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

describe('proxy', () => {
  it('an http request goes through HTTP_PROXY as an absolute-URI request', async () => {
    proxy = await startProxy();
    const { c } = client({ url: 'http://trader-upstream.test/' }, { insecure: true, env: { HTTP_PROXY: proxy.url } });
    expect(await c.me()).toEqual(account);
    expect(proxy.seen).toEqual([{ method: 'GET', url: 'http://trader-upstream.test/api/v1/me', apiKey: API_KEY }]);
  });

  it('an https request is tunnelled through HTTPS_PROXY with CONNECT', async () => {
    proxy = await startProxy();
    const { c } = client(
      { url: 'https://trader-upstream.test' },
      { env: { https_proxy: proxy.url }, retry: { maxAttempts: 1 } },
    );
    const e = await failure(c.me());
    expect(proxy.seen).toEqual([{ method: 'CONNECT', url: 'trader-upstream.test:443', apiKey: undefined }]);
    expect(e.code).toBe('NETWORK_ERROR');
    expect(e.message).toContain('via proxy 127.0.0.1');
    expect(e.message).not.toContain(API_KEY);
  });

  it('NO_PROXY excludes a host: the proxy sees nothing', async () => {
    proxy = await startProxy();
    const { c } = client(
      { url: 'http://trader-upstream.test' },
      {
        insecure: true,
        env: { HTTP_PROXY: proxy.url, NO_PROXY: 'other.example, .test' },
        requestTimeoutMs: 1500,
        retry: { maxAttempts: 1 },
      },
    );
    const e = await failure(c.me());
    expect(['NETWORK_ERROR', 'REQUEST_TIMEOUT']).toContain(e.code);
    expect(proxy.seen).toEqual([]);
  });

  it('proxyFor: which variable, NO_PROXY forms, loopback', () => {
    const p = (url: string, env: Record<string, string>) => proxyFor(new URL(url), env)?.href ?? null;
    const env = { HTTPS_PROXY: 'http://sp:3128', HTTP_PROXY: 'plain:8080' };
    expect(p('https://api.example.com', env)).toBe('http://sp:3128/');
    expect(p('http://api.example.com', env)).toBe('http://plain:8080/');
    expect(p('https://api.example.com', { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' })).toBe(
      'http://lower:1/',
    );
    expect(p('https://api.example.com', { HTTP_PROXY: 'http://p:1' })).toBeNull();
    expect(p('https://api.example.com', {})).toBeNull();
    const no = (NO_PROXY: string, url = 'https://api.example.com') => p(url, { ...env, NO_PROXY });
    expect(no('api.example.com')).toBeNull();
    expect(no('example.com')).toBeNull();
    expect(no('.example.com')).toBeNull();
    expect(no('*.example.com')).toBeNull();
    expect(no('*')).toBeNull();
    expect(no('api.example.com:443')).toBeNull();
    expect(no('api.example.com:8443')).not.toBeNull();
    expect(no('api.example.com:8443', 'https://api.example.com:8443')).toBeNull();
    expect(no('xample.com')).not.toBeNull();
    expect(no('other.com,  foo')).not.toBeNull();
    expect(p('https://[2001:db8::1]:9', { ...env, no_proxy: '[2001:db8::1]:9' })).toBeNull();
    expect(p('http://localhost:8080', env)).toBeNull();
    expect(p('http://127.0.0.1:8080', env)).toBeNull();
    expect(() => p('https://api.example.com', { HTTPS_PROXY: 'socks5://x:1' })).toThrow(UsageError);
  });
});
