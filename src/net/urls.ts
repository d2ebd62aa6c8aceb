// The URLs this tool connects to, one rule each, for every place one is given (--base-url,
// TRADER_BASE_URL, `config set`, `config init`, the clients): the service root, the Solana JSON-RPC
// endpoint, and which hosts never leave this machine (plain http is allowed to them; no proxy).
import { printable } from '../domain/printable.js';
import { UsageError } from '../domain/errors.js';

/** True for hosts that never leave this machine: localhost, 127.0.0.0/8, ::1 (also IPv4-mapped). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  // IPv4-mapped loopback, as the URL parser serialises it: ::ffff:7f00:1
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(h);
}

/**
 * The service root: an https:// URL (plain http:// only to this machine, unless `insecure`: the
 * API key would travel unencrypted), with no user name, password, query or fragment. `what`
 * names where it came from in the error (default "base URL").
 */
export function parseBaseUrl(raw: string, opts: { insecure: boolean; what?: string }): URL {
  const what = opts.what ?? 'base URL';
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`invalid ${what} "${printable(text)}": expected https://host[/path]`, 'INVALID_BASE_URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`invalid ${what}: scheme ${url.protocol} is not supported; use https://`, 'INVALID_BASE_URL');
  }
  if (url.username || url.password)
    throw new UsageError(`invalid ${what}: it must not contain a user name or password`, 'INVALID_BASE_URL');
  if (url.search || url.hash)
    throw new UsageError(`invalid ${what}: it must not contain a query (?…) or fragment (#…)`, 'INVALID_BASE_URL');
  if (url.protocol === 'http:' && !opts.insecure && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `refusing plain http:// to ${url.host}: the API key would travel unencrypted; use https:// or pass --insecure`,
      'INSECURE_BASE_URL',
    );
  }
  return url;
}

/**
 * A Solana JSON-RPC endpoint: http:// or https://, no user name or password (a provider's key
 * in the path or query is its business). Plain http carries no secret of ours, so it is allowed.
 */
export function parseRpcUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`invalid ${what} "${printable(raw)}": expected https://host[/path]`, 'INVALID_RPC_URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`invalid ${what}: scheme ${url.protocol} is not supported; use https://`, 'INVALID_RPC_URL');
  }
  if (url.username || url.password)
    throw new UsageError(`invalid ${what}: it must not contain a user name or password`, 'INVALID_RPC_URL');
  return url;
}
