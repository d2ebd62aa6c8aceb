// The owner wallet's SOL, as the chain would hold it: a deposit needs the amount plus the
// network fee, and is refused at submit (as a broadcast that fails preflight) when the wallet
// is short; refunds and sell payouts come back to it.
import { HttpError } from './sandbox-error.js';
import { formatUnits } from './market.js';
import type { World } from './world.js';

/**
 * Start balance of each account's wallet when none is given: 100 SOL. The sandbox keeps its own
 * copy (it shares nothing with the client but the API types); a test holds it equal to the
 * command's default (SANDBOX_START_BALANCE_LAMPORTS in src/domain/defaults.ts).
 */
export const DEFAULT_START_BALANCE_LAMPORTS = 100_000_000_000n;

const sol = (lamports: bigint) => `${formatUnits(lamports, 9)} SOL`;

/** The wallet balance of an account, in lamports (a state saved before balances existed starts full). */
export function walletLamports(world: World, accountId: string): bigint {
  const data = world.account(accountId);
  data.walletLamports ??= world.state.identity.startBalanceLamports ?? DEFAULT_START_BALANCE_LAMPORTS;
  return data.walletLamports;
}

/** Takes a deposit's amount and network fee from the wallet, or refuses it untouched. */
export function payDeposit(world: World, accountId: string, amountLamports: bigint, feeLamports: bigint): void {
  const need = amountLamports + feeLamports;
  const have = walletLamports(world, accountId);
  if (have < need) {
    throw new HttpError(
      422,
      'INSUFFICIENT_FUNDS',
      `transaction simulation failed: insufficient funds: the wallet holds ${sol(have)} and the deposit needs ${sol(need)} (${sol(amountLamports)} plus a ${sol(feeLamports)} network fee); nothing was broadcast`,
      { balanceLamports: have.toString(), requiredLamports: need.toString() },
    );
  }
  world.account(accountId).walletLamports = have - need;
}

/** SOL arriving in the wallet (a refund, a sell payout, a top-up). */
export function credit(world: World, accountId: string, lamports: bigint): void {
  world.account(accountId).walletLamports = walletLamports(world, accountId) + lamports;
}

/** Sets the wallet balance (control surface). */
export function setBalance(world: World, accountId: string, lamports: bigint): void {
  world.account(accountId).walletLamports = lamports;
}

/** A SOL amount of the control surface ("2.5" or 2.5) in lamports; null when it is not one. */
export function parseSol(value: unknown): bigint | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return null;
  const m = /^(\d{1,12})(?:\.(\d{1,9}))?$/.exec(text);
  return m ? BigInt(m[1]!) * 1_000_000_000n + BigInt((m[2] ?? '').padEnd(9, '0')) : null;
}
