// `trader holdings`: tokens held for the account, largest value first.
import type { Holding } from '../api/types.js';
import type { Context } from '../cli/context.js';
import { renderHoldings } from '../views/holdings-table.js';
import { boundDecimals } from '../cli/bound-decimals.js';
import { defineCommand } from '../cli/definition.js';
import { CSV_OPTION, parseTableFlags, WIDE_OPTION, type TableFlags } from '../cli/shared-options.js';

export type HoldingsOptions = TableFlags;

export const holdings = defineCommand<HoldingsOptions>({
  options: [CSV_OPTION, WIDE_OPTION],
  examples: [
    'trader holdings',
    "trader holdings --json | jq '.[] | {symbol, amount}'",
    'trader holdings --csv > holdings.csv',
  ],
  parse: parseTableFlags,
  run,
});

/** Prints the holdings: a table with shares and a total, or CSV, or JSON. */
async function run(ctx: Context, opts: HoldingsOptions): Promise<void> {
  const { csv } = opts;
  const bound = await boundDecimals(ctx);
  const holdings = (await (await ctx.api()).holdings()).map(bound.holding);
  const printer = csv
    ? await ctx.output.csv((await import('../views/csv-columns.js')).HOLDING_CSV)
    : ctx.output.list<Holding>(
        (items, theme) => renderHoldings(items, theme, { width: ctx.terminal.columns, wide: opts.wide }),
        'No holdings.',
      );
  printer.page(holdings);
  printer.end();
}
