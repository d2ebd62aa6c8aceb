// Human views of a sell: the review before signing and the summary at the end.
import type { GetSellResponse, Trade } from '../api/types.js';
import { formatSol } from '../domain/amounts.js';
import type { SellReview } from '../trade/sell-review.js';
import type { SellOutcome } from '../domain/sell-outcome.js';
import { wordDiff, type DiffPart } from '../domain/wording-diff.js';
import type { TokenMeta } from '../domain/token-meta.js';
import { fingerprint } from '../wallet/sell-template/template.js';
import { addressSizeWarning, figureLegend, markedMessage, quotedRows, templateText, wordingRows } from './wording.js';
import { markedValue } from '../io/terminal-text.js';
import { formatLocalTime } from '../domain/local-time.js';
import { timeLeft } from '../domain/answer-deadline.js';
import { renderFields } from '../io/table.js';
import type { Theme } from '../io/theme.js';
import { tokenAmount } from './token-amount.js';
import { serviceSays, type PayoutOnChain } from './verification.js';
import { lamports } from '../domain/units.js';

/** A sell's review in two parts: what leads, and what must stand on screen, whole, with the question below it. */
export interface SellReviewText {
  lead: string;
  shown: string;
}

/**
 * What the user approves: the terms and the key that signs, then what the guard needs of a
 * person, then, last, so that it stands whole above the question, a changed wording old against
 * new (word by word) and the message. A message a person approves shows this sell's values
 * marked ⟦…⟧ where they stand (views/wording.ts, as `config trust` shows a wording), with one
 * line beside it only where a value needs one; token facts to confirm stand last when that is
 * the question. Laid out for a terminal `columns` wide, every row behind a gutter; undefined
 * (piped): one row per line.
 */
export function sellReviewText(
  review: SellReview,
  nowMs: number,
  theme: Theme,
  opts: { columns?: number; signer?: string } = {},
): SellReviewText {
  const a = review.authorization;
  const token = review.token;
  const lead = [
    renderFields(
      [
        ['Sell', `${tokenAmount(a.amount, token)} (${a.amount} raw)`],
        ['Token', `${token.name ? `${markedValue(token.name)} ` : ''}${a.mint}`],
        ['Expected', `${formatSol(a.expectedOutputLamports)} SOL`],
        [
          'Minimum',
          theme.bold(`${formatSol(a.minimumOutputLamports)} SOL`) +
            ` (${lamports(a.minimumOutputLamports)}, signed floor)`,
        ],
        ['Worst case', `${tokenAmount(a.amount, token)} for ${formatSol(a.minimumOutputLamports)} SOL`],
        ['Slippage', `${a.slippageBps} bps (${a.slippageBps / 100}%)`],
        ...(opts.signer ? [['Signer', opts.signer] as [string, string]] : []),
        ['Time left', `${timeLeft(Date.parse(a.expiresAt), nowMs)}, until ${formatLocalTime(a.expiresAt)}`],
        ['Sell id', a.id],
      ],
      theme,
    ),
  ];
  const shown: string[] = [];
  const width = opts.columns ?? Infinity;
  const v = review.verdict;
  const ask: string[] = [];
  if (v.kind === 'person') {
    // What a yes grants, in plain words; the guard's reason is said where it adds to them.
    const yes: Record<string, string> = {
      WORDING_NOT_APPROVED: `First sell on this service: yes approves its wording (${v.fingerprint}); later sells are signed only when their message is this wording with their own values.`,
      // The diff below says it changed; what it adds (a slot that now reads apart) is said here.
      WORDING_CHANGED: [
        ...v.reasons[0]!.split('; ').slice(1),
        `Yes approves the new wording (${v.fingerprint}) in place of the old.`,
      ].join('. '),
      TOKEN_FACTS_UNCONFIRMED: `${v.reasons[0]}. Yes confirms these facts of the token for this service (the wording and the sell are asked next).`,
      VALUE_READS_AS_TEXT: `${v.reasons[0]}. Yes signs it this once.`,
    };
    ask.push(theme.pending(yes[v.code]!));
    if (v.code !== 'TOKEN_FACTS_UNCONFIRMED') lead.push(...ask);
  }
  if (v.kind === 'person' && v.code === 'WORDING_CHANGED' && v.previous && v.template) {
    shown.push(
      theme.failure(
        `The service's wording changed since it was approved (${fingerprint(v.previous)} → ${v.fingerprint}), word by word:`,
      ),
    );
    shown.push(...paintedDiff(wordDiff(templateText(v.previous), templateText(v.template)), width, theme));
  }
  if (v.kind === 'person' && v.slots) {
    // Each value in place, marked: a person reads what each later sell writes anew, and what stays word for word.
    shown.push(
      "Message to sign, this sell's values in ⟦…⟧ (each sell writes its own):",
      ...wordingRows(markedMessage(v.slots.template, v.slots.values), width),
      // A first approval says what each figure counts; a changed wording's diff above labels every slot.
      ...(v.code === 'WORDING_NOT_APPROVED' ? figureLegend(v.slots.template, v.slots.values, width) : []),
      ...addressSizeWarning(v.slots.template.parts).map((l) => theme.pending(l)),
    );
  } else
    shown.push(
      v.kind === 'sign'
        ? `Message to sign, exactly (the approved wording ${fingerprint(v.template)}):`
        : 'Message to sign, exactly:',
      ...quotedRows(a.message, width),
    );
  if (v.kind === 'person' && v.code === 'TOKEN_FACTS_UNCONFIRMED') shown.push(...ask);
  return { lead: lead.join('\n'), shown: shown.join('\n') };
}

