// Human views of a buy: the review before signing and the summary at the end.
import type { BuyIntent, Trade } from '../../api/types.js';
import { formatSol } from '../../amounts.js';
import type { TokenMeta } from '../../trade/token-lookup.js';
import type { BuyReview } from '../../trade/buy-flow.js';
import { formatLocalTime, formatTimeLeft } from '../time-format.js';
import { renderFields } from '../table.js';
import type { Theme } from '../theme.js';
import { tokenAmount } from './token-amount.js';

const tokenName = (mint: string, token: TokenMeta | null) =>
  token?.symbol ? `${token.symbol}${token.name ? ` (${token.name})` : ''} ${mint}` : mint;

/** What the user approves: every fact the deposit transaction was checked for. */
export function renderBuyReview(
  review: BuyReview,
  opts: { token: TokenMeta | null; slippageBps: number | undefined; nowMs: number },
  theme: Theme,
): string {
  const { intent, facts } = review;
  return renderFields([
    ['Buy', tokenName(intent.outputMint, opts.token)],
    ['Pay', theme.bold(`${formatSol(intent.amountLamports)} SOL`) + ` (${intent.amountLamports} lamports, fees included)`],
    ['Minimum out', tokenAmount(intent.minimumOutputAmount, opts.token)],
    ['Slippage', opts.slippageBps === undefined ? "service's default" : `${opts.slippageBps} bps (${opts.slippageBps / 100}%)`],
    ['Network fee', `${formatSol(facts.networkFeeLamports)} SOL (${facts.networkFeeLamports} lamports)`],
    ['Recipient', `${facts.recipient ?? '—'} ${facts.treasuryCheck === 'pinned' ? theme.success('(pinned treasury)') : theme.pending('(first use: will be pinned)')}`],
    ['Deadline', `${formatLocalTime(intent.depositExpiresAt)} (${formatTimeLeft(intent.depositExpiresAt, opts.nowMs)} left)`],
    ['Buy id', intent.id],
  ]);
}

/** The end of a buy, for stdout. */
export function renderBuySummary(intent: BuyIntent, trade: Trade | null, token: TokenMeta | null, theme: Theme): string {
  const fields: Array<[string, string]> = [
    ['Buy', intent.id],
    ['Status', theme.status(intent.status)],
    ['Token', tokenName(intent.outputMint, token)],
  ];
  if (trade) {
    fields.push(['Received', trade.receivedOutputAmount === null ? '—' : tokenAmount(trade.receivedOutputAmount, token)]);
    fields.push(['SOL spent', `${formatSol(trade.inputAmount)} SOL`]);
    fields.push(['Platform fee', trade.platformFeeLamports === null ? '—' : `${formatSol(trade.platformFeeLamports)} SOL`]);
    if (trade.signatures.deposit) fields.push(['Deposit sig', trade.signatures.deposit]);
    for (const s of trade.signatures.swaps) fields.push(['Swap sig', s]);
    if (trade.failure) fields.push(['Failure', theme.failure(`${trade.failure.code ?? 'unknown'}: ${trade.failure.reason ?? 'no reason given'}`)]);
    if (trade.refund) fields.push(['Refund', `${trade.refund.state}${trade.refund.amountLamports ? `, ${formatSol(trade.refund.amountLamports)} SOL` : ''}`]);
    if (trade.signatures.refund) fields.push(['Refund sig', trade.signatures.refund]);
  } else {
    fields.push(['SOL', `${formatSol(intent.amountLamports)} SOL`]);
  }
  return renderFields(fields);
}
