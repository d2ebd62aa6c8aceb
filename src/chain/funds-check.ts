// Reads what the buy's funds check needs from the chain: the wallet's balance and the
// rent-exempt minimum. A chain that cannot be read gives an unchecked result, never a refusal.
import type { Funds } from '../domain/funds.js';
import { UsageError } from '../domain/errors.js';
import { ChainUnavailableError, type ChainReader } from './chain-reader.js';

/**
 * The wallet's funds for a deposit of `depositLamports` with a fee of at most `networkFeeLamports`,
 * and whether the chain knows the deposit's `blockhash` (recorded for a later absence proof).
 */
export async function readFunds(
  chain: () => Promise<ChainReader>,
  owner: string,
  depositLamports: bigint,
  networkFeeLamports: bigint,
  blockhash: string,
): Promise<Funds> {
  try {
    const reader = await chain();
    const [balanceLamports, keepLamports] = await Promise.all([reader.balance(owner), reader.rentExemptMinimum()]);
    // Last, so that an RPC without isBlockhashValid costs only the later proof, not the funds check.
    const blockhashKnown = await reader.blockhashValid(blockhash, 'processed').catch((err) => {
      if (err instanceof ChainUnavailableError) return false;
      throw err;
    });
    return { checked: true, balanceLamports, depositLamports, networkFeeLamports, keepLamports, blockhashKnown };
  } catch (err) {
    // A chain that cannot be read, or an RPC URL that is not one, costs the check, not the buy.
    if (err instanceof ChainUnavailableError || err instanceof UsageError)
      return { checked: false, reason: err.message };
    throw err;
  }
}
