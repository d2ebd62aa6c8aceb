// Reading the Solana chain through standard JSON-RPC, with @solana/web3.js's Connection as the
// client. Loaded only by the commands that read the chain (balance, buy, sell, trades --verify):
// web3.js costs ≈ 150 ms to import. Every call has a timeout and a bounded number of retries;
// what cannot be read becomes a ChainUnavailableError the caller turns into a warning (or exit 3
// under --verify). Nothing here prints.
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

/** Opens a reader on the RPC endpoint (loads web3.js; sends nothing yet). */
export async function openChain(opts: ChainOptions): Promise<ChainReader> {
  const url = parseRpcUrl(opts.url, 'RPC URL (--rpc-url, TRADER_RPC_URL or config rpcUrl)');
  const { Connection, PublicKey } = await import('@solana/web3.js');
  const { fetch: base } = await fetchFor(url, opts.env, opts.fetch);
  // Each request bounded by the timeout and by Ctrl-C. web3.js folds a failed fetch into a
  // message string, so the fetch's own error is kept to say what happened (and to retry or not).
  let fetchError: unknown = null;
  const bounded = (async (input: string, init?: RequestInit) => {
    try {
      return await base(input, {
        ...init,
        signal: AbortSignal.any([AbortSignal.timeout(opts.timeoutMs), opts.signal]),
      });
    } catch (err) {
      fetchError = err;
      throw err;
    }
  }) as typeof globalThis.fetch;
  const connection = new Connection(url.href, {
    commitment: 'confirmed',
    disableRetryOnRateLimit: true,
    httpAgent: false,
    fetch: bounded as never,
  });
  // Lamports are read by a JSON-RPC call of our own, parsed exactly: web3.js's JSON.parse rounds
  // values above 2^53, and a rounded balance would read as the chain contradicting the service.
  let id = 0;
  const exactCall = async (method: string, params: unknown[]): Promise<unknown> => {
    const res = await bounded(url.href, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}: ${text.slice(0, 200)}`);
    const body = parseJsonExact(text) as { result?: unknown; error?: { code?: unknown; message?: unknown } } | null;
    if (body?.error)
      throw Object.assign(new Error(`${method}: ${String(body.error.message)}`), { code: body.error.code });
    if (body === null || typeof body !== 'object' || !('result' in body))
      throw new Error(`${method}: the RPC answered no result`);
    return body.result;
  };
  const attempts = Math.max(1, opts.attempts ?? 3);
  // Once the endpoint has failed a call after its retries, this run's later calls fail at once:
  // a dead RPC costs one bounded wait, not one per signature checked.
  let down: ChainUnavailableError | null = null;

  const call = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    if (down) throw down;
    for (let n = 1; ; n++) {
      fetchError = null;
      try {
        return await run();
      } catch (err) {
        if (opts.signal.aborted) throw opts.signal.reason;
        const reason = describe(fetchError ?? err, opts.timeoutMs);
        if (n >= attempts || PERMANENT.test(reason)) {
          down = new ChainUnavailableError(`${what} from ${url.host} failed: ${reason}`);
          throw down;
        }
        await opts.clock.sleep(BACKOFF_MS[Math.min(n - 1, BACKOFF_MS.length - 1)]!, opts.signal);
      }
    }
  };

  return {
    host: url.host,
    balance: (address) =>
      call('reading the balance', async () => {
        const result = (await exactCall('getBalance', [address, { commitment: 'confirmed' }])) as {
          value?: unknown;
        } | null;
        const lamports = exactLamports(result?.value);
        if (lamports === null) throw new Error('getBalance: the RPC answered no balance');
        return lamports;
      }),
    blockHeight: (commitment = 'confirmed') =>
      call('reading the block height', () => connection.getBlockHeight({ commitment })),
    blockhashValid: async (blockhash, commitment) => {
      // An RPC without the method (older than Solana 1.9) answers "Method not found": no proof
      // from it, but not a dead endpoint either (the run's other reads go on), and not retried.
      const valid = await call('checking the blockhash', async () => {
        try {
          return (await connection.isBlockhashValid(blockhash, { commitment })).value;
        } catch (err) {
          if ((err as { code?: unknown }).code === -32601) return null;
          throw err;
        }
      });
      if (valid === null)
        throw new ChainUnavailableError(
          `checking the blockhash from ${url.host} failed: the RPC does not answer isBlockhashValid`,
        );
      return valid;
    },
    getAccountInfo: (address) =>
      call('reading accounts', async () => {
        // web3.js asks for base64 and decodes it; finalized: facts a rollback cannot take back.
        const info = await connection.getAccountInfo(new PublicKey(address), { commitment: 'finalized' });
        return info === null
          ? null
          : { owner: info.owner.toBase58(), data: new Uint8Array(info.data), lamports: BigInt(info.lamports) };
      }),
    rentExemptMinimum: () =>
      call('reading the rent-exempt minimum', async () =>
        BigInt(await connection.getMinimumBalanceForRentExemption(0)),
      ),
    tokenBalances: (owner) =>
      call('reading the token accounts', async () => {
        const held = new Map<string, { amount: bigint; decimals: number }>();
        for (const programId of TOKEN_PROGRAMS) {
          const { value } = await connection.getParsedTokenAccountsByOwner(new PublicKey(owner), {
            programId: new PublicKey(programId),
          });
          for (const { account } of value) {
            const info = (
              account.data as {
                parsed?: { info?: { mint?: unknown; tokenAmount?: { amount?: unknown; decimals?: unknown } } };
              }
            ).parsed?.info;
            const mint = info?.mint;
            const amount = info?.tokenAmount?.amount;
            const decimals = info?.tokenAmount?.decimals;
            if (
              typeof mint !== 'string' ||
              typeof amount !== 'string' ||
              !/^\d+$/.test(amount) ||
              typeof decimals !== 'number'
            )
              continue;
            const before = held.get(mint)?.amount ?? 0n;
            held.set(mint, { amount: before + BigInt(amount), decimals });
          }
        }
        return held;
      }),
    transaction: (signature) =>
      // The signature's start names it: whole, it would not fit a line of the message.
      call(`reading transaction ${signature.slice(0, 8)}…`, async () => {
        const result = await exactCall('getTransaction', [
          signature,
          { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 },
        ]);
        return fromRpcJson(signature, result);
      }),
  };
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
