// Reading the Solana chain through standard JSON-RPC, with @solana/web3.js's Connection as the
// client. Loaded only by the commands that read the chain (balance, buy, sell, trades --verify):
// web3.js costs ≈ 150 ms to import. Every call has a timeout and a bounded number of retries;
// what cannot be read becomes a ChainUnavailableError the caller turns into a warning (or exit 3
// under --verify). Nothing here prints.
import type { Connection, PublicKey } from '@solana/web3.js';
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

/** One reader's endpoint, its web3.js connection and what its calls share. */
interface Rpc {
  url: URL;
  opts: ChainOptions;
  connection: Connection;
  PublicKey: typeof PublicKey;
  /** The fetch each request goes through: bounded, its own error kept. */
  bounded: typeof globalThis.fetch;
  /** The last fetch's own error: web3.js folds it into a message string. */
  fetchError: unknown;
  /** The id of the last JSON-RPC call of our own. */
  id: number;
  attempts: number;
  /**
   * Once the endpoint has failed a call after its retries, this run's later calls fail at once:
   * a dead RPC costs one bounded wait, not one per signature checked.
   */
  down: ChainUnavailableError | null;
}

/** Opens a reader on the RPC endpoint (loads web3.js; sends nothing yet). */
export async function openChain(opts: ChainOptions): Promise<ChainReader> {
  const url = parseRpcUrl(opts.url, 'RPC URL (--rpc-url, TRADER_RPC_URL or config rpcUrl)');
  const web3 = await import('@solana/web3.js');
  const { fetch: base } = await fetchFor(url, opts.env, opts.fetch);
  const attempts = Math.max(1, opts.attempts ?? 3);
  // Completed below: the connection needs the bounded fetch, which records into this state.
  const rpc = { url, opts, PublicKey: web3.PublicKey, fetchError: null, id: 0, attempts, down: null } as Omit<
    Rpc,
    'bounded' | 'connection'
  > as Rpc;
  rpc.bounded = boundedFetch(rpc, base);
  rpc.connection = new web3.Connection(url.href, {
    commitment: 'confirmed',
    disableRetryOnRateLimit: true,
    httpAgent: false,
    fetch: rpc.bounded as never,
  });
  return {
    host: url.host,
    balance: (address) => readBalance(rpc, address),
    blockHeight: (commitment = 'confirmed') =>
      call(rpc, 'reading the block height', () => rpc.connection.getBlockHeight({ commitment })),
    blockhashValid: (blockhash, commitment) => blockhashValid(rpc, blockhash, commitment),
    getAccountInfo: (address) => readAccountInfo(rpc, address),
    rentExemptMinimum: () => readRentExemptMinimum(rpc),
    tokenBalances: (owner) => readTokenBalances(rpc, owner),
    transaction: (signature) =>
      // The signature's start names it: whole, it would not fit a line of the message.
      call(rpc, `reading transaction ${signature.slice(0, 8)}…`, async () => {
        const result = await exactCall(rpc, 'getTransaction', [
          signature,
          { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 },
        ]);
        return fromRpcJson(signature, result);
      }),
  };
}

/**
 * Each request bounded by the timeout and by Ctrl-C. web3.js folds a failed fetch into a
 * message string, so the fetch's own error is kept to say what happened (and to retry or not).
 */
function boundedFetch(rpc: Rpc, base: typeof globalThis.fetch): typeof globalThis.fetch {
  return (async (input: string, init?: RequestInit) => {
    try {
      return await base(input, {
        ...init,
        signal: AbortSignal.any([AbortSignal.timeout(rpc.opts.timeoutMs), rpc.opts.signal]),
      });
    } catch (err) {
      rpc.fetchError = err;
      throw err;
    }
  }) as typeof globalThis.fetch;
}

/**
 * A JSON-RPC call of our own, parsed exactly: web3.js's JSON.parse rounds values above 2^53,
 * and a rounded balance would read as the chain contradicting the service.
 */
async function exactCall(rpc: Rpc, method: string, params: unknown[]): Promise<unknown> {
  const res = await rpc.bounded(rpc.url.href, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc.id, method, params }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${res.statusText}: ${text.slice(0, 200)}`);
  const body = parseJsonExact(text) as { result?: unknown; error?: { code?: unknown; message?: unknown } } | null;
  if (body?.error)
    throw Object.assign(new Error(`${method}: ${String(body.error.message)}`), { code: body.error.code });
  if (body === null || typeof body !== 'object' || !('result' in body))
    throw new Error(`${method}: the RPC answered no result`);
  return body.result;
}

/** Runs one read with its retries; what cannot be read becomes a ChainUnavailableError (and the endpoint is down for this run). */
async function call<T>(rpc: Rpc, what: string, run: () => Promise<T>): Promise<T> {
  const { opts } = rpc;
  if (rpc.down) throw rpc.down;
  for (let n = 1; ; n++) {
    rpc.fetchError = null;
    try {
      return await run();
    } catch (err) {
      if (opts.signal.aborted) throw opts.signal.reason;
      const reason = describe(rpc.fetchError ?? err, opts.timeoutMs);
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
    const result = (await exactCall(rpc, 'getBalance', [address, { commitment: 'confirmed' }])) as {
      value?: unknown;
    } | null;
    const lamports = exactLamports(result?.value);
    if (lamports === null) throw new Error('getBalance: the RPC answered no balance');
    return lamports;
  });
}

/**
 * The least balance a wallet must keep, read by our own call: web3.js answers 0 for an RPC error
 * (and warns on the console), which would let a funds check spend the whole balance.
 */
function readRentExemptMinimum(rpc: Rpc): Promise<bigint> {
  return call(rpc, 'reading the rent-exempt minimum', async () => {
    const lamports = exactLamports(await exactCall(rpc, 'getMinimumBalanceForRentExemption', [0]));
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
      return (await rpc.connection.isBlockhashValid(blockhash, { commitment })).value;
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

/** An account's owner, data and lamports at finalized commitment, or null. */
function readAccountInfo(rpc: Rpc, address: string): ReturnType<ChainReader['getAccountInfo']> {
  return call(rpc, 'reading accounts', async () => {
    // web3.js asks for base64 and decodes it; finalized: facts a rollback cannot take back.
    const info = await rpc.connection.getAccountInfo(new rpc.PublicKey(address), { commitment: 'finalized' });
    return info === null
      ? null
      : { owner: info.owner.toBase58(), data: new Uint8Array(info.data), lamports: BigInt(info.lamports) };
  });
}

/** Raw token units per mint over the owner's token accounts of both token programs. */
function readTokenBalances(rpc: Rpc, owner: string): ReturnType<ChainReader['tokenBalances']> {
  return call(rpc, 'reading the token accounts', async () => {
    const held = new Map<string, { amount: bigint; decimals: number }>();
    for (const programId of TOKEN_PROGRAMS) {
      const { value } = await rpc.connection.getParsedTokenAccountsByOwner(new rpc.PublicKey(owner), {
        programId: new rpc.PublicKey(programId),
      });
      for (const { account } of value) {
        const holding = tokenHolding(account.data);
        if (!holding) continue;
        const before = held.get(holding.mint)?.amount ?? 0n;
        held.set(holding.mint, { amount: before + BigInt(holding.amount), decimals: holding.decimals });
      }
    }
    return held;
  });
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
