// `trader holdings`: tokens held for the account, largest value first.
import type { Holding } from '../api/types.js';
import type { Context } from '../context.js';
import { renderHoldings } from '../io/views/holdings.js';

export async function run(ctx: Context, _args: string[], opts: { wide?: boolean } = {}): Promise<void> {
  const holdings = await (await ctx.api()).holdings();
  const printer = ctx.output.list<Holding>((items, theme) => renderHoldings(items, theme, { width: ctx.terminal.columns, wide: opts.wide }), 'No holdings.');
  printer.page(holdings);
  printer.end();
}
