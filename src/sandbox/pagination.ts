// Newest-first pages over an append-only array, with cursors that point into it,
// so a page costs the items it returns (plus any the filter skips), never a full sort.
import type { Pagination } from '../api/types.js';
import { HttpError } from './sandbox-error.js';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

/** Parse the `limit` query value: integer 1–100, default 25. */
export function parseLimit(raw: string | null): number {
  if (raw === null) return DEFAULT_LIMIT;
  if (!/^[0-9]+$/.test(raw))
    throw new HttpError(400, 'INVALID_LIMIT', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  const n = Number(raw);
  if (n < 1 || n > MAX_LIMIT)
    throw new HttpError(400, 'INVALID_LIMIT', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  return n;
}

/** Cursor = base64url of `<list>:<index of the next item to look at>`. */
export function encodeCursor(list: string, index: number): string {
  return Buffer.from(`${list}:${index}`, 'utf8').toString('base64url');
}

/** Decode a cursor for `list` whose array has `length` items, or 400 INVALID_CURSOR. */
export function decodeCursor(raw: string, list: string, length: number): number {
  const bad = () => new HttpError(400, 'INVALID_CURSOR', 'cursor is not one this service issued for this list');
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw)) throw bad();
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const m = /^([a-z]+):([0-9]{1,10})$/.exec(text);
  if (!m || m[1] !== list) throw bad();
  const index = Number(m[2]);
  if (index >= length) throw bad();
  return index;
}

/** One page of `items` (oldest first in the array), newest first, matching `keep`. */
export function pageNewestFirst<T>(
  items: readonly T[],
  list: string,
  opts: { limit: number; cursor: string | null; keep: (item: T) => boolean },
): { data: T[]; pagination: Pagination } {
  let i = opts.cursor === null ? items.length - 1 : decodeCursor(opts.cursor, list, items.length);
  const data: T[] = [];
  for (; i >= 0 && data.length < opts.limit; i--) {
    const item = items[i]!;
    if (opts.keep(item)) data.push(item);
  }
  // Look ahead for one more match so hasMore is exact and the cursor points right at it.
  for (; i >= 0; i--) {
    if (opts.keep(items[i]!)) return { data, pagination: { nextCursor: encodeCursor(list, i), hasMore: true } };
  }
  return { data, pagination: { nextCursor: null, hasMore: false } };
}
