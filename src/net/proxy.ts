// Which proxy, if any, applies to a URL, from HTTP(S)_PROXY / NO_PROXY values passed in
// (never read from process.env here), and the one fetch both HTTP clients (the service's,
// api/client.ts, and the chain's, chain/chain-reader.ts) reach a target with.

import { UsageError } from '../domain/errors.js';
import { isLoopbackHost } from './urls.js';

export type ProxyEnv = Record<string, string | undefined>;

function pick(env: ProxyEnv, name: string): string | undefined {
  const v = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/** True when a NO_PROXY value (host, .domain, *.domain, *, host:port, [v6]:port) excludes the URL. */
export function isExcludedByNoProxy(target: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = target.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  const port = target.port || defaultPort(target.protocol);
  for (const raw of noProxy.split(/[,\s]+/)) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    let entryPort: string | null = null;
    const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (v6) {
      entry = v6[1]!;
      entryPort = v6[2] ?? null;
    } else {
      const hp = /^([^:]+):(\d+)$/.exec(entry);
      if (hp) {
        entry = hp[1]!;
        entryPort = hp[2]!;
      }
    }
    entry = entry.replace(/^\*?\.+/, '').replace(/\.$/, '');
    if (!entry) continue;
    if (entryPort !== null && entryPort !== port) continue;
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

/**
 * The proxy URL for a request to `target`, or null for a direct connection.
 * https targets use HTTPS_PROXY, http targets HTTP_PROXY (lower-case names win, as in curl);
 * NO_PROXY excludes hosts; loopback targets always go direct (like Go's net/http), so the local
 * sandbox keeps working under a company-wide proxy.
 */
export function proxyFor(target: URL, env: ProxyEnv | undefined): URL | null {
  if (!env) return null;
  const value = pick(env, target.protocol === 'https:' ? 'https_proxy' : 'http_proxy');
  if (!value) return null;
  if (isLoopbackHost(target.hostname)) return null;
  if (isExcludedByNoProxy(target, pick(env, 'no_proxy'))) return null;
  let proxy: URL;
  try {
    proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new UsageError('invalid proxy URL in HTTP_PROXY/HTTPS_PROXY', 'INVALID_PROXY');
  }
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
    throw new UsageError(
      `unsupported proxy scheme ${proxy.protocol} in HTTP_PROXY/HTTPS_PROXY; use http://`,
      'INVALID_PROXY',
    );
  }
  return proxy;
}

/**
 * The fetch that reaches `target`: `direct` (Node's global fetch) when no proxy applies, else
 * undici's own fetch through a ProxyAgent, the package loaded only then (≈ +90 ms, docs/bench.md;
 * the two fetches are never mixed). proxyTunnel false: plain-http targets are sent to the proxy as
 * absolute-URI requests; https targets are always tunnelled with CONNECT.
 */
export async function fetchFor(
  target: URL,
  env: ProxyEnv | undefined,
  direct: typeof globalThis.fetch,
): Promise<{ fetch: typeof globalThis.fetch; proxy: URL | null }> {
  const proxy = proxyFor(target, env);
  if (!proxy) return { fetch: direct, proxy: null };
  const u = await import('undici');
  const dispatcher = new u.ProxyAgent({ uri: proxy.href, proxyTunnel: false });
  const viaProxy = (input: string | URL | Request, init?: RequestInit) =>
    u.fetch(input as string, { ...(init as object), dispatcher } as never);
  return { fetch: viaProxy as unknown as typeof globalThis.fetch, proxy };
}
