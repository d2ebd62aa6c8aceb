// A confirmed transaction as the checks need it: who signed, whether it succeeded, and how each
// account's SOL moved (pre/post balances, which every standard RPC returns). Built from the raw
// JSON-RPC `getTransaction` result, its lamports read exactly (chain/exact-json.ts): a balance
// above 2^53 is a bigint to the lamport, never a rounded float. The checks see only this.
import { exactLamports } from './exact-json.js';

export interface ChainTransaction {
  signature: string;
  slot: number;
  /** When its block was produced (Unix seconds), or null when the chain does not say. */
  blockTime: number | null;
  /** How many of `accounts`, from the first, signed it (the first is the fee payer). */
  signers: number;
  /** The transaction's error, or null when it succeeded. */
  err: unknown;
  /** Network fee paid by the fee payer (the first account). */
  fee: bigint;
  /** Every account the transaction touched, static keys then loaded ones, in RPC order. */
  accounts: string[];
  preBalances: bigint[];
  postBalances: bigint[];
  /** Token balances around it (meta.pre/postTokenBalances), or null when the RPC gave none in a shape it knows. */
  tokenBalances: { pre: TokenBalance[]; post: TokenBalance[] } | null;
}

/** One token account's balance of one mint, as meta.pre/postTokenBalances state it. */
export interface TokenBalance {
  /** The token account, resolved from its accountIndex. */
  account: string;
  mint: string;
  /** The wallet that owns the token account, where the RPC says. */
  owner: string | null;
  amount: bigint;
  /** The mint's decimals as the chain states them beside the amount, or null when it does not. */
  decimals: number | null;
}

interface RawResult {
  slot?: unknown;
  blockTime?: unknown;
  meta?: {
    err?: unknown;
    fee?: unknown;
    preBalances?: unknown;
    postBalances?: unknown;
    preTokenBalances?: unknown;
    postTokenBalances?: unknown;
    loadedAddresses?: { writable?: unknown; readonly?: unknown } | null;
  } | null;
  transaction?: { message?: { accountKeys?: unknown; header?: { numRequiredSignatures?: unknown } | null } } | null;
}

const lamports = (values: unknown): bigint[] | null => {
  if (!Array.isArray(values)) return null;
  const exact = values.map(exactLamports);
  return exact.every((v): v is bigint => v !== null) ? exact : null;
};
const strings = (values: unknown): string[] | null =>
  Array.isArray(values) && values.every((v) => typeof v === 'string') ? (values as string[]) : null;

/**
 * The raw `getTransaction` result (encoding json); null for a null result. A result whose
 * shape is not the standard one throws: a check must never pass on what it could not read.
 */
export function fromRpcJson(signature: string, result: unknown): ChainTransaction | null {
  if (result === null || result === undefined) return null;
  const r = result as RawResult;
  const keys = strings(r.transaction?.message?.accountKeys);
  const loaded = r.meta?.loadedAddresses;
  const writable = loaded ? strings(loaded.writable ?? []) : [];
  const readonly = loaded ? strings(loaded.readonly ?? []) : [];
  const pre = lamports(r.meta?.preBalances);
  const post = lamports(r.meta?.postBalances);
  const fee = exactLamports(r.meta?.fee);
  const signers = r.transaction?.message?.header?.numRequiredSignatures;
  const blockTime = r.blockTime ?? null;
  if (
    !keys ||
    !writable ||
    !readonly ||
    !pre ||
    !post ||
    fee === null ||
    typeof r.slot !== 'number' ||
    typeof signers !== 'number' ||
    !Number.isInteger(signers) ||
    signers < 1 ||
    (blockTime !== null && typeof blockTime !== 'number')
  ) {
    throw new Error(`transaction ${signature}: the RPC answered a getTransaction result of an unknown shape`);
  }
  const accounts = [...keys, ...writable, ...readonly];
  const [preTokens, postTokens] = [
    tokenBalances(r.meta?.preTokenBalances, accounts),
    tokenBalances(r.meta?.postTokenBalances, accounts),
  ];
  const tokens = preTokens && postTokens ? { pre: preTokens, post: postTokens } : null;
  return finish({
    signature,
    slot: r.slot,
    blockTime: blockTime as number | null,
    signers,
    err: r.meta?.err ?? null,
    fee,
    accounts,
    preBalances: pre,
    postBalances: post,
    tokenBalances: tokens,
  });
}

