// What buy and sell do with the chain once the service reports progress: check the trade's
// signatures, warn when the chain cannot be read, and stop with exit 3 when it contradicts the
// service. `trades --verify` uses the same checks and is stricter (src/commands/trades-verify.ts).
import type { Trade } from '../api/types.js';
import { ChainContradictionError } from '../chain/chain-errors.js';
import type { Verification, VerifyInput } from '../chain/verify-trade.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

/** Checks the trade on chain; null when there is no trade to check. A chain that cannot be read is a warning. */
export async function verifyOnChain(ctx: Context, trade: Trade | null, input: Omit<VerifyInput, 'trade'>): Promise<Verification | null> {
  if (trade === null) return null;
  const { verifyTrade } = await import('../chain/verify-trade.js');
  let verification: Verification;
  try {
    verification = await verifyTrade(await ctx.chain(), { ...input, trade });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // Only the host: a provider's URL may carry its key in the path or query.
    verification = { rpc: hostOf(ctx.settings.rpcUrl), verdict: 'unchecked', checks: [], reason: err.message };
  }
  // Human output says it in the On chain line under the summary; a warning would say it twice.
  if (verification.verdict === 'unchecked' && ctx.output.json) ctx.output.warn(`not checked on chain: ${verification.reason}`);
  return verification;
}

/** Exit 3 with the evidence in one line and the command to look again, when the chain contradicts the service. */
export async function stopIfContradicted(verification: Verification | null, tradeId: string): Promise<void> {
  if (verification?.verdict !== 'contradicted') return;
  const { contradictionLine } = await import('../chain/verify-trade.js');
  throw new ChainContradictionError(contradictionLine(verification)!, [`look again with: trader trades ${tradeId} --verify`]);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured RPC URL';
  }
}
