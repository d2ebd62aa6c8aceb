// Human view of holdings: largest USD value first, each token's share of the total as a bar,
// and a total line. Shares and the total are summed in exact cents.
import { oneLine } from '../io/terminal-text.js';
import type { Holding } from '../api/types.js';
import { formatTokenAmount, formatUsd } from '../domain/amounts.js';
import { formatCents, percentHundredths, usdToCents } from '../domain/usd.js';
import { shareBar } from './share-bar.js';
import { renderTable, type TableLayout } from '../io/table.js';
import type { Theme } from '../io/theme.js';
import { tokenCells, tokenColumn } from './token-cell.js';

/** `trader holdings`. Tokens with a sell executing are marked. */
export function renderHoldings(holdings: Holding[], theme: Theme, layout?: TableLayout): string {
  const sorted = [...holdings].sort((a, b) => (b.usdValue ?? -1) - (a.usdValue ?? -1));
  const cents = sorted.map((h) => usdToCents(h.usdValue));
  const total = cents.reduce<bigint>((sum, c) => sum + (c !== null && c > 0n ? c : 0n), 0n);
  const unpriced = cents.some((c) => c === null);
  const tokens = tokenCells(sorted, layout?.wide);
  const table = renderTable(
    [
      tokenColumn(tokens),
      { header: 'Name', maxWidth: 16, shrinkTo: 8, drop: 1 },
      { header: 'Amount', align: 'right' },
      { header: 'Price', align: 'right', drop: 2 },
      { header: 'Value', align: 'right' },
      { header: 'Share' },
      { header: '' },
    ],
    sorted.map((h, i) => {
      const c = cents[i]!;
      return [
        tokens[i]!.cell,
        h.name === null ? '—' : oneLine(h.name),
        formatTokenAmount(h.amount, h.decimals),
        formatPrice(h.usdPrice),
        formatUsd(h.usdValue),
        c === null || total === 0n ? '' : shareBar(percentHundredths(c > 0n ? c : 0n, total)),
        h.sellInProgress ? theme.pending('selling…') : '',
      ];
    }),
    layout,
  );
  const totalLine = `Total ${formatCents(total)}${unpriced ? ' (some tokens have no price)' : ''}`;
  return `${table}\n${theme.bold(totalLine)}`;
}

function formatPrice(price: number | null): string {
  if (price === null) return '—';
  if (price >= 0.01) return formatUsd(price);
  return `$${price.toPrecision(3)}`;
}
