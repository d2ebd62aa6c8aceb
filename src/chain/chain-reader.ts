// Reading the Solana chain through standard JSON-RPC, with a client of our own: seven methods,
// each answer checked for the shape we use and parsed exactly (lamports above 2^53 kept whole).
// Why not @solana/web3.js's Connection: it cost every command that reads the chain ≈ 180 ms of
// CPU to load (websockets, jayson, node-fetch come with it) for calls this file makes in a few
// lines, and it rounded big integers and answered 0 for some RPC errors. Every call has a
// timeout and a bounded number of retries; what cannot be read becomes a ChainUnavailableError
// the caller turns into a warning (or exit 3 under --verify). Nothing here prints.
import { isAddress } from '../domain/address.js';
import type { Clock } from '../domain/clock.js';
import { fetchFor } from '../net/proxy.js';
import { fromRpcJson, type ChainTransaction } from './chain-transaction.js';
import { exactLamports, parseJsonExact } from './exact-json.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './token-layouts.js';
import { parseRpcUrl } from '../net/urls.js';
import { secondsText } from '../domain/units.js';

/** What the tool reads from the chain. */
export interface ChainReader {
  /** The endpoint, for messages. */
  readonly host: string;
  /** Lamports held by an address (0 for an account that does not exist). */
  balance(address: string): Promise<bigint>;
  /** The current block height (confirmed, or finalized: the height no fork can go back on). */
  blockHeight(commitment?: 'confirmed' | 'finalized'): Promise<number>;
  /**
   * Whether the chain still takes transactions on this recent blockhash (isBlockhashValid); false
   * also for one it never saw (another cluster). 'processed' (the newest view) asks whether the
   * chain knows it; 'finalized' (the oldest) whether it expired on every fork, so that a
   * transaction on it can never land.
   */
  blockhashValid(blockhash: string, commitment: 'processed' | 'finalized'): Promise<boolean>;
  /** The least a system account must hold to stay rent-exempt. */
  rentExemptMinimum(): Promise<bigint>;
  /** A confirmed transaction by signature, or null when the chain does not have it. */
  transaction(signature: string): Promise<ChainTransaction | null>;
  /** Raw token units the address holds per mint, over its token accounts (Token and Token-2022 programs). */
  tokenBalances(owner: string): Promise<Map<string, { amount: bigint; decimals: number }>>;
  /** An account's owner program, data and lamports at `finalized` commitment (read as base64), or null when it does not exist. */
  getAccountInfo(address: string): Promise<{ owner: string; data: Uint8Array; lamports: bigint } | null>;
}

/** The SPL Token and Token-2022 programs: a wallet's token accounts belong to one of them. */
const TOKEN_PROGRAMS = [TOKEN_PROGRAM, TOKEN_2022_PROGRAM];

/** The chain could not be read (unreachable, timed out, an RPC error): the caller says "not checked on chain". */
export class ChainUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainUnavailableError';
  }
}

export interface ChainOptions {
  url: string;
  fetch: typeof globalThis.fetch;
  clock: Clock;
  signal: AbortSignal;
  env: Record<string, string | undefined>;
  /** Per call (each attempt). */
  timeoutMs: number;
  /** Attempts per call, the first included. */
  attempts?: number;
}

/** Errors that are answered at once and the same way again: no point retrying. */
const PERMANENT = /ECONNREFUSED|ENOTFOUND|EAI_NONAME|CERT|TLS|SSL|bad port/;
const BACKOFF_MS = [250, 750];

/** One reader's endpoint and what its calls share. */
interface Rpc {
  url: URL;
  opts: ChainOptions;
  /** The fetch each request goes through (a proxy's, when one is configured). */
  fetch: typeof globalThis.fetch;
  /** The id of the last JSON-RPC call. */
  id: number;
  attempts: number;
  /**
   * Once the endpoint has failed a call after its retries, this run's later calls fail at once:
   * a dead RPC costs one bounded wait, not one per signature checked.
   */
  down: ChainUnavailableError | null;
}

