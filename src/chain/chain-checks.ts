// The chain reads commands make, with the chain's failure turned into the command's words: a
// read the command cannot do without (balance, --verify) fails with exit 3; elsewhere the
// caller gets null and says "not checked on chain".
import { ChainUnreachableError } from './chain-errors.js';
import { ChainUnavailableError, type ChainReader } from './chain-reader.js';

/** The wallet's lamports, or exit 3 naming the RPC endpoint. */
export async function readBalance(chain: ChainReader, address: string): Promise<bigint> {
  try {
    return await chain.balance(address);
  } catch (err) {
    if (err instanceof ChainUnavailableError)
      throw new ChainUnreachableError(`could not read the balance from the chain: ${err.message}`, [
        'check --rpc-url (TRADER_RPC_URL, config rpcUrl)',
      ]);
    throw err;
  }
}

/** The wallet's token balances per mint, or exit 3 naming the RPC endpoint. */
export async function readTokenBalances(
  chain: ChainReader,
  owner: string,
): Promise<Map<string, { amount: bigint; decimals: number }>> {
  try {
    return await chain.tokenBalances(owner);
  } catch (err) {
    if (err instanceof ChainUnavailableError)
      throw new ChainUnreachableError(`could not read the token accounts from the chain: ${err.message}`, [
        'check --rpc-url (TRADER_RPC_URL, config rpcUrl)',
      ]);
    throw err;
  }
}