/** meta.pre/postTokenBalances, each entry's account resolved; null when absent or of another shape (nothing is read from it then). */
function tokenBalances(values: unknown, accounts: string[]): TokenBalance[] | null {
  if (!Array.isArray(values)) return null;
  const out: TokenBalance[] = [];
  for (const v of values as Array<Record<string, unknown> | null>) {
    const { amount, decimals } = (v?.uiTokenAmount ?? {}) as { amount?: unknown; decimals?: unknown };
    const index = v?.accountIndex;
    if (
      typeof index !== 'number' ||
      !Number.isInteger(index) ||
      index < 0 ||
      index >= accounts.length ||
      typeof v?.mint !== 'string' ||
      typeof amount !== 'string' ||
      !/^\d+$/.test(amount)
    )
      return null;
    out.push({
      account: accounts[index]!,
      mint: v.mint,
      owner: typeof v.owner === 'string' ? v.owner : null,
      amount: BigInt(amount),
      decimals:
        typeof decimals === 'number' && Number.isInteger(decimals) && decimals >= 0 && decimals <= 255
          ? decimals
          : null,
    });
  }
  return out;
}

/** What one token account gained of a mint in a transaction, with the decimals the chain states for it. */
export interface TokenGain {
  amount: bigint;
  account: string | null;
  owner: string | null;
  decimals: number | null;
}

/** The most of `mint` one token account gained in the transaction, and which; null when the transaction shows no token balances. */
export function tokenGain(tx: ChainTransaction, mint: string): TokenGain | null {
  if (!tx.tokenBalances) return null;
  const { pre, post } = tx.tokenBalances;
  let best: TokenGain = { amount: 0n, account: null, owner: null, decimals: null };
  for (const after of post.filter((b) => b.mint === mint)) {
    const gain = after.amount - (pre.find((b) => b.account === after.account && b.mint === mint)?.amount ?? 0n);
    if (gain > best.amount)
      best = { amount: gain, account: after.account, owner: after.owner, decimals: after.decimals };
  }
  return best;
}

function finish(tx: ChainTransaction): ChainTransaction {
  if (tx.preBalances.length !== tx.accounts.length || tx.postBalances.length !== tx.accounts.length) {
    throw new Error(`transaction ${tx.signature}: balances do not match its ${tx.accounts.length} accounts`);
  }
  return tx;
}

/** How an address's SOL changed in the transaction (0 when it is not in it). */
export function lamportsChange(tx: ChainTransaction, address: string): bigint {
  let change = 0n;
  tx.accounts.forEach((a, i) => {
    if (a === address) change = tx.postBalances[i]! - tx.preBalances[i]!;
  });
  return change;
}

/** The account that gained the most SOL, with how much (null when none gained any). */
export function largestGain(tx: ChainTransaction): { address: string; lamports: bigint } | null {
  let best: { address: string; lamports: bigint } | null = null;
  tx.accounts.forEach((a, i) => {
    const gain = tx.postBalances[i]! - tx.preBalances[i]!;
    if (gain > 0n && (best === null || gain > best.lamports)) best = { address: a, lamports: gain };
  });
  return best;
}

/**
 * Whether a transaction touches a token: the mint is among its accounts, or its token balances
 * show the mint changing hands (a failed one: a token account of the mint among them at all).
 */
export function touchesMint(tx: ChainTransaction, mint: string): boolean {
  if (tx.accounts.includes(mint)) return true;
  if (!tx.tokenBalances) return false;
  const { pre, post } = tx.tokenBalances;
  const amount = (list: TokenBalance[], account: string) =>
    list.find((b) => b.account === account && b.mint === mint)?.amount ?? 0n;
  const accounts = new Set([...pre, ...post].filter((b) => b.mint === mint).map((b) => b.account));
  if (tx.err !== null) return accounts.size > 0;
  return [...accounts].some((a) => amount(pre, a) !== amount(post, a));
}
