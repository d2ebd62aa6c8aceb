// Human view of the activity ledger.
import type { ActivityEntry } from '../../api/types.js';
import { formatSol, formatTokenAmount, formatUsd } from '../../amounts.js';
import { formatLocalTime } from '../time-format.js';
import { renderTable, type TableLayout } from '../table.js';
import type { Theme } from '../theme.js';
import { tokenCell, tokenColumn } from './token-cell.js';

/** A table's time: to the minute; its short form drops the year. */
export const tableTime = (iso: string | null) => (iso ? formatLocalTime(iso).slice(0, 16) : '—');
export const shortTableTime = (cell: string) => (/^\d{4}-/.test(cell) ? cell.slice(5) : cell);

/** `trader activity`: newest first, as the service sends it. */
export function renderActivity(entries: ActivityEntry[], theme: Theme, layout?: TableLayout): string {
  const tokens = entries.map((e) => tokenCell(e.symbol, e.mint, layout?.wide));
  return renderTable(
    [
      { header: 'Time', compact: shortTableTime, drop: 2 },
      { header: 'Type' },
      { header: 'Status' },
      tokenColumn(tokens, entries.map((e) => e.symbol)),
      { header: 'Amount', align: 'right' },
      { header: 'SOL', align: 'right' },
      { header: 'USD', align: 'right', drop: 1 },
    ],
    entries.map((e, i) => [
      tableTime(e.createdAt),
      e.type,
      theme.status(e.status),
      tokens[i]!,
      e.amount === null ? '—' : formatTokenAmount(e.amount, e.decimals),
      e.solLamports === null ? '—' : formatSol(e.solLamports),
      formatUsd(e.usdValue),
    ]),
    layout,
  );
}
