// `trader trades` with no id: the recent trades, newest first. The API has no list of trades;
// the rows come from this tool's journal (every buy and sell it made, sells by their sell_… id),
// the positions (buys, with the ids `trader trades <id>` reads) and the activity ledger's sell
// entries (portfolio/recent-trades.ts says how they are merged).
import { allItems } from '../../api/all-pages.js';
import type { Context } from '../../cli/context.js';
import { JournalError } from '../../journal/journal-file.js';
import { tradeHistories, type TradeHistory } from '../../journal/trade-history.js';
import { recentTrades, type RecentTrade } from '../../portfolio/recent-trades.js';
import { renderRecentTrades } from '../../views/trades-table.js';
import { journalFor } from '../../journal/opened-journal.js';
import { boundDecimals } from '../../cli/bound-decimals.js';

/** Prints the newest `limit` trades (a JSON array with --json, CSV rows with --csv). */
export async function listRecentTrades(
  ctx: Context,
  opts: { limit: number; wide: boolean; csv: boolean },
): Promise<void> {
  const api = await ctx.api();
  const [positions, sells, account] = await Promise.all([
    // Positions are not documented as listed newest first: every one is read, then sorted.
    allItems((cursor) => api.listPositions({ limit: 100, cursor })),
    // The ledger is newest first: one page of `limit` sells holds the newest of them.
    api.listActivity({ types: ['sell'], limit: opts.limit }),
    // The account's wallet: the journal's trades of this service and wallet are this account's.
    api.me(),
  ]);
  const bound = await boundDecimals(ctx);
  const rows = recentTrades(
    positions.map(bound.position),
    sells.items.map(bound.entry),
    opts.limit,
    await ownTrades(ctx, account.walletAddress),
  ).map((r) => (r.decimals === null ? { ...r, decimals: bound.of(r.mint, null) } : r)); // the journal's rows: bound decimals
  // A prefix must tell a buy apart from every buy `trades <id>` looks among, not only those shown.
  const allIds = [...positions.map((p) => p.buyTradeId), ...rows.map((r) => r.id)].filter(
    (id): id is string => id !== null,
  );
  const printer = opts.csv
    ? await ctx.output.csv((await import('../../views/csv-columns.js')).TRADES_CSV)
    : ctx.output.list<RecentTrade>(
        (items, theme) =>
          renderRecentTrades(
            // A person reads the token as bound: a symbol bound to another mint is only this one's claim.
            items.map((r) => ({ ...r, ...bound.symbol(r.mint, r.symbol) })),
            theme,
            { width: ctx.terminal.columns, wide: opts.wide },
            allIds,
          ),
        'No trades yet.',
      );
  printer.page(rows);
  printer.end();
}

/** This tool's trades of this service and wallet; a journal that cannot be read is a warning (the service's lists still show). */
async function ownTrades(ctx: Context, wallet: string): Promise<TradeHistory[]> {
  const { journal, service } = await journalFor(ctx, wallet);
  try {
    return tradeHistories(journal.read(), (r) => r.service === service && r.wallet === wallet);
  } catch (err) {
    if (!(err instanceof JournalError)) throw err;
    ctx.output.warn(`${err.message}; only the service's lists are shown`);
    return [];
  }
}
