// `trader trades <id> --verify`: every signature the trade names checked against the chain, in a
// table (signature, what it should be, what the chain shows) or one --json document. What this
// tool's journal recorded when it signed is used: every deposit it signed (so a deposit whose
// blockhash expired without landing is proven never to land, from any later process, and one that
// landed is the SOL spent whatever the service names), when it
// created the trade (no payout may predate it), and the transactions that proved other trades
// (none may prove this one too). Exit 0 only when everything checks; 3 when the chain
// contradicts the service, cannot be read, or does not show everything yet.
import type { ServiceClient } from '../../api/client.js';
import { ApiError, SERVICE_CONTRADICTION } from '../../domain/errors.js';
import { sellGroupKey } from '../../trade/sell-answers.js';
import type { Verification } from '../../chain/verify-trade.js';
import type { Context } from '../../cli/context.js';
import { renderVerificationTable } from '../../views/verification.js';
import { oneLine } from '../../io/terminal-text.js';
import { noTradeForSell, verdictError } from '../../views/error-words.js';
import { openTrust, pinnedTreasury } from '../../trade/trust.js';
import { journalFor, tradeHistory } from '../../journal/opened-journal.js';
import { recordLearnt } from '../../journal/followed.js';
import { verifyOnChain } from '../../trade/chain-verification.js';

/** Verifies trade `id` (already resolved) on chain and prints the result (`wide`: each cell whole on one line); throws for exit 3. */
export async function verifyTradeCommand(ctx: Context, api: ServiceClient, id: string, wide = false): Promise<void> {
  const owner = (await ctx.signer()).publicKey;
  await ctx.chain(); // a bad --rpc-url is exit 2 before anything is read
  // A sell's minimum as the owner signed it: the journal's record, else the authorization as the service reports it.
  const sellView = id.startsWith('sell_') ? await api.getSell(id) : null;
  const serviceMinimum = sellView ? BigInt(sellView.authorization.minimumOutputLamports) : null;
  let trade;
  try {
    trade = await api.getTrade(id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && id.startsWith('sell_')) {
      throw err.withNote(noTradeForSell(id));
    }
    throw err;
  }
  // A trade read by a sell's sell_… id is that sell's: its id is the group key the sell names (attack-log-4 R4-1).
  if (sellView && trade.id !== id && trade.id !== sellGroupKey(sellView.sell))
    throw new ApiError(
      `the service answered the read of trade ${id} with trade ${JSON.stringify(trade.id)}, which sell ${id} does not name as its own: not the one asked for`,
      { code: SERVICE_CONTRADICTION },
    );
  // …and of what that sell authorized: its token, and no more of it (attack-log-4 R4-1, a sell
  // object borrowed from another sell to name its group key).
  const authorized = sellView?.authorization;
  if (
    authorized &&
    (trade.inputMint !== authorized.mint ||
      !/^\d+$/.test(trade.inputAmount) ||
      BigInt(trade.inputAmount) > BigInt(authorized.amount))
  )
    throw new ApiError(
      `the service's trade ${JSON.stringify(trade.id)} for sell ${id} sells ${JSON.stringify(trade.inputAmount)} raw units of ${JSON.stringify(trade.inputMint)}, not what the sell authorized (${authorized.amount} of ${authorized.mint})`,
      { code: SERVICE_CONTRADICTION },
    );
  const treasury = ctx.settings.treasury ?? pinnedTreasury(await openTrust(ctx));
  const journal = await journalFor(ctx, owner);
  const history = tradeHistory(ctx, journal, id);
  if (history === null) {
    ctx.output.warn(
      `this tool's journal has no record of ${id}: a deposit it did not sign here cannot be proven never to land, and a payout or refund is bounded only by the time the service gives`,
    );
  }
  // The transactions the service names for a journaled trade are kept, so that no later trade can
  // claim them; a sell is journaled by its sell_… id, and its trade id is kept too, so that a later
  // --verify by that id is known as the same trade (and the lists' entry as this sell). A trade the
  // journal does not know (perhaps one of its sells by a trade id it never learnt) is compared
  // with the evidence, not recorded: recorded under a second name, it would contradict its own
  // sell_… id later.
  const verification: Verification = (await verifyOnChain(
    ctx,
    { journal, id, owner, treasury, serviceMinimumLamports: serviceMinimum, reportsUnchecked: true },
    trade,
  ))!;
  // Recorded only once the read passed its checks: a contradicted answer (another trade's
  // transactions) must not become this trade's in the journal (attack-log-4 R4-4).
  if (history !== null && verification.verdict !== 'contradicted') recordLearnt(ctx, history, trade);
  // Which trade was checked heads the claims: with the top scrolled off, the command is gone too.
  // The id asked for (the client holds the service's answer to it), on one line.
  ctx.output.result(
    { trade, verification },
    (theme) =>
      `${trade.side === 'buy' ? 'Buy' : 'Sell'} ${oneLine(id)}\n${renderVerificationTable(verification, theme, {
        width: ctx.terminal.columns,
        wide,
        shorten: ctx.terminal.stdoutIsTTY,
      })}`,
  );
  const error = verdictError(verification, id);
  if (error) throw error;
}
