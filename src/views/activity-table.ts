// Human view of the activity ledger.
import type { ActivityEntry } from '../api/types.js';
import { formatSol, formatTokenAmount, formatUsd } from '../domain/amounts.js';
import { localMinute, zoneName } from '../domain/local-time.js';
import { renderTable, type TableLayout } from '../io/table.js';
import type { Theme } from '../io/theme.js';
import { tokenCells, tokenColumn } from './token-cell.js';

/**
 * A table's time column: each time to the minute, local, the zone named once in the header
 * (`Time (UTC)`); a row on another zone (a summer time change between rows) names its own.
 */
export function timeColumn(label: string, isos: ReadonlyArray<string | null>): { header: string; cells: string[] } {
  const dates = isos
    .map((iso) => (iso ? new Date(iso) : null))
    .map((d) => (d && !Number.isNaN(d.getTime()) ? d : null));
  const first = dates.find((d) => d !== null);
  const zone = zoneName(first ?? new Date(0));
  const cells = dates.map((d) =>
    d === null ? '—' : zoneName(d) === zone ? localMinute(d) : `${localMinute(d)} ${zoneName(d)}`,
  );
  return { header: `${label} (${zone})`, cells };
}

/** A table time's short form: the year dropped. */
export const shortTableTime = (cell: string) => (/^\d{4}-/.test(cell) ? cell.slice(5) : cell);

/** `trader activity`: newest first, as the service sends it. */
export function renderActivity(entries: ActivityEntry[], theme: Theme, layout?: TableLayout): string {
  const tokens = tokenCells(entries, layout?.wide);
  const times = timeColumn(
    'Time',
    entries.map((e) => e.createdAt),
  );
  return renderTable(
    [
      { header: times.header, compact: shortTableTime, drop: 2 },
      { header: 'Type' },
      { header: 'Status' },
      tokenColumn(tokens),
      { header: 'Amount', align: 'right' },
      { header: 'SOL', align: 'right' },
      { header: 'USD', align: 'right', drop: 1 },
    ],
    entries.map((e, i) => [
      times.cells[i]!,
      e.type,
      theme.status(e.status),
      tokens[i]!.cell,
      e.amount === null ? '—' : formatTokenAmount(e.amount, e.decimals),
      e.solLamports === null ? '—' : formatSol(e.solLamports),
      formatUsd(e.usdValue),
    ]),
    layout,
  );
}
