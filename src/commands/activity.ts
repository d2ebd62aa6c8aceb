// `trader activity`: the account's ledger, newest first.
import { ACTIVITY_TYPES, type ActivityType, type ActivityEntry } from '../api/types.js';
import { parseActivityTypes } from '../cli/argument-parsers.js';
import type { Context } from '../cli/context.js';
import { renderActivity } from '../views/activity-table.js';
import { shellQuote } from '../domain/shell-quote.js';
import { defineCommand, parsedOption } from '../cli/definition.js';
import { printPages } from '../cli/paged-list.js';
import { boundDecimals } from '../cli/bound-decimals.js';
import { LIST_OPTIONS, parseListFlags, type ListFlags } from '../cli/shared-options.js';

export interface ActivityOptions extends ListFlags {
  /** Only these types; undefined: all. */
  types: ActivityType[] | undefined;
}

export const activity = defineCommand<ActivityOptions>({
  options: [
    { flags: '--type <types>', help: `comma-separated: ${ACTIVITY_TYPES.join(',')}`, values: ACTIVITY_TYPES },
    ...LIST_OPTIONS,
  ],
  examples: [
    'trader activity',
    'trader activity --type buy,sell --limit 50',
    "trader activity --all --json | jq '.[].points'",
    'trader activity --all --csv > trades.csv',
  ],
  parse: (raw) => ({ ...parseListFlags(raw), types: parsedOption(raw, 'type', parseActivityTypes) }),
  run,
});

/** Lists the ledger a page at a time, or all of it. */
async function run(ctx: Context, opts: ActivityOptions): Promise<void> {
  const { types, limit, csv } = opts;
  const api = await ctx.api();
  const bound = await boundDecimals(ctx);
  await printPages<ActivityEntry>(ctx, {
    all: opts.all,
    cursor: opts.cursor,
    fetchPage: async (c) => {
      const page = await api.listActivity({ types, limit, cursor: c });
      return { ...page, items: page.items.map(bound.entry) };
    },
    printer: csv
      ? await ctx.output.csv((await import('../views/csv-columns.js')).ACTIVITY_CSV)
      : ctx.output.list(
          (items, theme) => renderActivity(items, theme, { width: ctx.terminal.columns, wide: opts.wide }),
          'No activity.',
        ),
    nextCommand: (next) =>
      [
        'trader activity',
        types && `--type ${types.join(',')}`,
        limit && `--limit ${limit}`,
        `--cursor ${shellQuote(next)}`,
      ]
        .filter(Boolean)
        .join(' '),
  });
}
