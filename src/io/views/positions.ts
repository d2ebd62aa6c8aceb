// Human views of positions.
import type { Position } from '../../api/types.js';
import { formatSol, formatTokenAmount } from '../../amounts.js';
import { formatLocalTime } from '../time-format.js';
import { renderFields, renderTable, shortId } from '../table.js';
import type { Theme } from '../theme.js';

const tokenLabel = (p: Position) => p.token?.symbol ?? (p.mint ? shortId(p.mint, 4) : '—');
const units = (amount: string | null, p: Position) => (amount === null ? '—' : formatTokenAmount(amount, p.token?.decimals ?? null));

/** `trader positions`: one row each, fits 80 columns. */
export function renderPositions(positions: Position[], theme: Theme): string {
  return renderTable(
    [
      { header: 'ID', maxWidth: 13 },
      { header: 'Status', shrinkTo: 7 },
      { header: 'Token', maxWidth: 10, shrinkTo: 5 },
      { header: 'Remaining', align: 'right' },
      { header: 'Cost SOL', align: 'right' },
      { header: 'Opened' },
    ],
    positions.map((p) => [
      shortId(p.id, 4),
      theme.status(p.status),
      tokenLabel(p),
      units(p.remainingAmount, p),
      p.costLamports === null ? '—' : formatSol(p.costLamports),
      p.openedAt ? formatLocalTime(p.openedAt).slice(0, 16) : '—',
    ]),
  );
}

/** `trader positions <id>`. */
export function renderPosition(p: Position, theme: Theme): string {
  return renderFields([
    ['Position', p.id],
    ['Status', theme.status(p.status)],
    ['Token', p.token?.symbol ? `${p.token.symbol}${p.token.name ? ` (${p.token.name})` : ''}` : '—'],
    ['Mint', p.mint ?? '—'],
    ['Principal', `${formatSol(p.principalLamports)} SOL`],
    ['Cost', p.costLamports === null ? '—' : `${formatSol(p.costLamports)} SOL`],
    ['Bought', units(p.boughtAmount, p)],
    ['Sold', units(p.soldAmount, p)],
    ['Remaining', units(p.remainingAmount, p)],
    ['Buy trade', p.buyTradeId ?? '—'],
    ['Buy signature', p.buySignature ?? '—'],
    ['Opened', formatLocalTime(p.openedAt)],
    ['Created', formatLocalTime(p.createdAt)],
    ['Updated', formatLocalTime(p.updatedAt)],
  ]);
}
