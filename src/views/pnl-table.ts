// Human view of `trader pnl`: one table (a row per token and the total), the SOL figures and
// the method underneath. Unknown figures read "unknown"; gains green, losses red (when colour is on).
import { formatSol, formatTokenAmount } from '../domain/amounts.js';
import type { PnlReport, TokenPnl, TotalPnl } from '../portfolio/pnl-reckoning.js';
import { divRound, formatCents } from '../domain/usd.js';
import { shareBar } from './share-bar.js';
import { tokenCells } from './token-cell.js';
import { renderTable, shortId } from '../io/table.js';
import type { Theme } from '../io/theme.js';
import { formatLocalTime } from '../domain/local-time.js';

const UNKNOWN = 'unknown';

/** One line saying how the figures are made; `trader pnl --help` says it in short, docs/pnl.md in full. */
export const METHOD_LINE = 'Average cost per token, platform fees in the cost; `trader pnl --help` explains.';

/** `trader pnl`; `token` names the --token asked for, if any. */
export function renderPnl(report: PnlReport, theme: Theme, token: string | null = null): string {
  if (report.tokens.length === 0) {
    const what = token === null ? 'No holdings, buys or sells' : `No holdings, buys or sells of ${token}`;
    return report.since === null ? `${what} yet.` : `${what} since ${formatLocalTime(report.since)}.`;
  }
  const t = report.total;
  const star = (figure: TotalPnl['incomplete'][number]) => (t.incomplete.includes(figure) ? '*' : '');
  const signed = (cents: bigint | null) => {
    if (cents === null) return UNKNOWN;
    const text = formatCents(cents, { signed: true });
    return cents > 0n ? theme.success(text) : cents < 0n ? theme.failure(text) : text;
  };
  const percent = (hundredths: bigint | null) => {
    if (hundredths === null) return '';
    const tenths = divRound(hundredths, 10n);
    const text = `${tenths > 0n ? '+' : tenths < 0n ? '-' : ''}${formatTenths(tenths < 0n ? -tenths : tenths)}%`;
    return tenths > 0n ? theme.success(text) : tenths < 0n ? theme.failure(text) : text;
  };
  const unrealized = (cents: bigint | null, hundredths: bigint | null) => {
    if (cents === null) return UNKNOWN;
    const pct = percent(hundredths);
    return pct ? `${signed(cents)} ${pct}` : signed(cents);
  };
  const usd = (cents: bigint | null) => (cents === null ? UNKNOWN : formatCents(cents));

  // Each token as its row and its notes name it: a symbol another mint shares is only a claim.
  const labels = tokenCells(report.tokens).map((t, i) =>
    report.tokens[i]!.symbol === null ? shortId(report.tokens[i]!.mint, 4) : t.cell,
  );
  const rows = report.tokens.map((r: TokenPnl, i) => [
    labels[i]!,
    formatTokenAmount(r.amount, r.decimals),
    r.amount === 0n && r.costBasisCents === 0n ? '—' : usd(r.costBasisCents),
    r.amount === 0n && r.valueCents === 0n ? '—' : usd(r.valueCents),
    r.amount === 0n && r.unrealizedCents === 0n ? '—' : unrealized(r.unrealizedCents, r.unrealizedHundredths),
    r.soldAmount === 0n && r.realizedCents === 0n ? '—' : signed(r.realizedCents),
    shareBar(r.amount === 0n ? null : r.shareHundredths),
  ]);
  rows.push([
    theme.bold('Total'),
    '',
    usd(t.costBasisCents) + star('costBasisCents'),
    usd(t.valueCents) + star('valueCents'),
    unrealized(t.unrealizedCents, t.unrealizedHundredths) + star('unrealizedCents'),
    report.tokens.every((r) => r.soldAmount === 0n) && t.realizedCents === 0n
      ? '—'
      : signed(t.realizedCents) + star('realizedCents'),
    '',
  ]);
  const table = renderTable(
    [
      { header: 'Token', maxWidth: 10, shrinkTo: 5 },
      { header: 'Held', align: 'right' },
      { header: 'Cost', align: 'right' },
      { header: 'Value', align: 'right' },
      { header: 'Unrealized', align: 'right' },
      { header: 'Realized', align: 'right' },
      { header: 'Share' },
    ],
    rows,
  );

  const lines = [table, ''];
  lines.push(
    `In SOL: cost ${formatSol(t.costBasisLamports)}${star('costBasisLamports')}, fees paid ${formatSol(t.feesLamports)}${star('feesLamports')}, ` +
      `realized ${signedSol(t.realizedLamports)}${star('realizedLamports')}.`,
  );
  if (report.since !== null)
    lines.push(`Realized P&L and fees count sells and buys from ${formatLocalTime(report.since)}.`);
  if (t.incomplete.length > 0) lines.push('* Totals leave out what is unknown (see the notes).');
  report.tokens.forEach((r, i) => {
    for (const note of r.notes) lines.push(theme.dim(`${labels[i]}: ${note}`));
  });
  lines.push(theme.dim(METHOD_LINE));
  return lines.join('\n');
}

function formatTenths(tenths: bigint): string {
  const text = tenths.toString().padStart(2, '0');
  return `${text.slice(0, -1)}.${text.slice(-1)}`;
}

function signedSol(lamports: bigint): string {
  return lamports > 0n ? `+${formatSol(lamports)}` : formatSol(lamports);
}
