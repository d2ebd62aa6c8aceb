// The simulated chain's Solana JSON-RPC endpoint (POST /rpc): JSON-RPC 2.0, the standard method
// names and result shapes (https://solana.com/docs/rpc/http), over the ledger the service side
// writes. Only what a wallet client needs is answered; any other method is "Method not found".
import bs58 from 'bs58';
import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import { blockHeight, issueBlockhash } from './chain.js';
import { chainBalance, landedTransaction } from './ledger.js';
import type { LedgerTokenMove, LedgerTx } from './state.js';
import { tokenAccountAt, type ChainAccount } from './token-accounts.js';
import type { World } from './world.js';

const SYSTEM_PROGRAM = '11111111111111111111111111111111';
/** Rent: 3,480 lamports per byte-year, two years exempt, 128 bytes of account overhead. */
const rentExempt = (size: number) => (128 + size) * 3_480 * 2;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const invalidParams = (message: string) => new RpcError(-32602, `Invalid params: ${message}`);

function address(value: unknown): string {
  if (typeof value !== 'string') throw invalidParams('expected a base58 address');
  try {
    return new PublicKey(value).toBase58();
  } catch {
    throw invalidParams('Invalid param: WrongSize');
  }
}

function signature(value: unknown): string {
  if (typeof value !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(value))
    throw invalidParams('Invalid param: WrongSize');
  return value;
}

/** Lamports a token account holds to be rent-exempt (165 bytes), as the chain reports them. */
const TOKEN_ACCOUNT_RENT = 2_039_280n;

/** Lamports a mint account (82 bytes) holds to be rent-exempt. */
const MINT_ACCOUNT_RENT = 1_461_600n;

