// Human views of one trade: the full trade form, and a sell read through its authorization.
import { WRAPPED_SOL_MINT } from '../domain/address.js';
import { oneLine } from '../io/terminal-text.js';
import type { GetSellResponse, Trade } from '../api/types.js';
import { formatSol } from '../domain/amounts.js';
import { formatLocalTime } from '../domain/local-time.js';
import { renderFields } from '../io/table.js';
import type { Theme } from '../io/theme.js';
import type { TokenMeta } from '../domain/token-meta.js';
import { stageWords } from './stage.js';
import { tokenAmount } from './token-amount.js';

/** Token facts the trade does not carry (symbol, decimals); callers pass what they know. */
export type TokenFacts = (mint: string) => TokenMeta | null;

function amountOf(mint: string, amount: string | null, token: TokenFacts): string {
  if (amount === null) return '—';
  if (mint === WRAPPED_SOL_MINT) return `${formatSol(amount)} SOL`;
  const meta = token(mint);
  return tokenAmount(amount, meta);
}

/** The token's name when known, and its mint on a line of its own (to fit 80 columns). */
function tokenFields(mint: string, token: TokenFacts): Array<[string, string]> {
  const meta = token(mint);
  return meta?.symbol
    ? [
        ['Token', `${oneLine(meta.symbol)}${meta.name ? ` (${oneLine(meta.name)})` : ''}`],
        ['Mint', mint],
      ]
    : [['Token', mint]];
}

/** A received amount: what came, `— (not yet)` while the trade goes on, `none` once it is over without it. */
function received(trade: Trade, mint: string, token: TokenFacts): string {
  if (trade.receivedOutputAmount !== null) return amountOf(mint, trade.receivedOutputAmount, token);
  return trade.terminal ? 'none' : '— (not yet)';
}

/** The signatures, failure and refund a trade names, each on its own line. */
function outcomeFields(trade: Trade, theme: Theme): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  if (trade.signatures.deposit) fields.push(['Deposit sig', trade.signatures.deposit]);
  for (const sig of trade.signatures.swaps) fields.push(['Swap sig', sig]);
  for (const sig of trade.signatures.payouts) fields.push(['Payout sig', sig]);
  if (trade.failure) {
    fields.push([
      'Failure',
      theme.failure(`${trade.failure.code ?? 'unknown'}: ${trade.failure.reason ?? 'no reason given'}`),
    ]);
  }
  if (trade.refund)
    fields.push([
      'Refund',
      `${trade.refund.state}${trade.refund.amountLamports ? `, ${formatSol(trade.refund.amountLamports)} SOL` : ''}`,
    ]);
  if (trade.signatures.refund) fields.push(['Refund sig', trade.signatures.refund]);
  return fields;
}

/**
 * `trader trades <id>` for the full trade form. A buy: SOL paid, tokens received (with their
 * unit), the deposit and swap signatures; a sell: tokens sold, SOL received, the swap and payout
 * signatures; either: the failure or refund when there is one.
 */
export function renderTrade(trade: Trade, theme: Theme, token: TokenFacts = () => null): string {
  const fields: Array<[string, string]> = [
    ['Trade', trade.id],
    ['Side', trade.side],
    ['Stage', `${theme.status(trade.stage, stageWords(trade.stage))}${trade.terminal ? '' : ' (in progress)'}`],
    ['Status', trade.status],
  ];
  if (trade.side === 'buy') {
    fields.push(
      ...tokenFields(trade.outputMint, token),
      ['Deposit', `${formatSol(trade.inputAmount)} SOL`],
      ['Expected out', amountOf(trade.outputMint, trade.expectedOutputAmount, token)],
      ['Minimum out', amountOf(trade.outputMint, trade.minimumOutputAmount, token)],
      ['Received', theme.bold(received(trade, trade.outputMint, token))],
      ['Platform fee', trade.platformFeeLamports === null ? '—' : `${formatSol(trade.platformFeeLamports)} SOL`],
    );
  } else {
    fields.push(
      ...tokenFields(trade.inputMint, token),
      // Sold only once the sale happened: until then (or when it failed) the amount offered.
      [trade.stage === 'completed' ? 'Sold' : 'Amount', amountOf(trade.inputMint, trade.inputAmount, token)],
      ['Expected SOL', amountOf(trade.outputMint, trade.expectedOutputAmount, token)],
      ['Minimum SOL', amountOf(trade.outputMint, trade.minimumOutputAmount, token)],
      ['SOL received', theme.bold(received(trade, trade.outputMint, token))],
    );
  }
  fields.push(['Slippage', trade.slippageBps === null ? '—' : `${trade.slippageBps} bps`]);
  fields.push(...outcomeFields(trade, theme));
  fields.push(['Created', formatLocalTime(trade.createdAt)]);
  if (trade.expiresAt) fields.push(['Deposit deadline', formatLocalTime(trade.expiresAt)]);
  fields.push(['Completed', formatLocalTime(trade.completedAt)]);
  return renderFields(fields, theme);
}

/**
 * `trader trades sell_…`: the authorization and, once the sell has a trade (read through the
 * group key its sell object gives), the SOL received, the swap and payout signatures and any
 * failure. `trade` is null before the sell is authorized or when the service gives no trade.
 */
export function renderSell(
  view: GetSellResponse,
  trade: Trade | null,
  theme: Theme,
  token: TokenMeta | null = null,
): string {
  const a = view.authorization;
  // The service's record as read: Sold once it reports the sale completed, Offered when it failed (the chain's marks follow under --watch and --verify; the sell's own summary says Sold only for a payout the chain shows).
  const failed = a.status === 'failed' || view.sell?.status === 'failed' || trade?.stage === 'failed';
  const amountLabel = trade?.stage === 'completed' ? 'Sold' : failed ? 'Offered' : 'Amount';
  const fields: Array<[string, string]> = [
    ['Sell', a.id],
    ['Authorization', theme.status(a.status)],
    ['Sell status', view.sell ? theme.status(view.sell.status) : '— (not authorized yet)'],
    ...tokenFields(a.mint, () => token),
    [amountLabel, tokenAmount(a.amount, token)],
    ['Expected SOL', `${formatSol(a.expectedOutputLamports)} SOL`],
    ['Minimum SOL', `${formatSol(a.minimumOutputLamports)} SOL`],
  ];
  if (trade) {
    fields.push(['SOL received', theme.bold(received(trade, trade.outputMint, () => token))]);
    if (trade.id !== a.id) fields.push(['Trade', trade.id]);
  } else if (view.sell) {
    fields.push(['SOL received', 'unknown (the service gave no trade for this sell)']);
  }
  fields.push(
    ['Slippage', `${a.slippageBps} bps`],
    ['Expires', formatLocalTime(a.expiresAt)],
    ['Authorized', formatLocalTime(a.authorizedAt)],
  );
  if (a.failureCode || a.failureReason) {
    fields.push(['Failure', theme.failure(`${a.failureCode ?? 'unknown'}: ${a.failureReason ?? 'no reason given'}`)]);
  }
  if (trade) fields.push(...outcomeFields(trade, theme));
  return renderFields(fields, theme);
}
