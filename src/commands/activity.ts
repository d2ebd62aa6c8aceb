// `trader activity`: the account's ledger, newest first.
import type { ActivityEntry } from '../api/types.js';
import type { Context } from '../context.js';
import { renderActivity } from '../io/views/activity.js';
import type { ActivityOptions } from './definitions/activity.js';
import { shellQuote } from '../shell-quote.js';
import { printPages } from './paged-list.js';

/** Lists the ledger a page at a time, or all of it. */
export async function run(ctx: Context, opts: ActivityOptions): Promise<void> {
  const { types, limit, csv } = opts;
  const api = await ctx.api();
  await printPages<ActivityEntry>(ctx, {
    all: opts.all,
    cursor: opts.cursor,
    fetchPage: (c) => api.listActivity({ types, limit, cursor: c }),
    printer: csv
      ? await ctx.output.csv((await import('../io/csv-columns.js')).ACTIVITY_CSV)
      : ctx.output.list((items, theme) => renderActivity(items, theme, { width: ctx.terminal.columns, wide: opts.wide }), 'No activity.'),
    nextCommand: (next) =>
      ['trader activity', types && `--type ${types.join(',')}`, limit && `--limit ${limit}`, `--cursor ${shellQuote(next)}`].filter(Boolean).join(' '),
  });
}