/** A raw token amount in whole tokens, as the RPC's uiAmountString writes it (no trailing zeros). */
function uiAmountString(amount: bigint, decimals: number): string {
  const digits = amount.toString().padStart(decimals + 1, '0');
  const [whole, fraction] = [
    digits.slice(0, digits.length - decimals),
    digits.slice(digits.length - decimals).replace(/0+$/, ''),
  ];
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * How a node writes a transaction that failed in its first instruction with a program's own error
 * code (a swap program's "slippage exceeded", 6001 = 0x1771 in Anchor's numbering).
 */
const FAILED_SWAP_ERR = { InstructionError: [0, { Custom: 6001 }] };

/** Lamports of a program account (never moved by a call): 1 for a builtin, as nodes report; a deployed program's rent otherwise. */
const programLamports = (address: string) => (BUILTINS.has(address) ? 1n : BigInt(rentExempt(PROGRAM_BYTES)));
const BUILTINS = new Set([SYSTEM_PROGRAM, 'ComputeBudget111111111111111111111111111111']);
/** A stand-in size for a deployed program's account (the memo program's order of size). */
const PROGRAM_BYTES = 74_800;
/** Compute units a builtin instruction consumes (System, Compute Budget), and a stand-in for a program's. */
const BUILTIN_UNITS = 150;
const PROGRAM_UNITS = 6_000;

/** The transaction part of a `getTransaction` result (encoding json), and its account keys. */
interface WrittenTransaction {
  version: 0 | 'legacy';
  keys: string[];
  transaction: unknown;
  /** Program of each instruction, in order (for the logs and the compute units). */
  programs: string[];
}

/** A transaction that landed as signed bytes: written from those bytes, signatures, keys, blockhash, instructions and lookups as they are. */
function fromWire(wire: string): WrittenTransaction {
  const tx = VersionedTransaction.deserialize(Buffer.from(wire, 'base64'));
  const msg = tx.message;
  const keys = msg.staticAccountKeys.map((k) => k.toBase58());
  return {
    version: tx.version,
    keys,
    programs: msg.compiledInstructions.map((ix) => keys[ix.programIdIndex] ?? '?'),
    transaction: {
      signatures: tx.signatures.map((sig) => bs58.encode(sig)),
      message: {
        accountKeys: keys,
        header: { ...msg.header },
        recentBlockhash: msg.recentBlockhash,
        instructions: msg.compiledInstructions.map((ix) => ({
          programIdIndex: ix.programIdIndex,
          accounts: [...ix.accountKeyIndexes],
          data: bs58.encode(ix.data),
          stackHeight: null,
        })),
        // A legacy message has none, and a node writes none for it.
        ...(tx.version === 0
          ? {
              addressTableLookups: msg.addressTableLookups.map((l) => ({
                accountKey: l.accountKey.toBase58(),
                writableIndexes: [...l.writableIndexes],
                readonlyIndexes: [...l.readonlyIndexes],
              })),
            }
          : {}),
      },
    },
  };
}

/**
 * A transaction the service made (a swap, a payout, a refund), which the sandbox never signs:
 * written from the ledger, one System transfer per SOL movement. Signer and writable accounts
 * first, then token accounts a swap moved, then the read-only unsigned ones (a swap's mint, the
 * System Program last).
 */
function fromLedger(tx: LedgerTx): WrittenTransaction {
  const tokenAccounts = (tx.tokens ?? [])
    .map((t) => t.account)
    .filter((a, i, all) => !tx.accounts.includes(a) && all.indexOf(a) === i);
  const reads = (tx.reads ?? []).filter((a) => !tx.accounts.includes(a) && !tokenAccounts.includes(a));
  const keys = [...tx.accounts, ...tokenAccounts, ...reads, SYSTEM_PROGRAM];
  const transfer = (lamports: bigint) => {
    const data = Buffer.alloc(12);
    data.writeUInt32LE(2, 0);
    data.writeBigUInt64LE(lamports, 4);
    return bs58.encode(data);
  };
  return {
    version: 0,
    keys,
    programs: tx.transfers.map(() => SYSTEM_PROGRAM),
    transaction: {
      signatures: [tx.signature],
      message: {
        accountKeys: keys,
        header: {
          numRequiredSignatures: 1,
          numReadonlySignedAccounts: 0,
          numReadonlyUnsignedAccounts: 1 + reads.length,
        },
        recentBlockhash: bs58.encode(Buffer.alloc(32, 7)),
        instructions: tx.transfers.map((t) => ({
          programIdIndex: keys.length - 1,
          accounts: [keys.indexOf(t.from), keys.indexOf(t.to)],
          data: transfer(t.lamports),
          stackHeight: null,
        })),
        addressTableLookups: [],
      },
    },
  };
}

/** The `getTransaction` result (encoding json) of a ledger transaction. */
function transactionResult(tx: LedgerTx, slot: number, at: number) {
  const written = tx.wire ? fromWire(tx.wire) : fromLedger(tx);
  const { keys } = written;
  const tokenAccounts = new Set((tx.tokens ?? []).map((t) => t.account));
  const reads = new Set(tx.reads ?? []);
  // The ledger's balances for the accounts it moved; a token account, a mint or a program keeps its own.
  const balance = (side: 'pre' | 'post') => (address: string) => {
    const i = tx.accounts.indexOf(address);
    if (i >= 0) return tx[side][i]!;
    if (tokenAccounts.has(address)) return TOKEN_ACCOUNT_RENT;
    if (reads.has(address)) return MINT_ACCOUNT_RENT;
    return programLamports(address);
  };
  const tokenBalance = (t: LedgerTokenMove, amount: bigint) => ({
    accountIndex: keys.indexOf(t.account),
    mint: t.mint,
    owner: t.owner,
    programId: t.programId,
    uiTokenAmount: {
      amount: amount.toString(),
      decimals: t.decimals,
      uiAmount: Number(amount) / 10 ** t.decimals,
      uiAmountString: uiAmountString(amount, t.decimals),
    },
  });
  const err = tx.failed ? FAILED_SWAP_ERR : null;
  const ran = tx.failed ? written.programs.slice(0, 1) : written.programs;
  return {
    slot,
    blockTime: Math.floor(at / 1000),
    version: written.version,
    meta: {
      err,
      status: err ? { Err: err } : { Ok: null },
      // Lamports as exact integers: a balance above 2^53 is written to the lamport (see rpcText).
      fee: tx.fee,
      preBalances: keys.map(balance('pre')),
      postBalances: keys.map(balance('post')),
      innerInstructions: [],
      logMessages: ran.flatMap((program, i) => [
        `Program ${program} invoke [1]`,
        tx.failed && i === 0 ? `Program ${program} failed: custom program error: 0x1771` : `Program ${program} success`,
      ]),
      preTokenBalances: (tx.tokens ?? []).map((t) => tokenBalance(t, t.pre)),
      postTokenBalances: (tx.tokens ?? []).map((t) => tokenBalance(t, t.post)),
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: ran.reduce(
        (sum, program) => sum + (BUILTINS.has(program) ? BUILTIN_UNITS : PROGRAM_UNITS),
        0,
      ),
    },
    transaction: written.transaction,
  };
}

/** U64::MAX, as nodes report the rent epoch of a rent-exempt account: a bigint, written to the digit (a JSON number would round it). */
const RENT_EPOCH = 18_446_744_073_709_551_615n;

/** The account at an address: a token account, a system account holding SOL, or null (no account). */
function accountAt(world: World, address: string): ChainAccount | null {
  const token = tokenAccountAt(world, address);
  if (token) return token;
  return chainBalance(world, address) > 0n ? { owner: SYSTEM_PROGRAM, data: Buffer.alloc(0) } : null;
}

/** An account's info (encoding base64, the only one served). */
function accountInfo(world: World, account: ChainAccount | null, address: string) {
  if (!account) return null;
  const lamports =
    account.owner === SYSTEM_PROGRAM ? chainBalance(world, address) : BigInt(rentExempt(account.data.length));
  return {
    data: [account.data.toString('base64'), 'base64'],
    executable: false,
    lamports,
    owner: account.owner,
    rentEpoch: RENT_EPOCH,
    space: account.data.length,
  };
}

function accountConfig(value: unknown): void {
  const config = (value ?? {}) as { encoding?: unknown };
  if (config.encoding !== 'base64')
    throw invalidParams(`encoding ${String(config.encoding)} is not served by the sandbox; use base64`);
}

/** Slot of a ledger transaction: the block it landed in. */
const slotOf = (world: World, tx: LedgerTx) => blockHeight(world.state, tx.at);

/**
 * Blocks the finalized view trails the newest: a blockhash still valid there outlives the
 * newest view's by this much, so only "expired at finalized" means expired on every fork.
 */
export const FINALIZED_LAG_BLOCKS = 32;

/** The block height as seen at a request's commitment (default finalized, as Solana's). */
function heightAt(
  height: number,
  config: unknown,
  fallback: 'processed' | 'confirmed' | 'finalized' = 'finalized',
): number {
  const commitment = (config as { commitment?: unknown } | undefined)?.commitment ?? fallback;
  if (commitment !== 'processed' && commitment !== 'confirmed' && commitment !== 'finalized')
    throw invalidParams(`unknown commitment ${String(commitment)}`);
  return commitment === 'finalized' ? Math.max(0, height - FINALIZED_LAG_BLOCKS) : height;
}

/** What every method of one request sees: the sandbox's time, the chain's height then, and the answer's context. */
interface At {
  now: number;
  height: number;
  context: { slot: number; apiVersion: string };
}

type Method = (world: World, params: unknown[], at: At) => unknown;

function call(world: World, method: string, params: unknown[]): unknown {
  const now = world.now();
  const height = blockHeight(world.state, now);
  const at: At = { now, height, context: { slot: height, apiVersion: '2.0.0' } };
  const run = METHODS.get(method);
  if (!run) throw new RpcError(-32601, 'Method not found');
  return run(world, params, at);
}

/**
 * Valid while the height at the asked commitment has not passed the blockhash's last valid
 * block (so it expires at processed first, at finalized 32 blocks later); a blockhash this
 * chain never issued (another cluster's) is not valid.
 */
const isBlockhashValid: Method = (world, params, { height, context }) => {
  if (typeof params[0] !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(params[0]))
    throw invalidParams('expected a base58 blockhash');
  const last = world.state.chain.blockhashes[params[0]];
  return { context, value: last !== undefined && heightAt(height, params[1]) <= last };
};

/**
 * Tokens bought are held by the service in trading wallets (holdings), not in the owner's
 * wallet: the simulated chain has no token accounts for it.
 */
const getTokenAccountsByOwner: Method = (_world, params, { context }) => {
  address(params[0]);
  const filter = params[1] as { mint?: unknown; programId?: unknown } | undefined;
  if (!filter || (filter.mint === undefined && filter.programId === undefined))
    throw invalidParams('expected a mint or programId filter');
  return { context, value: [] };
};

const getSignatureStatuses: Method = (world, params, { now, context }) => {
  const list = params[0];
  if (!Array.isArray(list) || list.length > 256) throw invalidParams('expected an array of at most 256 signatures');
  return {
    context,
    value: list.map((s) => {
      const tx = landedTransaction(world, signature(s), now);
      if (!tx) return null;
      const err = tx.failed ? FAILED_SWAP_ERR : null;
      return {
        slot: slotOf(world, tx),
        confirmations: null,
        err,
        status: err ? { Err: err } : { Ok: null },
        confirmationStatus: 'finalized',
      };
    }),
  };
};

const getTransaction: Method = (world, params, { now }) => {
  const config = (params[1] ?? {}) as { encoding?: unknown; maxSupportedTransactionVersion?: unknown };
  if (config.encoding !== undefined && config.encoding !== 'json')
    throw invalidParams(`encoding ${String(config.encoding)} is not served by the sandbox; use json`);
  const tx = landedTransaction(world, signature(params[0]), now);
  if (!tx) return null;
  if (config.maxSupportedTransactionVersion === undefined) {
    throw new RpcError(
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  return transactionResult(tx, slotOf(world, tx), tx.at);
};

/** The height (or slot) at the request's commitment. */
const heightAsked: Method = (_world, params, { height }) => heightAt(height, params[0]);

/** The methods the sandbox's node answers, by name. */
const METHODS = new Map<string, Method>([
  ['getHealth', () => 'ok'],
  ['getVersion', () => ({ 'solana-core': '2.0.0', 'feature-set': 0 })],
  ['getBalance', (world, params, { context }) => ({ context, value: chainBalance(world, address(params[0])) })],
  ['getBlockHeight', heightAsked],
  // The simulated chain has one block per slot.
  ['getSlot', heightAsked],
  [
    'getEpochInfo',
    (world, _params, { height }) => ({
      absoluteSlot: height,
      blockHeight: height,
      epoch: Math.floor(height / 432_000),
      slotIndex: height % 432_000,
      slotsInEpoch: 432_000,
      transactionCount: Object.keys(world.state.chain.transactions ?? {}).length,
    }),
  ],
  ['getLatestBlockhash', (world, _params, { now, context }) => ({ context, value: issueBlockhash(world.state, now) })],
  ['isBlockhashValid', isBlockhashValid],
  [
    'getMinimumBalanceForRentExemption',
    (_world, params) => {
      const size = params[0] ?? 0;
      if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) throw invalidParams('expected a data size');
      return rentExempt(size);
    },
  ],
  [
    'getAccountInfo',
    (world, params, { context }) => {
      const at = address(params[0]);
      accountConfig(params[1]);
      return { context, value: accountInfo(world, accountAt(world, at), at) };
    },
  ],
  [
    'getMultipleAccounts',
    (world, params, { context }) => {
      const list = params[0];
      if (!Array.isArray(list) || list.length > 100) throw invalidParams('expected an array of at most 100 addresses');
      accountConfig(params[1]);
      return { context, value: list.map((a) => accountInfo(world, accountAt(world, address(a)), address(a))) };
    },
  ],
  ['getTokenAccountsByOwner', getTokenAccountsByOwner],
  ['getSignatureStatuses', getSignatureStatuses],
  ['getTransaction', getTransaction],
]);

/** One JSON-RPC request object → its response object. */
function answer(world: World, request: unknown): unknown {
  const r = request as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  const id = r && typeof r === 'object' && (typeof r.id === 'string' || typeof r.id === 'number') ? r.id : null;
  try {
    if (!r || typeof r !== 'object' || r.jsonrpc !== '2.0' || typeof r.method !== 'string')
      throw new RpcError(-32600, 'Invalid request');
    if (r.params !== undefined && !Array.isArray(r.params)) throw invalidParams('params must be an array');
    return { jsonrpc: '2.0', result: call(world, r.method, (r.params as unknown[]) ?? []), id };
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    return { jsonrpc: '2.0', error: { code: err.code, message: err.message }, id };
  }
}

/** The body of a POST /rpc: a request or a batch; returns the JSON text to send (always HTTP 200, as RPC nodes do). */
export function handleRpc(world: World, raw: Buffer): string {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return rpcText({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
  }
  if (Array.isArray(body)) return rpcText(body.map((r) => answer(world, r)));
  return rpcText(answer(world, body));
}

/** JSON with every bigint written as an exact integer, as a Solana node writes a u64. */
function rpcText(value: unknown): string {
  // A bigint is carried through JSON.stringify as a marked string, then unquoted.
  const marked = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `\u0001${v}` : v));
  return marked.replace(/"\\u0001(-?\d+)"/g, '$1');
}