/** A word diff behind the gutter, laid out as a message is, removed words dim in [-…-] and added ones in {+…+}. */
function paintedDiff(diff: DiffPart[], columns: number, theme: Theme): string[] {
  const marked = diff.map((p) => (p.op === '=' ? p.text : p.op === '-' ? `[-${p.text}-]` : `{+${p.text}+}`));
  // Each character's paint, by where it stands in the plain text the rows are cut from.
  const paints = diff.flatMap((p, i) => [...marked[i]!].filter((ch) => ch !== '\n').map(() => p.op));
  let at = 0;
  return quotedRows(marked.join(''), columns).map((row) => {
    const chars = [...row.slice(4)];
    let out = row.slice(0, 4);
    for (let i = 0; i < chars.length;) {
      const op = paints[at + i];
      let j = i;
      while (j < chars.length && paints[at + j] === op) j++;
      const text = chars.slice(i, j).join('');
      out += op === '-' ? theme.dim(text) : op === '+' ? theme.pending(text) : text;
      i = j;
    }
    at += chars.length;
    return out;
  });
}

/**
 * The end of a sell, for stdout. `onChain`: what the chain shows its payouts paid (the figure
 * shown first, the service's beside it where it differs); `Sold` only for a sale whose payout
 * the chain shows.
 */
export function renderSellSummary(
  view: GetSellResponse,
  outcome: SellOutcome | undefined,
  trade: Trade | null,
  token: TokenMeta | null,
  theme: Theme,
  onChain: PayoutOnChain = null,
): string {
  const a = view.authorization;
  const state = outcome?.state ?? 'pending';
  const paid = onChain !== null && onChain !== 'none' && 'paid' in onChain ? onChain.paid : null;
  const fields: Array<[string, string]> = [
    ['Sell', a.id],
    ['Status', theme.status(state === 'pending' ? (view.sell?.status ?? a.status) : state)],
    // `Sold` only for a sale the chain shows paid; a failed one offered the amount, one under way or unproven is an amount.
    [
      state === 'completed' && paid !== null ? 'Sold' : state === 'failed' ? 'Offered' : 'Amount',
      tokenAmount(a.amount, token),
    ],
  ];
  const said = trade?.receivedOutputAmount ?? null;
  const saying = said === null ? '' : ` (the service says ${formatSol(said)} SOL)`;
  if (paid !== null) fields.push(['SOL received', theme.bold(`${formatSol(paid)} SOL`) + serviceSays(said, paid)]);
  else if (onChain !== null && onChain !== 'none' && 'untied' in onChain)
    fields.push(['SOL received', `${formatSol(onChain.untied)} SOL not tied to this sell${saying}`]);
  else if (said !== null || (onChain === 'none' && state === 'completed'))
    fields.push(['SOL received', `${onChain === 'none' ? 'none on chain' : 'not checked on chain'}${saying}`]);
  else fields.push(['Minimum SOL', `${formatSol(a.minimumOutputLamports)} SOL`]);
  for (const s of trade?.signatures.payouts ?? []) fields.push(['Payout sig', s]);
  if (outcome?.state === 'failed') {
    // What became of the tokens is the error line's to say, as the service's word: the signature was handed over.
    fields.push(['Failure', theme.failure(`${outcome.code ?? 'unknown'}: ${outcome.reason ?? 'no reason given'}`)]);
  }
  return renderFields(fields, theme);
}
