// The API root the client calls: the service root, checked by the one URL rule, with /api/v1.
import { API_PREFIX } from './types.js';
import { parseBaseUrl } from '../net/urls.js';

/**
 * Turns the configured service root into the API root (ending in /api/v1, no trailing slash).
 * Plain http:// is refused for other hosts than this machine unless `insecure`.
 */
export function resolveApiRoot(raw: string, insecure: boolean): URL {
  const url = parseBaseUrl(raw, { insecure });
  let path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(API_PREFIX)) path += API_PREFIX;
  url.pathname = path;
  return url;
}
