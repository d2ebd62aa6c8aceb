// A paged list, page after page: streamed (--all, cli/paged-list.ts) or whole for the commands
// that need a list at once (P&L, resolving a typed id prefix).
import { ApiError } from '../domain/errors.js';
import type { Page } from './client.js';

/**
 * The pages from `cursor` on, each fetched only when the one before has been taken. A service
 * that hands back a cursor it already gave would loop forever: that is an unexpected response.
 */
export async function* pagesFrom<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  cursor?: string,
): AsyncGenerator<Page<T>> {
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    const next = page.pagination.hasMore ? page.pagination.nextCursor : null;
    if (!next) return;
    if (seen.has(next))
      throw new ApiError('unexpected response from the service: pagination returned a cursor twice', {
        code: 'UNEXPECTED_RESPONSE',
        requestId: page.requestId,
      });
    seen.add(next);
    cursor = next;
  }
}

/** Every item of a paged list. */
export async function allItems<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for await (const page of pagesFrom(fetchPage)) items.push(...page.items);
  return items;
}
