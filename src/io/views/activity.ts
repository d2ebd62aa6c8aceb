// Human view of the activity ledger.
import type { ActivityEntry } from '../../api/types.js';
import { formatSol, formatTokenAmount, formatUsd } from '../../amounts.js';
import { formatLocalTime } from '../time-format.js';
import { renderTable, shortId } from '../table.js';
import type { Theme } from '../theme.js';

/** `trader activity`: newest first, as the service sends it. */
export function renderActivity(entries: ActivityEntry[], theme: Theme): string {
  return renderTable(
    [
      { header: 'Time' },
      { header: 'Type', shrinkTo: 4 },
      { header: 'Status', maxWidth: 10, shrinkTo: 6 },
      { header: 'Token', maxWidth: 10, shrinkTo: 5 },
      { header: 'Amount', align: 'right' },
      { header: 'SOL', align: 'right' },
      { header: 'USD', align: 'right' },
    ],
    entries.map((e) => [
      formatLocalTime(e.createdAt).slice(0, 16),
      e.type,
      theme.status(e.status),
      e.symbol ?? (e.mint ? shortId(e.mint, 3) : '—'),
      e.amount === null ? '—' : formatTokenAmount(e.amount, e.decimals),
      e.solLamports === null ? '—' : formatSol(e.solLamports),
      formatUsd(e.usdValue),
    ]),
  );
}
