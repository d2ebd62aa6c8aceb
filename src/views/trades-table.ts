// Human view of `trader trades` with no id: recent trades, one row each.
import { formatSol, formatTokenAmount } from '../domain/amounts.js';
import type { RecentTrade } from '../portfolio/recent-trades.js';
import { renderTable, uniquePrefixes, type TableLayout } from '../io/table.js';
import type { Theme } from '../io/theme.js';
import { shortTableTime, timeColumn } from './activity-table.js';
import { tokenCells, tokenColumn } from './token-cell.js';

/** The line under a list with sells the journal does not know: why they have no id. */
export const SELLS_HAVE_NO_ID = 'A sell made elsewhere shows no id: the service lists none.';

/**
 * Newest first. An id shows as the shortest prefix (8 characters or more) that tells it
 * apart from every id in `allIds` (all the account's buys, shown or not), which `trader trades
 * <id>` accepts.
 */
export function renderRecentTrades(
  trades: Array<RecentTrade & { claims?: string | null }>,
  theme: Theme,
  layout?: TableLayout,
  allIds: readonly string[] = [],
): string {
  const ids = uniquePrefixes([...trades.map((t) => t.id).filter((id): id is string => id !== null), ...allIds]);
  // A symbol another mint is bound to, or one that does not tell its token apart: only a claim.
  const tokens = tokenCells(trades, layout?.wide);
  const times = timeColumn(
    'Time',
    trades.map((t) => t.createdAt),
  );
  const table = renderTable(
    [
      { header: 'ID' },
      { header: 'Side' },
      { header: 'Status' },
      tokenColumn(tokens),
      { header: 'Amount', align: 'right' },
      { header: 'SOL', align: 'right' },
      { header: times.header, compact: shortTableTime, drop: 1 },
    ],
    trades.map((t, i) => [
      t.id === null ? '—' : layout?.wide ? t.id : ids.get(t.id)!,
      t.side,
      theme.status(t.status),
      tokens[i]!.cell,
      t.amount === null ? '—' : t.decimals === null ? `${t.amount} raw units` : formatTokenAmount(t.amount, t.decimals),
      t.solLamports === null ? '—' : formatSol(t.solLamports),
      times.cells[i]!,
    ]),
    layout,
  );
  return trades.some((t) => t.id === null) ? `${table}\n${theme.dim(SELLS_HAVE_NO_ID)}` : table;
}
