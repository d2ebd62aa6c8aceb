// Every item of a paged list, page after page, for the commands that need a whole list at once
// (P&L, resolving a typed id prefix); streamed output (--all) pages in cli/paged-list.ts.
import { ApiError } from '../domain/errors.js';
import type { Page } from './client.js';

/** Every item of a paged list. */
export async function allItems<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    const next = page.pagination.hasMore ? page.pagination.nextCursor : null;
    if (!next) return items;
    // A service that hands back a cursor it already gave would loop forever.
    if (seen.has(next))
      throw new ApiError('unexpected response from the service: pagination returned a cursor twice', {
        code: 'UNEXPECTED_RESPONSE',
        requestId: page.requestId,
      });
    seen.add(next);
    cursor = next;
  }
}
