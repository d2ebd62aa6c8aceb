// Human view of holdings: largest USD value first, with a total line.
import type { Holding } from '../../api/types.js';
import { formatTokenAmount, formatUsd } from '../../amounts.js';
import { renderTable, type TableLayout } from '../table.js';
import type { Theme } from '../theme.js';
import { tokenCell, tokenColumn } from './token-cell.js';

/** `trader holdings`. Tokens with a sell executing are marked. */
export function renderHoldings(holdings: Holding[], theme: Theme, layout?: TableLayout): string {
  const sorted = [...holdings].sort((a, b) => (b.usdValue ?? -1) - (a.usdValue ?? -1));
  const total = sorted.reduce((sum, h) => sum + (h.usdValue ?? 0), 0);
  const unpriced = sorted.some((h) => h.usdValue === null);
  const tokens = sorted.map((h) => tokenCell(h.symbol, h.mint, layout?.wide));
  const table = renderTable(
    [
      tokenColumn(tokens, sorted.map((h) => h.symbol)),
      { header: 'Name', maxWidth: 16, shrinkTo: 8, drop: 1 },
      { header: 'Amount', align: 'right' },
      { header: 'Price', align: 'right', drop: 2 },
      { header: 'Value', align: 'right' },
      { header: '' },
    ],
    sorted.map((h, i) => [
      tokens[i]!,
      h.name ?? '—',
      formatTokenAmount(h.amount, h.decimals),
      formatPrice(h.usdPrice),
      formatUsd(h.usdValue),
      h.sellInProgress ? theme.pending('selling…') : '',
    ]),
    layout,
  );
  const totalLine = `Total ${formatUsd(Math.round(total * 100) / 100)}${unpriced ? ' (some tokens have no price)' : ''}`;
  return `${table}\n${theme.bold(totalLine)}`;
}

function formatPrice(price: number | null): string {
  if (price === null) return '—';
  if (price >= 0.01) return formatUsd(price);
  return `$${price.toPrecision(3)}`;
}
