// Start the sandbox in-process on a free port, talk to it and its control surface, and sign
// as a real client would (web3.js VersionedTransaction, tweetnacl, bs58).
import { readFileSync } from 'node:fs';
import { Keypair, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { keypairFromSecretKey } from '../../src/sandbox/sandbox-keys.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import type { RequestLogEntry } from '../../src/sandbox/request-log.js';

export type { RequestLogEntry };

export interface ApiReply<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as-is instead of JSON.stringify(body). */
  rawBody?: string;
  /** API key; default the main trading key; null sends none. */
  key?: string | null;
  contentType?: string | null;
  query?: Record<string, string | number>;
}

export interface TestSandbox extends RunningSandbox {
  /** url + '/api/v1'. */
  api: string;
  /** The main wallet, loaded from keypairPath. */
  keypair: Keypair;
  /** Call the API: `call('POST', '/trade/buys', { body })`. Never throws on an HTTP status. */
  call<T = any>(method: string, path: string, opts?: CallOptions): Promise<ApiReply<T>>;
  /** Control surface: `control('/clock/advance', { seconds: 60 })` (POST with a body, GET without). Returns `data`. */
  control<T = any>(path: string, body?: unknown, method?: string): Promise<T>;
  /** The request log (API requests only). */
  requests(): Promise<RequestLogEntry[]>;
  clearRequests(): Promise<void>;
  /** Move the sandbox clock. */
  advance(seconds: number): Promise<void>;
  /** The sandbox's time now (real time plus the offset the control surface set), as this helper last saw the offset. */
  now(): number;
  /** Set step delays in seconds (confirmSeconds, swapSeconds, payoutSeconds, refundSeconds). */
  setDelays(
    delays: Partial<Record<'confirmSeconds' | 'swapSeconds' | 'payoutSeconds' | 'refundSeconds', number>>,
  ): Promise<void>;
}

/** Start a sandbox on port 0 (quiet by default). Remember to `close()` it. */
export async function startTestSandbox(opts: SandboxOptions = {}): Promise<TestSandbox> {
  const sb = await startSandbox({ port: 0, quiet: true, ...opts });
  // Native (node:crypto): web3.js's fromSecretKey would build @noble/curves' tables in every test file.
  const keypair = keypairFromSecretKey(Uint8Array.from(JSON.parse(readFileSync(sb.keypairPath, 'utf8')) as number[]));
  const api = `${sb.url}/api/v1`;

  const call = async (method: string, path: string, o: CallOptions = {}): Promise<ApiReply> => {
    const headers: Record<string, string> = {};
    const key = o.key === undefined ? sb.apiKey : o.key;
    if (key !== null) headers['x-api-key'] = key;
    let payload: string | undefined = o.rawBody;
    if (payload === undefined && o.body !== undefined) payload = JSON.stringify(o.body);
    if (payload !== undefined && o.contentType !== null) headers['content-type'] = o.contentType ?? 'application/json';
    const qs = o.query ? `?${new URLSearchParams(Object.entries(o.query).map(([k, v]) => [k, String(v)]))}` : '';
    const res = await fetch(`${api}${path}${qs}`, { method, headers, body: payload });
    const text = await res.text();
    let body: unknown = undefined;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, body, text, headers: res.headers };
  };

  // The clock's offset as last reported: every route that moves or reads the clock answers with it.
  let offsetMs = 0;
  const control = async (path: string, body?: unknown, method?: string) => {
    const m = method ?? (body === undefined ? 'GET' : 'POST');
    const res = await fetch(`${sb.url}/_sandbox${path}`, {
      method: m,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = (await res.json()) as { data?: any; error?: { code: string; message: string } };
    if (!res.ok) throw new Error(`control ${m} ${path}: ${res.status} ${parsed.error?.code}: ${parsed.error?.message}`);
    const clock = path === '/' ? parsed.data?.clock : parsed.data;
    if (['/', '/clock', '/clock/advance', '/reset'].includes(path) && typeof clock?.offsetSeconds === 'number')
      offsetMs = Math.round(clock.offsetSeconds * 1000);
    return parsed.data;
  };
  await control('/clock');

  return {
    url: sb.url,
    rpcUrl: sb.rpcUrl,
    apiKey: sb.apiKey,
    readOnlyApiKey: sb.readOnlyApiKey,
    otherApiKey: sb.otherApiKey,
    keypairPath: sb.keypairPath,
    walletAddress: sb.walletAddress,
    treasury: sb.treasury,
    // Live: tokens added through the control surface show up.
    get tokens() {
      return sb.tokens;
    },
    get walletLamports() {
      return sb.walletLamports;
    },
    close: () => sb.close(),
    api,
    keypair,
    call,
    control,
    requests: () => control('/requests') as Promise<RequestLogEntry[]>,
    clearRequests: async () => void (await control('/requests', undefined, 'DELETE')),
    advance: async (seconds: number) => void (await control('/clock/advance', { seconds })),
    now: () => Date.now() + offsetMs,
    setDelays: async (d) => void (await control('/delays', d)),
  };
}

/** Sign a base64 unsigned deposit transaction with `keypair`; returns base64 of the signed one. */
export function signDeposit(base64: string, keypair: Keypair): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  tx.sign([keypair]);
  return Buffer.from(tx.serialize()).toString('base64');
}

/** Base58 ed25519 signature of the UTF-8 bytes of `message`. */
export function signMessage(message: string, keypair: Keypair): string {
  return bs58.encode(nacl.sign.detached(Buffer.from(message, 'utf8'), keypair.secretKey));
}

let keyCounter = 0;
/** A fresh idempotency key. */
export function newKey(prefix = 'test'): string {
  return `${prefix}-${process.pid}-${++keyCounter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Run a whole buy to completion with the clock control; returns the final intent and its position id. */
export async function completeBuy(
  sb: TestSandbox,
  opts: { mint?: string; amountLamports?: string; slippageBps?: number } = {},
): Promise<{ intent: any; positionId: string }> {
  const created = await sb.call('POST', '/trade/buys', {
    body: {
      mint: opts.mint ?? sb.tokens[0]!.mint,
      amountLamports: opts.amountLamports ?? '100000000',
      idempotencyKey: newKey('buy'),
      ...(opts.slippageBps === undefined ? {} : { slippageBps: opts.slippageBps }),
    },
  });
  if (created.status !== 201) throw new Error(`buy create: ${created.status} ${created.text}`);
  const id = created.body.data.intent.id as string;
  const dep = await sb.call('POST', `/trade/buys/${id}/deposit`, {
    body: { signedTransaction: signDeposit(created.body.data.deposit.transaction, sb.keypair) },
  });
  if (dep.status !== 200) throw new Error(`deposit: ${dep.status} ${dep.text}`);
  const delays = await sb.control('/delays');
  await sb.advance(delays.confirmSeconds + 0.01);
  await sb.call('GET', `/trade/buys/${id}`); // confirmation is noticed on this read
  await sb.advance(2 * delays.swapSeconds + 0.01);
  const done = await sb.call('GET', `/trade/buys/${id}`);
  const trade = await sb.call('GET', `/trades/${id}`);
  const positions = await sb.call('GET', '/positions', { query: { limit: 100 } });
  const position = positions.body.data.find((p: any) => p.buyTradeId === id);
  void trade;
  return { intent: done.body.data.intent, positionId: position.id };
}
