// Human views of a sell: the review before signing and the summary at the end.
import type { GetSellResponse, SellAuthorization, Trade } from '../../api/types.js';
import { formatSol } from '../../amounts.js';
import type { SellOutcome } from '../../trade/sell-outcome.js';
import type { TokenMeta } from '../../trade/token-lookup.js';
import { formatTimeLeft } from '../time-format.js';
import { renderFields } from '../table.js';
import type { Theme } from '../theme.js';
import { tokenAmount } from './token-amount.js';

/** What the user approves, including the exact message that will be signed. */
export function renderSellReview(a: SellAuthorization, token: TokenMeta | null, nowMs: number, theme: Theme): string {
  const fields = renderFields([
    ['Sell', `${tokenAmount(a.amount, token)} (${a.amount} raw)`],
    ['Token', `${token?.name ? `${token.name} ` : ''}${a.mint}`],
    ['Expected', `${formatSol(a.expectedOutputLamports)} SOL`],
    ['Minimum', theme.bold(`${formatSol(a.minimumOutputLamports)} SOL`) + ` (${a.minimumOutputLamports} lamports, signed floor)`],
    ['Slippage', `${a.slippageBps} bps (${a.slippageBps / 100}%)`],
    ['Time left', formatTimeLeft(a.expiresAt, nowMs)],
    ['Sell id', a.id],
  ]);
  const message = a.message
    .split('\n')
    .map((line) => `  │ ${line}`)
    .join('\n');
  return `${fields}\nMessage to sign, exactly:\n${message}`;
}

/** The end of a sell, for stdout. */
export function renderSellSummary(
  view: GetSellResponse,
  outcome: SellOutcome | undefined,
  trade: Trade | null,
  token: TokenMeta | null,
  theme: Theme,
): string {
  const a = view.authorization;
  const state = outcome?.state ?? 'pending';
  const fields: Array<[string, string]> = [
    ['Sell', a.id],
    ['Status', theme.status(state === 'pending' ? (view.sell?.status ?? a.status) : state)],
    ['Sold', tokenAmount(a.amount, token)],
  ];
  if (trade?.receivedOutputAmount) fields.push(['SOL received', theme.bold(`${formatSol(trade.receivedOutputAmount)} SOL`)]);
  else fields.push(['Minimum SOL', `${formatSol(a.minimumOutputLamports)} SOL`]);
  for (const s of trade?.signatures.payouts ?? []) fields.push(['Payout sig', s]);
  if (outcome?.state === 'failed') {
    fields.push(['Failure', theme.failure(`${outcome.code ?? 'unknown'}: ${outcome.reason ?? 'no reason given'}`)]);
    if (outcome.nothingSold) fields.push(['', 'nothing was sold']);
  }
  return renderFields(fields);
}
