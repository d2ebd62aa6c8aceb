// Reads the trust store (trust.json beside the config) the way a test needs it: what is pinned
// for one service, by its base URL.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface ServicePins {
  treasury?: { address: string; at: string };
  sellWording?: { text: string; fingerprint: string; at: string };
  pendingSellWording?: { text: string; fingerprint: string; at: string };
  tokens?: Record<string, { symbol: string | null; name: string | null; decimals: number | null; at: string }>;
}

/** The trust store's path for a test home. */
export function trustPath(home: { TRADER_CONFIG: string }): string {
  return join(dirname(home.TRADER_CONFIG), 'trust.json');
}

/** What is pinned for the service at `baseUrl` (its API root is the key); {} when nothing. */
export function pinsFor(home: { TRADER_CONFIG: string }, baseUrl: string): ServicePins {
  const path = trustPath(home);
  if (!existsSync(path)) return {};
  const root = `${baseUrl.replace(/\/+$/, '')}/api/v1`;
  return JSON.parse(readFileSync(path, 'utf8')).services[root] ?? {};
}
