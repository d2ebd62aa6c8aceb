// The simulated chain's transactions: every SOL movement the service side makes (deposits,
// swaps, payouts, refunds) is recorded here with the balances before and after, so the JSON-RPC
// endpoint (rpc.ts) can answer getTransaction and getBalance over the same ledger.
import { deriveAddress } from './market.js';
import type { LedgerTokenMove, LedgerTransfer, LedgerTx, Lie } from './state.js';
import type { World } from './world.js';
import { walletLamports } from './wallet.js';

/** The pool side of every swap: where the SOL of a buy goes, and a sell's comes from. */
export const POOL_ADDRESS = deriveAddress('trader-sandbox-pool');
/** A wallet that is not the owner's: where a lying service sends a payout. */
export const OTHER_WALLET = deriveAddress('trader-sandbox-somebody-else');
/** What the treasury and the pool hold at the start. */
const SERVICE_START_LAMPORTS = 1_000_000_000_000_000n;
/** Fee of a transaction the service signs (one signature). */
export const SERVICE_TX_FEE = 5_000n;

function ledger(world: World): Record<string, LedgerTx> {
  return (world.state.chain.transactions ??= {});
}

function others(world: World): Record<string, bigint> {
  return (world.state.chain.balances ??= {});
}

/** The account id whose wallet is `address`, if any. */
function accountOf(world: World, address: string): string | null {
  return world.state.identity.accounts.find((a) => a.walletAddress === address)?.id ?? null;
}

/** SOL held by any address on the simulated chain. */
export function chainBalance(world: World, address: string): bigint {
  const account = accountOf(world, address);
  if (account) return walletLamports(world, account);
  const held = others(world)[address];
  if (held !== undefined) return held;
  return address === world.state.identity.treasury || address === POOL_ADDRESS ? SERVICE_START_LAMPORTS : 0n;
}

/**
 * Records a transaction. Owner wallets have already been debited or credited by the caller
 * (wallet.ts); every other address's balance moves here.
 */
export function recordTransaction(
  world: World,
  tx: {
    signature: string;
    at: number;
    feePayer: string;
    fee: bigint;
    transfers: LedgerTransfer[];
    failed?: boolean;
    tokens?: LedgerTokenMove[];
    reads?: string[];
    wire?: string;
  },
): LedgerTx {
  const change = new Map<string, bigint>([[tx.feePayer, -tx.fee]]);
  for (const t of tx.transfers) {
    change.set(t.from, (change.get(t.from) ?? 0n) - t.lamports);
    change.set(t.to, (change.get(t.to) ?? 0n) + t.lamports);
  }
  const accounts = [...change.keys()];
  const post: bigint[] = [];
  const pre: bigint[] = [];
  for (const address of accounts) {
    const delta = change.get(address)!;
    if (accountOf(world, address)) {
      const now = chainBalance(world, address);
      post.push(now);
      pre.push(now - delta);
    } else {
      const before = chainBalance(world, address);
      others(world)[address] = before + delta;
      pre.push(before);
      post.push(before + delta);
    }
  }
  const record: LedgerTx = { ...tx, accounts, pre, post };
  ledger(world)[tx.signature] = record;
  return record;
}

/** The transaction of a signature, once the chain shows it at sandbox time `now`. */
export function landedTransaction(world: World, signature: string, now: number): LedgerTx | null {
  const tx = ledger(world)[signature];
  return tx && tx.at <= now ? tx : null;
}

/** Takes the next lie of one of these kinds from the queue, if one is waiting. */
export function takeLie<K extends Lie>(world: World, kinds: readonly K[]): K | null {
  const lies = world.state.lies ?? [];
  const i = lies.findIndex((l) => (kinds as readonly Lie[]).includes(l));
  if (i < 0) return null;
  return lies.splice(i, 1)[0] as K;
}

/** The service saw a transaction confirmed at `at`: the chain shows it from then at the latest. */
export function landBy(world: World, signature: string, at: number): void {
  const tx = ledger(world)[signature];
  if (tx && tx.at > at) tx.at = at;
}
