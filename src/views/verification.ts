// How the chain's answers are shown: a mark per signature (verified, not found, contradicts the
// service, may still land) after a buy or sell, and the table of `trades <id> --verify`.
import type { Mark } from '../chain/transfer-checks.js';
import type { Verification } from '../chain/verify-trade.js';
import { renderTable, type TableLayout } from '../io/table.js';
import type { Theme } from '../io/theme.js';
import { formatSol } from '../domain/amounts.js';

const WORDS: Record<Mark, string> = {
  verified: 'verified',
  attributed: "the service's word",
  'not-found': 'not found',
  contradicts: 'contradicts the service',
  pending: 'may still land',
  unchecked: 'not checked',
};

function mark(m: Mark, theme: Theme): string {
  const word = WORDS[m];
  return m === 'verified'
    ? theme.success(word)
    : m === 'pending' || m === 'unchecked' || m === 'attributed'
      ? theme.pending(word)
      : theme.failure(word);
}

const VERDICT: Record<Verification['verdict'], string> = {
  verified: 'every claim verified on chain',
  attributed: "on chain, but not every claim: some are only the service's word",
  contradicted: 'the chain CONTRADICTS the service',
  incomplete: 'not everything is on chain yet',
  unchecked: 'not checked on chain',
};

/** `On chain (host): <verdict>`; a trade that names no signatures had nothing checked, and claims nothing verified. */
function verdictLine(v: Verification, theme: Theme): string {
  if (v.verdict === 'unchecked')
    return `On chain (${v.rpc}): ${theme.pending(VERDICT.unchecked)}: ${v.reason ?? 'the chain could not be read'}`;
  if (v.checks.length === 0) return `On chain (${v.rpc}): nothing checked: the trade names no signatures`;
  const tone = v.verdict === 'verified' ? theme.success : v.verdict === 'contradicted' ? theme.failure : theme.pending;
  return `On chain (${v.rpc}): ${tone(VERDICT[v.verdict])}`;
}

/** The lines after a buy or sell summary: one per signature, marked. */
export function renderVerificationLines(v: Verification, theme: Theme): string {
  const head = verdictLine(v, theme);
  if (v.verdict === 'unchecked' || v.checks.length === 0) return head;
  // The summary above names each signature in full: a prefix tells them apart and keeps lines short.
  const sig = (s: string | null) => (s === null ? '(none named)' : s.length > 12 ? `${s.slice(0, 8)}…` : s);
  return [head, ...v.checks.map((c) => `  ${c.role} ${sig(c.signature)}: ${mark(c.mark, theme)}: ${c.chain}`)].join(
    '\n',
  );
}

/** The signed deposits (one, or each of several) the chain proves will never land, in one line. */
function neverLanded(d: NonNullable<Verification['deposit']>, count: number): string {
  const at =
    d.blockHeight === null
      ? ''
      : ` (finalized block height ${d.blockHeight}; the service gave ${d.lastValidBlockHeight} as ${count > 1 ? 'the latest' : 'its'} last valid block)`;
  if (count > 1)
    return `None of the ${count} deposits signed for this buy landed: each one's blockhash expired at finalized commitment${at} and the chain has none of them, so none ever can.`;
  return `The signed deposit never landed: its blockhash expired at finalized commitment${at} and the chain does not have it, so it never can.`;
}

/** `trades <id> --verify`: signature, what it should be, what the chain shows, the mark. */
export function renderVerificationTable(v: Verification, theme: Theme, layout: TableLayout | number): string {
  if (v.checks.length === 0) return verdictLine(v, theme);
  const rows = v.checks.map((c) => [c.role, c.signature ?? '(none named)', c.expected, c.chain, mark(c.mark, theme)]);
  const table = renderTable(
    [
      { header: 'WHAT' },
      { header: 'SIGNATURE' },
      { header: 'SHOULD BE', shrinkTo: 20 },
      { header: 'CHAIN SHOWS', shrinkTo: 20 },
      { header: 'MARK' },
    ],
    rows,
    layout,
  );
  return [
    table,
    verdictLine(v, theme),
    ...(v.deposit?.proven === true
      ? [neverLanded(v.deposit, v.checks.filter((c) => c.role === 'deposit' && c.onChain === false).length)]
      : []),
  ].join('\n');
}

/** " (the service says 0.3 SOL)" where the service's figure is not the chain's. */
export function serviceSays(service: string | null, chain: string): string {
  return service === null || BigInt(service) === BigInt(chain) ? '' : ` (the service says ${formatSol(service)} SOL)`;
}

/**
 * What the chain shows a sell's payouts paid the wallet: the figure (`paid`), a figure it cannot
 * tie to this sell (`untied`), `none` (it was read and shows none paying the wallet), or null
 * when it was not read.
 */
export type PayoutOnChain = { paid: string } | { untied: string } | 'none' | null;

/** What the chain shows a sell's payouts paid, from its verification (null: none, or the chain unread). */
export function payoutOnChain(v: Verification | null): PayoutOnChain {
  if (v === null || v.verdict === 'unchecked') return null;
  if (v.received?.payoutsLamports !== undefined) return { paid: v.received.payoutsLamports };
  if (v.received?.untiedPayoutsLamports !== undefined) return { untied: v.received.untiedPayoutsLamports };
  return 'none';
}
