// Lists with pages: one page, or every page with --all written as it arrives.
import type { Page } from '../api/client.js';
import { pagesFrom } from '../api/all-pages.js';
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
  for await (const page of pagesFrom(opts.fetchPage, opts.cursor)) {
    opts.printer.page(page.items);
    if (!opts.all) {
      opts.printer.end();
      const next = page.pagination.hasMore ? page.pagination.nextCursor : null;
      if (next) ctx.output.morePages(page.pagination, opts.nextCommand(next));
      return;
    }
  }
  opts.printer.end();
}
