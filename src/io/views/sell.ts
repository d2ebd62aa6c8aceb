// Human views of a sell: the review before signing and the summary at the end.
import type { GetSellResponse, Trade } from '../../api/types.js';
import { formatSol } from '../../amounts.js';
import type { SellReview } from '../../domain/sell-review.js';
import type { SellOutcome } from '../../domain/sell-outcome.js';
import { wordDiff } from '../../domain/wording-diff.js';
import type { TokenMeta } from '../../domain/token.js';
import { fingerprint, templateText } from '../../wallet/sell-template/template.js';
import { oneLine } from '../terminal-text.js';
import { formatLocalTime } from '../../domain/local-time.js';
import { timeLeft } from '../../domain/answer-deadline.js';
import { renderFields, renderQuoted } from '../table.js';
import type { Theme } from '../theme.js';
import { tokenAmount } from './token-amount.js';
import { NOTHING_SOLD } from '../../domain/outcome-words.js';

/**
 * What the user approves: the terms, then what the guard needs of a person (a changed wording
 * shown old against new, word by word), then, last, so that it stands whole above the question,
 * the exact message with each slot's label. A dry run of an approved wording asks nothing: its
 * slots are said in a line, not labelled one by one (the review then fits 24 rows).
 */
export function renderSellReview(review: SellReview, nowMs: number, theme: Theme, dryRun = false): string {
  const a = review.authorization;
  const token = review.token;
  const lines = [
    renderFields([
      ['Sell', `${tokenAmount(a.amount, token)} (${a.amount} raw)`],
      ['Token', `${token.name ? `${oneLine(token.name)} ` : ''}${a.mint}`],
      ['Expected', `${formatSol(a.expectedOutputLamports)} SOL`],
      ['Minimum', theme.bold(`${formatSol(a.minimumOutputLamports)} SOL`) + ` (${a.minimumOutputLamports} lamports, signed floor)`],
      ['Worst case', `${tokenAmount(a.amount, token)} for ${formatSol(a.minimumOutputLamports)} SOL`],
      ['Slippage', `${a.slippageBps} bps (${a.slippageBps / 100}%)`],
      ['Time left', `${timeLeft(Date.parse(a.expiresAt), nowMs)}, until ${formatLocalTime(a.expiresAt)}`],
      ['Sell id', a.id],
    ], theme),
  ];
  const v = review.verdict;
  const slotsInALine = dryRun && v.kind === 'sign';
  if (v.kind === 'sign') {
    const approved = `Wording: as approved for this service (${fingerprint(v.template)})`;
    lines.push(theme.dim(slotsInALine ? `${approved}; every value in it is this sell's own (a prompt labels each).` : `${approved}.`));
  }
  if (v.kind === 'person' && v.code === 'WORDING_CHANGED' && v.previous && v.template) {
    lines.push(theme.failure(`The service's wording changed since it was approved (${fingerprint(v.previous)} → ${v.fingerprint}), word by word:`));
    const diff = wordDiff(templateText(v.previous), templateText(v.template));
    lines.push(renderQuoted(diff.map((p) => (p.op === '=' ? p.text : p.op === '-' ? theme.dim(`[-${p.text}-]`) : theme.pending(`{+${p.text}+}`))).join('')));
  }
  if (v.kind === 'person') {
    const ask: Record<string, string> = {
      WORDING_NOT_APPROVED: `Yes approves this wording (${v.fingerprint}) for this service: later sells are signed only when their message is it, written with their own facts.`,
      WORDING_CHANGED: `Yes approves the new wording (${v.fingerprint}) in place of the old.`,
      TOKEN_FACTS_UNCONFIRMED: 'Yes confirms these facts of the token for this service (the wording and the sell are asked next).',
      VALUE_READS_AS_TEXT: 'A value in the message reads as words, not random data. Yes signs it this once.',
    };
    lines.push(theme.pending(`${v.reasons[0]}.`), ask[v.code]!);
  }
  lines.push('Message to sign, exactly:', renderQuoted(a.message));
  const legend = v.kind === 'refused' ? [] : v.legend;
  if (legend.length > 0 && !slotsInALine) lines.push(...legend.map((l) => theme.dim(l)));
  return lines.join('\n');
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
    // `Sold` only for a sale that happened; a failed one offered the amount, a pending one is selling it.
    [state === 'completed' ? 'Sold' : state === 'failed' ? 'Offered' : 'Amount', tokenAmount(a.amount, token)],
  ];
  if (trade?.receivedOutputAmount) fields.push(['SOL received', theme.bold(`${formatSol(trade.receivedOutputAmount)} SOL`)]);
  else fields.push(['Minimum SOL', `${formatSol(a.minimumOutputLamports)} SOL`]);
  for (const s of trade?.signatures.payouts ?? []) fields.push(['Payout sig', s]);
  if (outcome?.state === 'failed') {
    fields.push(['Failure', theme.failure(`${outcome.code ?? 'unknown'}: ${outcome.reason ?? 'no reason given'}`)]);
    // Only said when the service never took the signature; otherwise the error line says what is known.
    if (outcome.sold === 'nothing') fields.push(['', NOTHING_SOLD]);
  }
  return renderFields(fields, theme);
}
