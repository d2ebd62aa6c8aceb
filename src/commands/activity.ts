// `trader activity`: the account's ledger, newest first.
import type { ActivityEntry } from '../api/types.js';
import type { Context } from '../context.js';
import { parseLimit } from '../amounts.js';
import { renderActivity } from '../io/views/activity.js';
import { parseActivityTypes, parseCsvFlag, parseCursor } from './arguments.js';
import { shellQuote } from '../shell-quote.js';
import { printPages } from './paged-list.js';

interface Options {
  type?: string;
  limit?: string;
  cursor?: string;
  all?: boolean;
  csv?: boolean;
  wide?: boolean;
}

export async function run(ctx: Context, _args: string[], opts: Options): Promise<void> {
  const csv = parseCsvFlag(opts.csv, ctx.settings.json);
  const types = opts.type === undefined ? undefined : parseActivityTypes(opts.type);
  const limit = opts.limit === undefined ? undefined : parseLimit(opts.limit);
  const cursor = opts.cursor === undefined ? undefined : parseCursor(opts.cursor);
  const api = await ctx.api();
  await printPages<ActivityEntry>(ctx, {
    all: Boolean(opts.all),
    cursor,
    fetchPage: (c) => api.listActivity({ types, limit, cursor: c }),
    printer: csv
      ? await ctx.output.csv((await import('../io/csv-columns.js')).ACTIVITY_CSV)
      : ctx.output.list((items, theme) => renderActivity(items, theme, { width: ctx.terminal.columns, wide: opts.wide }), 'No activity.'),
    nextCommand: (next) =>
      ['trader activity', types && `--type ${types.join(',')}`, limit && `--limit ${limit}`, `--cursor ${shellQuote(next)}`].filter(Boolean).join(' '),
  });
}
