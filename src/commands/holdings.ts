// `trader holdings`: tokens held for the account, largest value first.
import type { Holding } from '../api/types.js';
import type { Context } from '../context.js';
import { renderHoldings } from '../io/views/holdings.js';
import { parseCsvFlag } from './arguments.js';

interface Options {
  csv?: boolean;
  wide?: boolean;
}

export async function run(ctx: Context, _args: string[], opts: Options = {}): Promise<void> {
  const csv = parseCsvFlag(opts.csv, ctx.settings.json);
  const holdings = await (await ctx.api()).holdings();
  const printer = csv
    ? await ctx.output.csv((await import('../io/csv-columns.js')).HOLDING_CSV)
    : ctx.output.list<Holding>((items, theme) => renderHoldings(items, theme, { width: ctx.terminal.columns, wide: opts.wide }), 'No holdings.');
  printer.page(holdings);
  printer.end();
}