/** Opens a reader on the RPC endpoint (sends nothing yet). */
export async function openChain(opts: ChainOptions): Promise<ChainReader> {
  const url = parseRpcUrl(opts.url, 'RPC URL (--rpc-url, TRADER_RPC_URL or config rpcUrl)');
  const { fetch } = await fetchFor(url, opts.env, opts.fetch);
  const rpc: Rpc = { url, opts, fetch, id: 0, attempts: Math.max(1, opts.attempts ?? 3), down: null };
  return {
    host: url.host,
    balance: (address) => readBalance(rpc, address),
    blockHeight: (commitment = 'confirmed') => readBlockHeight(rpc, commitment),
    blockhashValid: (blockhash, commitment) => blockhashValid(rpc, blockhash, commitment),
    getAccountInfo: (address) => readAccountInfo(rpc, address),
    rentExemptMinimum: () => readRentExemptMinimum(rpc),
    tokenBalances: (owner) => readTokenBalances(rpc, owner),
    transaction: (signature) =>
      // The signature's start names it: whole, it would not fit a line of the message.
      call(rpc, `reading transaction ${signature.slice(0, 8)}…`, async () => {
        let result: unknown;
        try {
          result = await rpcCall(rpc, 'getTransaction', [
            signature,
            { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 },
          ]);
        } catch (err) {
          // "Invalid params" for a signature: the chain has no transaction by that name.
          if (isInvalidParams(err)) return null;
          throw err;
        }
        return fromRpcJson(signature, result);
      }),
  };
}

/**
 * One JSON-RPC call, bounded by the timeout and by Ctrl-C, its answer parsed exactly (JSON.parse
 * would round values above 2^53, and a rounded balance would read as the chain contradicting the
 * service). An error answer keeps the RPC's code.
 */
async function rpcCall(rpc: Rpc, method: string, params: unknown[]): Promise<unknown> {
  const bound = deadline(rpc.opts.timeoutMs, rpc.opts.signal);
  let text: string;
  let res: Response;
  try {
    res = await rpc.fetch(rpc.url.href, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc.id, method, params }),
      signal: bound.signal,
    });
    text = await res.text();
  } finally {
    bound.done();
  }
  if (!res.ok) throw new Error(`${res.status} ${res.statusText}: ${text.slice(0, 200)}`);
  const body = parseJsonExact(text) as { result?: unknown; error?: { code?: unknown; message?: unknown } } | null;
  if (body?.error)
    throw Object.assign(new Error(`${method}: ${String(body.error.message)}`), { code: body.error.code });
  if (body === null || typeof body !== 'object' || !('result' in body))
    throw new Error(`${method}: the RPC answered no result`);
  return body.result;
}

/**
 * A signal that aborts after `ms` (a TimeoutError) or with the run's own, and the clean-up of its
 * timer. Not AbortSignal.any over AbortSignal.timeout: with it a test of a silent endpoint once
 * waited past its 30 s in CI (the timeout signal, held only weakly there, is the likely cause); a timer
 * held and cleared here fires or is gone.
 */
function deadline(ms: number, run: AbortSignal): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(run.reason);
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  if (run.aborted) onAbort();
  else run.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      run.removeEventListener('abort', onAbort);
    },
  };
}

/** The `value` of an RPC answer that carries a context (`{ context, value }`). */
function contextValue(method: string, result: unknown): unknown {
  if (result === null || typeof result !== 'object' || !('value' in result))
    throw new Error(`${method}: the RPC answered no value`);
  return result.value;
}

