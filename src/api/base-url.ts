// The service root: parsed and checked once, when the client is created.

import { UsageError } from '../errors.js';
import { API_PREFIX } from './types.js';

/** True for hosts that never leave this machine: localhost, 127.0.0.0/8, ::1 (also IPv4-mapped). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  // IPv4-mapped loopback, as the URL parser serialises it: ::ffff:7f00:1
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(h);
}

/**
 * Turns the configured service root into the API root (ending in /api/v1, no trailing slash).
 * Plain http:// is refused for non-loopback hosts unless `insecure`.
 */
export function resolveApiRoot(raw: string, insecure: boolean): URL {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`invalid base URL "${text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200)}": expected https://host[/path]`, 'INVALID_BASE_URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`invalid base URL: scheme ${url.protocol} is not supported; use https://`, 'INVALID_BASE_URL');
  }
  if (url.username || url.password) {
    throw new UsageError('invalid base URL: it must not contain a user name or password', 'INVALID_BASE_URL');
  }
  if (url.search || url.hash) {
    throw new UsageError('invalid base URL: it must not contain a query (?…) or fragment (#…)', 'INVALID_BASE_URL');
  }
  if (url.protocol === 'http:' && !insecure && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `refusing plain http:// to ${url.host}: the API key would travel unencrypted; use https:// or pass --insecure`,
      'INSECURE_BASE_URL',
    );
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(API_PREFIX)) path += API_PREFIX;
  url.pathname = path;
  return url;
}
