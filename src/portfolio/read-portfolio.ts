// Reads what P&L needs from the service: every position, every buy and sell entry, the holdings.
// Pages are read in full (only buys and sells of the ledger are asked for); nothing is printed.
import type { Page, ServiceClient } from '../api/client.js';
import { ApiError } from '../errors.js';
import type { PnlInput } from './pnl.js';

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

/** Every item of a paged list. */
async function allItems<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    const next = page.pagination.hasMore ? page.pagination.nextCursor : null;
    if (!next) return items;
    // A service that hands back a cursor it already gave would loop forever.
    if (seen.has(next)) throw new ApiError('unexpected response from the service: pagination returned a cursor twice', { code: 'UNEXPECTED_RESPONSE', requestId: page.requestId });
    seen.add(next);
    cursor = next;
  }
}