/** Runs one read with its retries; what cannot be read becomes a ChainUnavailableError (and the endpoint is down for this run). */
async function call<T>(rpc: Rpc, what: string, run: () => Promise<T>): Promise<T> {
  const { opts } = rpc;
  if (rpc.down) throw rpc.down;
  for (let n = 1; ; n++) {
    try {
      return await run();
    } catch (err) {
      if (opts.signal.aborted) throw opts.signal.reason;
      const reason = describe(err, opts.timeoutMs);
      // "Invalid params" is the answer about this request, not the endpoint: not retried, and the run's other reads go on.
      if (isInvalidParams(err)) throw new ChainUnavailableError(`${what} from ${rpc.url.host} failed: ${reason}`);
      if (n >= rpc.attempts || PERMANENT.test(reason)) {
        rpc.down = new ChainUnavailableError(`${what} from ${rpc.url.host} failed: ${reason}`);
        throw rpc.down;
      }
      await opts.clock.sleep(BACKOFF_MS[Math.min(n - 1, BACKOFF_MS.length - 1)]!, opts.signal);
    }
  }
}

/** Lamports held by an address, read exactly. */
function readBalance(rpc: Rpc, address: string): Promise<bigint> {
  return call(rpc, 'reading the balance', async () => {
    const result = (await rpcCall(rpc, 'getBalance', [address, { commitment: 'confirmed' }])) as {
      value?: unknown;
    } | null;
    const lamports = exactLamports(result?.value);
    if (lamports === null) throw new Error('getBalance: the RPC answered no balance');
    return lamports;
  });
}

/**
 * The least balance a wallet must keep; an RPC error is an error, never 0 (a 0 would let a funds
 * check spend the whole balance).
 */
function readRentExemptMinimum(rpc: Rpc): Promise<bigint> {
  return call(rpc, 'reading the rent-exempt minimum', async () => {
    const lamports = exactLamports(await rpcCall(rpc, 'getMinimumBalanceForRentExemption', [0]));
    if (lamports === null) throw new Error('getMinimumBalanceForRentExemption: the RPC answered no amount');
    return lamports;
  });
}

/** Whether the chain still takes this blockhash; an RPC that cannot say is unavailable for this read alone. */
async function blockhashValid(rpc: Rpc, blockhash: string, commitment: 'processed' | 'finalized'): Promise<boolean> {
  // An RPC without the method (older than Solana 1.9) answers "Method not found": no proof
  // from it, but not a dead endpoint either (the run's other reads go on), and not retried.
  const valid = await call(rpc, 'checking the blockhash', async () => {
    try {
      const value = contextValue(
        'isBlockhashValid',
        await rpcCall(rpc, 'isBlockhashValid', [blockhash, { commitment }]),
      );
      if (typeof value !== 'boolean') throw new Error('isBlockhashValid: the RPC answered no true or false');
      return value;
    } catch (err) {
      if ((err as { code?: unknown }).code === -32601) return null;
      throw err;
    }
  });
  if (valid === null)
    throw new ChainUnavailableError(
      `checking the blockhash from ${rpc.url.host} failed: the RPC does not answer isBlockhashValid`,
    );
  return valid;
}

/** The current block height at the commitment asked. */
function readBlockHeight(rpc: Rpc, commitment: 'confirmed' | 'finalized'): Promise<number> {
  return call(rpc, 'reading the block height', async () => {
    const height = await rpcCall(rpc, 'getBlockHeight', [{ commitment }]);
    if (!Number.isSafeInteger(height) || (height as number) < 0)
      throw new Error('getBlockHeight: the RPC answered no block height');
    return height as number;
  });
}

/** An account's owner, data and lamports at finalized commitment (facts a rollback cannot take back), or null. */
function readAccountInfo(rpc: Rpc, address: string): ReturnType<ChainReader['getAccountInfo']> {
  if (!isAddress(address)) return notAnAddress(address);
  return call(rpc, 'reading accounts', async () => {
    const params = [address, { encoding: 'base64', commitment: 'finalized' }];
    const value = contextValue('getAccountInfo', await rpcCall(rpc, 'getAccountInfo', params));
    if (value === null) return null;
    const account = accountOf(value);
    if (!account) throw new Error('getAccountInfo: the RPC answered an account of another shape');
    return account;
  });
}

