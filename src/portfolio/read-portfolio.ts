// Reads what P&L needs from the service: every position, every buy and sell entry, the holdings.
// Pages are read in full (only buys and sells of the ledger are asked for); nothing is printed.
import { allItems } from '../api/all-pages.js';
import type { ServiceClient } from '../api/client.js';
import type { PnlInput } from './pnl-reckoning.js';

const PAGE_SIZE = 100;

/** The three reads, side by side. */
export async function readPortfolio(api: ServiceClient): Promise<PnlInput> {
  const [positions, activity, holdings] = await Promise.all([
    allItems((cursor) => api.listPositions({ limit: PAGE_SIZE, cursor })),
    allItems((cursor) => api.listActivity({ types: ['buy', 'sell'], limit: PAGE_SIZE, cursor })),
    api.holdings(),
  ]);
  return { positions, activity, holdings };
}
