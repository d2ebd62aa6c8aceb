// Human views of positions.
import { oneLine } from '../io/terminal-text.js';
import type { Position } from '../api/types.js';
import { formatSol, formatTokenAmount } from '../domain/amounts.js';
import { formatLocalTime } from '../domain/local-time.js';
import { renderFields, renderTable, uniquePrefixes, type TableLayout } from '../io/table.js';
import type { Theme } from '../io/theme.js';
import { shortTableTime, timeColumn } from './activity-table.js';
import { tokenAmount } from './token-amount.js';
import { tokenCells, tokenColumn } from './token-cell.js';

/** A table cell: the number alone (the Token column names the unit). */
const units = (amount: string | null, p: Position) =>
  amount === null ? '—' : formatTokenAmount(amount, p.token?.decimals ?? null);
/** A field of one position: the amount with its unit. */
const withUnit = (amount: string | null, p: Position) => (amount === null ? '—' : tokenAmount(amount, p.token));

/**
 * `trader positions`: one row each, fitted to the terminal. The id shows as the shortest
 * prefix (8 characters or more) that tells the rows apart, which `positions <id>` accepts.
 */
export function renderPositions(positions: Position[], theme: Theme, layout?: TableLayout): string {
  const ids = uniquePrefixes(positions.map((p) => p.id));
  const tokens = tokenCells(
    positions.map((p) => ({ symbol: p.token?.symbol, mint: p.mint })),
    layout?.wide,
  );
  const opened = timeColumn(
    'Opened',
    positions.map((p) => p.openedAt),
  );
  return renderTable(
    [
      { header: 'ID' },
      { header: 'Status' },
      tokenColumn(tokens),
      { header: 'Remaining', align: 'right' },
      { header: 'Cost SOL', align: 'right', drop: 2 },
      { header: opened.header, compact: shortTableTime, drop: 1 },
    ],
    positions.map((p, i) => [
      layout?.wide ? p.id : ids.get(p.id)!,
      theme.status(p.status),
      tokens[i]!.cell,
      units(p.remainingAmount, p),
      p.costLamports === null ? '—' : formatSol(p.costLamports),
      opened.cells[i]!,
    ]),
    layout,
  );
}

/** `trader positions <id>`. */
export function renderPosition(p: Position, theme: Theme): string {
  return renderFields(
    [
      ['Position', p.id],
      ['Status', theme.status(p.status)],
      [
        'Token',
        p.token?.symbol ? `${oneLine(p.token.symbol)}${p.token.name ? ` (${oneLine(p.token.name)})` : ''}` : '—',
      ],
      ['Mint', p.mint ?? '—'],
      ['Deposit', `${formatSol(p.principalLamports)} SOL`],
      ['Cost', p.costLamports === null ? '—' : `${formatSol(p.costLamports)} SOL`],
      ['Bought', withUnit(p.boughtAmount, p)],
      ['Sold', withUnit(p.soldAmount, p)],
      ['Remaining', withUnit(p.remainingAmount, p)],
      ['Buy trade', p.buyTradeId ?? '—'],
      ['Buy signature', p.buySignature ?? '—'],
      ['Opened', formatLocalTime(p.openedAt)],
      ['Created', formatLocalTime(p.createdAt)],
      ['Updated', formatLocalTime(p.updatedAt)],
    ],
    theme,
  );
}