/** An account as getAccountInfo answers it with base64 data; null for any other shape. */
function accountOf(value: unknown): { owner: string; data: Uint8Array; lamports: bigint } | null {
  const { owner, data, lamports } = (value ?? {}) as { owner?: unknown; data?: unknown; lamports?: unknown };
  const exact = exactLamports(lamports);
  if (typeof owner !== 'string' || !isAddress(owner) || exact === null) return null;
  if (!Array.isArray(data) || data[1] !== 'base64' || typeof data[0] !== 'string') return null;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data[0]) || data[0].length % 4 !== 0) return null;
  return { owner, data: new Uint8Array(Buffer.from(data[0], 'base64')), lamports: exact };
}

/** Raw token units per mint over the owner's token accounts of both token programs. */
function readTokenBalances(rpc: Rpc, owner: string): ReturnType<ChainReader['tokenBalances']> {
  if (!isAddress(owner)) return notAnAddress(owner);
  return call(rpc, 'reading the token accounts', async () => {
    const held = new Map<string, { amount: bigint; decimals: number }>();
    for (const programId of TOKEN_PROGRAMS) {
      const params = [owner, { programId }, { encoding: 'jsonParsed', commitment: 'confirmed' }];
      const value = contextValue('getTokenAccountsByOwner', await rpcCall(rpc, 'getTokenAccountsByOwner', params));
      if (!Array.isArray(value)) throw new Error('getTokenAccountsByOwner: the RPC answered no list of accounts');
      for (const entry of value as { account?: { data?: unknown } }[]) {
        const holding = tokenHolding(entry?.account?.data);
        if (!holding) continue;
        const before = held.get(holding.mint)?.amount ?? 0n;
        held.set(holding.mint, { amount: before + BigInt(holding.amount), decimals: holding.decimals });
      }
    }
    return held;
  });
}

/** An address that is not base58 of 32 bytes is a caller's bug: never sent, never retried. */
function notAnAddress(value: string): Promise<never> {
  return Promise.reject(new TypeError(`not an address: ${value}`));
}

/** A parsed token account's mint, raw amount and decimals; null for one of any other shape. */
function tokenHolding(data: unknown): { mint: string; amount: string; decimals: number } | null {
  const info = (
    data as {
      parsed?: { info?: { mint?: unknown; tokenAmount?: { amount?: unknown; decimals?: unknown } } };
    }
  ).parsed?.info;
  const mint = info?.mint;
  const amount = info?.tokenAmount?.amount;
  const decimals = info?.tokenAmount?.decimals;
  if (typeof mint !== 'string' || typeof amount !== 'string' || !/^\d+$/.test(amount) || typeof decimals !== 'number')
    return null;
  return { mint, amount, decimals };
}

/** JSON-RPC's "invalid params" (-32602): the endpoint answered, and refused what was asked. */
function isInvalidParams(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === -32602;
}

/** One line for what went wrong, with the cause fetch wraps inside. */
function describe(err: unknown, timeoutMs: number): string {
  const messages: string[] = [];
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e; depth++) {
    const rec = e as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
    if (rec.name === 'TimeoutError') return `no answer within ${secondsText(timeoutMs)}`;
    if (typeof rec.code === 'string' && /^(E[A-Z_]+|UND_ERR\w*)$/.test(rec.code)) return KNOWN[rec.code] ?? rec.code;
    if (typeof rec.message === 'string' && rec.message !== '') messages.push(rec.message);
    e = rec.cause;
  }
  const text = (messages.join(': ') || String(err)).replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

const KNOWN: Record<string, string> = {
  ECONNREFUSED: 'connection refused (ECONNREFUSED)',
  ENOTFOUND: 'host not found (ENOTFOUND)',
  EAI_AGAIN: 'temporary DNS failure (EAI_AGAIN)',
  ECONNRESET: 'connection reset (ECONNRESET)',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};
