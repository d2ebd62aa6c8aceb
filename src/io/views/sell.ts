// Human views of a sell: the review before signing and the summary at the end.
import type { GetSellResponse, Trade } from '../../api/types.js';
import { formatSol } from '../../amounts.js';
import type { SellReview } from '../../domain/sell-review.js';
import type { SellOutcome } from '../../domain/sell-outcome.js';
import { wordingDiff } from '../../domain/wording-diff.js';
import type { TokenMeta } from '../../domain/token.js';
import { oneLine } from '../terminal-text.js';
import { formatTimeLeft } from '../time-format.js';
import { screenRows } from '../display-width.js';
import type { ReviewRoom } from '../terminal.js';
import { renderFields, renderQuoted } from '../table.js';
import type { Theme } from '../theme.js';
import { tokenAmount } from './token-amount.js';

/**
 * What the user approves: the terms, the exact message (unexplained parts highlighted) and how
 * its wording stands. On a first sell the wording to pin is quoted too, unless `room` says the
 * review would then not fit the terminal: it is then said in two lines (it is the message above
 * with its values masked; `trader config trust` shows it once pinned).
 */
export function renderSellReview(review: SellReview, token: TokenMeta | null, nowMs: number, theme: Theme, room: ReviewRoom | null = null): string {
  const a = review.authorization;
  const fields = renderFields([
    ['Sell', `${tokenAmount(a.amount, token)} (${a.amount} raw)`],
    ['Token', `${token?.name ? `${oneLine(token.name)} ` : ''}${a.mint}`],
    ['Expected', `${formatSol(a.expectedOutputLamports)} SOL`],
    ['Minimum', theme.bold(`${formatSol(a.minimumOutputLamports)} SOL`) + ` (${a.minimumOutputLamports} lamports, signed floor)`],
    ['Worst case', `${tokenAmount(a.amount, token)} for ${formatSol(a.minimumOutputLamports)} SOL`],
    ['Slippage', `${a.slippageBps} bps (${a.slippageBps / 100}%)`],
    ['Time left', formatTimeLeft(a.expiresAt, nowMs)],
    ['Sell id', a.id],
  ]);
  const lines = [fields, 'Message to sign, exactly:', renderQuoted(highlightFindings(a.message, review.findings, theme))];
  if (review.findings.length > 0) {
    lines.push(theme.pending('The tool cannot explain these parts of the message:'));
    for (const f of review.findings) lines.push(`  ${theme.highlight(f.text)}  ${f.reason}`);
  }
  const { status, text, pinned, fingerprint } = review.wording;
  if (status === 'first-use') {
    const full = [...lines, 'First sell with this service: its message wording (values masked) will be', `pinned as ${fingerprint}; a different wording will be questioned:`, renderQuoted(text)];
    if (room === null || screenRows(full.join('\n'), room.columns) <= room.rows) return full.join('\n');
    lines.push('First sell with this service: the wording of the message above, its values', `masked, will be pinned as ${fingerprint}; a different one will be questioned.`);
  } else if (status === 'changed') {
    lines.push(theme.failure(`The service's message wording changed since it was pinned (${pinned!.fingerprint} → ${fingerprint}):`));
    for (const line of wordingDiff(pinned!.text, text)) lines.push(`  ${line.startsWith('-') ? theme.dim(line) : theme.pending(line)}`);
  } else {
    lines.push(theme.dim(`Wording: as pinned for this service (${fingerprint}).`));
  }
  return lines.join('\n');
}

function highlightFindings(message: string, findings: SellReview['findings'], theme: Theme): string {
  let out = '';
  let at = 0;
  for (const f of [...findings].sort((x, y) => x.index - y.index)) {
    if (f.index < at) continue;
    out += message.slice(at, f.index) + theme.highlight(f.text);
    at = f.index + f.text.length;
  }
  return out + message.slice(at);
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
    // Only said when the service never took the signature; otherwise the error line says what is known.
    if (outcome.sold === 'nothing') fields.push(['', 'nothing was sold']);
  }
  return renderFields(fields);
}
