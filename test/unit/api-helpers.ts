// Shared by the api-*.test.ts files: a real HTTP server on 127.0.0.1:0, a fake clock, fixtures.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../src/domain/clock.js';
import { type ClientOptions, createClient } from '../../src/api/client.js';

export const API_KEY = 'sk_test_SECRET_d2f1a9c7e5';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number, body: string) => void;

export interface TestServer {
  url: string;
  port: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** A real server; `handler` answers request number n (0-based). */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const n = requests.length;
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, n, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function ok(data: unknown, extra: Record<string, unknown> = {}): unknown {
  return { data, requestId: 'req_ok', ...extra };
}

export interface FakeClock extends Clock {
  delays: number[];
}

/** Sleeps resolve at once but are recorded and advance now(). */
export function fakeClock(start = 1_700_000_000_000): FakeClock {
  let t = start;
  const delays: number[] = [];
  return {
    delays,
    now: () => t,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      delays.push(ms);
      t += ms;
    },
  };
}

export function client(server: { url: string }, over: Partial<ClientOptions> = {}) {
  const clock = (over.clock as FakeClock | undefined) ?? fakeClock();
  const c = createClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    requestTimeoutMs: 5000,
    clock,
    random: () => 0.5,
    fetch: globalThis.fetch,
    ...over,
  });
  return { c, clock };
}

/** Rejection of `p`, which must reject. */
export async function failure(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

// Fixtures: one valid object of every resource.
export const intent = {
  id: '3f1c2a9e-0000-4000-8000-000000000001',
  status: 'awaiting_deposit',
  outputMint: 'MintOut111',
  amountLamports: '100000000',
  minimumOutputAmount: '123456',
  depositExpiresAt: '2026-01-01T00:10:00Z',
};
export const deposit = { transaction: 'AQAB', lastValidBlockHeight: 12345 };
export const authorization = {
  id: 'sell_abc',
  status: 'awaiting_signature',
  mint: 'MintX',
  amount: '1000',
  positionId: null,
  expectedOutputLamports: '5000',
  minimumOutputLamports: '4900',
  slippageBps: 100,
  message: 'Sell 1000 of MintX for at least 4900 lamports',
  expiresAt: '2026-01-01T00:02:00Z',
  authorizedAt: null,
  signatureVerifiedAt: null,
  executionStarted: false,
  failureCode: null,
  failureReason: null,
  createdAt: '2026-01-01T00:00:00Z',
};
export const position = {
  id: 'pos-1',
  status: 'open',
  mint: 'MintX',
  token: { symbol: 'X', name: 'Ex', decimals: 6 },
  principalLamports: '100000000',
  costLamports: '99000000',
  boughtAmount: '1000',
  soldAmount: '0',
  remainingAmount: '1000',
  buyTradeId: 't-1',
  buySignature: 'sig',
  openedAt: '2026-01-01T00:00:00Z',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};
const signatures = { deposit: 'd', swaps: ['s'], payouts: [], refund: null };
export const tradeStatus = {
  id: 't-1',
  side: 'buy',
  status: 'done',
  stage: 'completed',
  terminal: true,
  signatures,
  failure: null,
  refund: null,
  completedAt: '2026-01-01T00:01:00Z',
};
export const trade = {
  ...tradeStatus,
  inputMint: 'So11111111111111111111111111111111111111112',
  outputMint: 'MintX',
  inputAmount: '100000000',
  expectedOutputAmount: '1000',
  minimumOutputAmount: '990',
  receivedOutputAmount: '1000',
  slippageBps: 100,
  platformFeeLamports: '1000000',
  refund: { state: 'complete', amountLamports: '5' },
  failure: { code: null, reason: null },
  createdAt: '2026-01-01T00:00:00Z',
  expiresAt: null,
};
export const activity = {
  id: 'a-1',
  type: 'buy',
  status: 'completed',
  signature: null,
  mint: 'MintX',
  symbol: 'X',
  decimals: 6,
  amount: '1000',
  solLamports: '100000000',
  usdValue: 12.5,
  points: 625,
  createdAt: '2026-01-01T00:00:00Z',
};
export const holding = {
  mint: 'MintX',
  name: 'Ex',
  symbol: 'X',
  decimals: 6,
  amount: '1000',
  balance: '0.001',
  usdPrice: 1.5,
  usdValue: 0.0,
  imageUrl: 'https://img.example/x.png',
  positionIds: ['pos-1'],
  sellInProgress: false,
};
export const account = {
  accountId: 'acc-1',
  walletAddress: 'Wallet111',
  createdAt: '2026-01-01T00:00:00Z',
  apiKey: {
    id: 'k-1',
    name: 'laptop',
    prefix: 'sk_test',
    scopes: ['trade:intents'],
    createdAt: '2026-01-01T00:00:00Z',
  },
};
export const points = {
  totalPoints: 625,
  volumeUsd: '12.50',
  completedSwaps: 1,
  rank: 3,
  participants: 10,
  pointsPerUsd: 50,
};
export const pageInfo = { nextCursor: null, hasMore: false };
