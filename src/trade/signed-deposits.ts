// A buy the service says took no deposit (cancelled, expired) while this tool's journal shows it
// signed one: the service's word cannot say what became of the SOL, the chain can. `cancel`,
// `trades <id>` (with or without --watch) and a resumed `buy` end the same way: exit 0 only when
// the chain proves every deposit signed for the buy can never land; exit 3 when one is on chain
// (the SOL was spent) or may still land (do not buy again before it has expired).
import type { ServiceClient } from '../api/client.js';
import type { Verification } from '../chain/verify-trade.js';
import { ChainContradictionError, ChainUnverifiedError } from '../chain/chain-errors.js';
import type { Context } from '../cli/context.js';
import { NOT_BEFORE_EXPIRED, SOL_SPENT } from '../domain/outcome-words.js';
import { UsageError, type TraderError } from '../domain/errors.js';
import { openTrust, pinnedTreasury } from './trust.js';
import { journalFor, tradeHistory } from '../journal/opened-journal.js';
import { signedDepositsOf } from '../journal/trade-history.js';

/** The buy statuses by which the service says it took no deposit. */
const NO_DEPOSIT = new Set(['cancelled', 'expired']);

/**
 * For buy `id`, which the service reports `status`: when that says no deposit was taken and the
 * journal shows one signed, checks each on chain and prints what it shows; throws (exit 3) unless
 * the chain proves none can land. `checked`: a verification already made and printed (--watch);
 * `render` the lines a verification made here is printed as (views/verification.ts).
 */
export async function holdToSignedDeposits(
  ctx: Context,
  api: ServiceClient,
  id: string,
  status: string,
  render: (v: Verification, theme: Parameters<Parameters<Context['output']['result']>[1]>[0]) => string,
  checked: Verification | null = null,
): Promise<void> {
  if (!NO_DEPOSIT.has(status)) return;
  if (signedDepositsOf(tradeHistory(ctx, await journalFor(ctx, ''), id)).length === 0) return;
  let owner: string;
  try {
    owner = (await ctx.signer()).publicKey;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // Without the wallet the chain cannot be asked about its deposits: exit 3, as an unread chain.
    throw await unsettled({ rpc: '', verdict: 'unchecked', checks: [], reason: err.message }, id, status);
  }
  const journal = await journalFor(ctx, owner);
  let verification = checked;
  if (verification === null) {
    const { verifyOnChain } = await import('./chain-verification.js');
    const treasury = ctx.settings.treasury ?? pinnedTreasury(await openTrust(ctx));
    // Every deposit the journal shows signed for it is checked there (chain-verification.ts).
    verification = await verifyOnChain(ctx, { journal, id, owner, treasury }, await api.getTrade(id));
    if (verification && !ctx.output.json) ctx.output.result(null, (theme) => render(verification!, theme));
  }
  const error = await unsettled(verification, id, status);
  if (error) throw error;
}

/** The exit-3 error for buy `id` reported `status` with deposits signed for it, unless the chain proves none can land. */
async function unsettled(v: Verification | null, id: string, status: string): Promise<TraderError | null> {
  const verify = `trader trades ${id} --verify`;
  const said = `the service reports buy ${id} ${status}, but this tool signed a deposit for it`;
  if (v?.verdict === 'verified') return null;
  if (v?.verdict === 'contradicted') {
    const landed = v.checks.find((c) => c.role === 'deposit' && c.onChain === true);
    if (landed)
      return new ChainContradictionError(`${said}, and the chain has it (${landed.signature}): ${SOL_SPENT}`, [
        `look again with: ${verify}`,
      ]);
    const { contradictionLine } = await import('../chain/verify-trade.js');
    return new ChainContradictionError(contradictionLine(v)!, [`look again with: ${verify}`]);
  }
  const why =
    v === null
      ? 'the trade could not be read'
      : v.verdict === 'unchecked'
        ? `not checked on chain: ${v.reason ?? ''}`
        : (v.checks.find((c) => c.role === 'deposit' && c.mark === 'pending')?.chain ??
          'not everything is on chain yet');
  return new ChainUnverifiedError(
    `${said}, which the chain does not prove can never land (${why}); ${NOT_BEFORE_EXPIRED}`,
    [`check it with: ${verify}`],
  );
}
