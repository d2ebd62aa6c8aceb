// The trust store (trust.json beside the config) as a test needs it: what is pinned for one
// service, by its base URL; and the trust a person would grant the sandbox (its treasury and
// its sell wording), written for a test home as the accept commands would.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TREASURY } from '../../src/sandbox/initial-state.js';
import { deriveAddress } from '../../src/sandbox/market.js';
import { sellMessage } from '../../src/sandbox/sells.js';
import type { TokenRecord } from '../../src/sandbox/state.js';
import { extract } from '../../src/wallet/sell-template/extract.js';
import { fingerprint, type Template } from '../../src/wallet/sell-template/template.js';

export interface ServicePins {
  treasury?: { address: string; at: string; by?: string };
  sellTemplate?: { template: Template; fingerprint: string; at: string; by?: string };
  pendingSellTemplate?: { template: Template; fingerprint: string; at: string };
  tokens?: Record<
    string,
    { symbol: string | null; name: string | null; decimals: number | null; at: string; by?: string }
  >;
  symbols?: Record<string, { mint: string; at: string; by: string }>;
  pendingTokens?: Record<string, { symbol: string | null; name: string | null; decimals: number | null; at: string }>;
  sellWording?: { text: string; fingerprint: string; at: string };
  acceptedRisks?: Record<string, { fingerprint: string; at: string; by: string }>;
}

/** The trust store's path for a test home. */
export function trustPath(home: { TRADER_CONFIG: string }): string {
  return join(dirname(home.TRADER_CONFIG), 'trust.json');
}

const root = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/api/v1`;

/** What is pinned for the service at `baseUrl` (its API root is the key); {} when nothing. */
export function pinsFor(home: { TRADER_CONFIG: string }, baseUrl: string): ServicePins {
  const path = trustPath(home);
  if (!existsSync(path)) return {};
  return JSON.parse(readFileSync(path, 'utf8')).services[root(baseUrl)] ?? {};
}

/** Writes pins for the service at `baseUrl`, beside what the store holds. */
export function writePins(home: { TRADER_CONFIG: string }, baseUrl: string, pins: ServicePins): void {
  const path = trustPath(home);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const document = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : { services: {} };
  document.services[root(baseUrl)] = { ...document.services[root(baseUrl)], ...pins };
  writeFileSync(path, JSON.stringify(document, null, 2) + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** The template of the sandbox's sell message, as a person approves it on a first sell (any sandbox token's). */
export function sandboxTemplate(): { template: Template; fingerprint: string } {
  const token = {
    symbol: 'WOOF',
    name: 'Woof Sandbox Dog',
    decimals: 5,
    mint: 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd',
  } as TokenRecord;
  const id = 'sell_7QxbKMv2pTnW9hRd3LcZfG';
  const expiresAt = Date.parse('2030-01-01T00:02:00.000Z');
  const message = sellMessage(token, { id, amount: 123_450_000n, minimumOutputLamports: 49_500_000n, expiresAt });
  const found = extract(message, {
    ...token,
    owner: '9B5rJwUAgwsiDpRtCyVYUwtEhJ2B7Gt4qqycdZYLqwi5',
    id,
    amount: 123_450_000n,
    minimum: 49_500_000n,
    expected: 50_000_000n,
    slippageBps: 100,
    createdAt: '2030-01-01T00:00:00.000Z',
    expiresAt: new Date(expiresAt).toISOString(),
  });
  if (!('template' in found)) throw new Error(`the sandbox's message is no template: ${found.refused.join('; ')}`);
  return { template: found.template, fingerprint: fingerprint(found.template) };
}

/** The symbols of the sandbox's tokens in its account's history (WOOF, SGLD, BRIX; not MOON) bound to their mints, as `accept-token` binds them (keyed as compared: lower case). */
export function sandboxSymbols(at: string): NonNullable<ServicePins['symbols']> {
  return Object.fromEntries(
    ['WOOF', 'SGLD', 'BRIX'].map((s) => [
      s.toLowerCase(),
      { mint: deriveAddress(`trader-sandbox-token:${s}`), at, by: 'accept-command' },
    ]),
  );
}

/** Grants a test home the trust a person would give the sandbox at `baseUrl`: its treasury, its sell wording and its tokens' symbols, by the accept commands. */
export function trustSandbox(home: { TRADER_CONFIG: string }, baseUrl: string): void {
  // A home whose folder cannot be made (a test of that, in /proc) holds no trust store.
  if (home.TRADER_CONFIG.startsWith('/proc/')) return;
  const at = new Date().toISOString();
  writePins(home, baseUrl, {
    treasury: { address: TREASURY, at, by: 'accept-command' },
    sellTemplate: { ...sandboxTemplate(), at, by: 'accept-command' },
    symbols: sandboxSymbols(at),
  });
}

/** `env` (a home and a TRADER_BASE_URL in front of the sandbox) with the sandbox's trust granted for that URL, as a person would. */
export function trusted<E extends { TRADER_CONFIG: string; TRADER_BASE_URL: string }>(env: E): E {
  trustSandbox(env, env.TRADER_BASE_URL);
  return env;
}
