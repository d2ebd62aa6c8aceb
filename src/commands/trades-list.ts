// `trader trades` with no id: the recent trades, newest first. The API has no list of trades;
// the rows come from the positions (buys, with the ids `trader trades <id>` reads) and the
// activity ledger's sell entries (portfolio/recent-trades.ts says why sells have no id).
import { allItems } from '../api/all-pages.js';
import type { Context } from '../context.js';
import { recentTrades, type RecentTrade } from '../portfolio/recent-trades.js';
import { renderRecentTrades } from '../io/views/trades-list.js';

/** Prints the newest `limit` trades (a JSON array with --json). */
export async function listRecentTrades(ctx: Context, opts: { limit: number; wide: boolean }): Promise<void> {
  const api = await ctx.api();
  const [positions, sells] = await Promise.all([
    // Positions are not documented as listed newest first: every one is read, then sorted.
    allItems((cursor) => api.listPositions({ limit: 100, cursor })),
    // The ledger is newest first: one page of `limit` sells holds the newest of them.
    api.listActivity({ types: ['sell'], limit: opts.limit }),
  ]);
  const rows = recentTrades(positions, sells.items, opts.limit);
  // A prefix must tell a buy apart from every buy `trades <id>` looks among, not only those shown.
  const allBuyIds = positions.map((p) => p.buyTradeId).filter((id): id is string => id !== null);
  const printer = ctx.output.list<RecentTrade>(
    (items, theme) => renderRecentTrades(items, theme, { width: ctx.terminal.columns, wide: opts.wide }, allBuyIds),
    'No trades yet.',
  );
  printer.page(rows);
  printer.end();
}
