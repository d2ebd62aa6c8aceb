// Lists with pages: one page, or every page with --all written as it arrives.
import type { Page } from '../api/client.js';
import { ApiError } from '../domain/errors.js';
import type { Context } from './context.js';
import type { ListPrinter } from '../io/list-printer.js';

export interface PagedListOptions<T> {
  all: boolean;
  cursor?: string;
  fetchPage(cursor: string | undefined): Promise<Page<T>>;
  printer: ListPrinter<T>;
  /** The command line that fetches the page after `cursor`. */
  nextCommand(cursor: string): string;
}

/** Prints one page (saying how to get the next) or, with --all, every page in order. */
export async function printPages<T>(ctx: Context, opts: PagedListOptions<T>): Promise<void> {
  let cursor = opts.cursor;
  const seen = new Set<string>();
  for (;;) {
    const page = await opts.fetchPage(cursor);
    opts.printer.page(page.items);
    const next = page.pagination.hasMore ? page.pagination.nextCursor : null;
    if (!opts.all) {
      opts.printer.end();
      if (next) ctx.output.morePages(page.pagination, opts.nextCommand(next));
      return;
    }
    if (!next) break;
    // A service that hands back a cursor it already gave would loop forever.
    if (seen.has(next))
      throw new ApiError('unexpected response from the service: pagination returned a cursor twice', {
        code: 'UNEXPECTED_RESPONSE',
        requestId: page.requestId,
      });
    seen.add(next);
    cursor = next;
  }
  opts.printer.end();
}
