// `trader pnl`: profit and loss per token and in total, by average cost.
import type { Context } from '../context.js';
import { findTokenMint } from '../portfolio/find-token.js';
import { computePnl } from '../portfolio/pnl.js';
import { pnlDocument } from '../portfolio/pnl-document.js';
import { readPortfolio } from '../portfolio/read-portfolio.js';
import { renderPnl } from '../io/views/pnl.js';
import type { PnlOptions } from './definitions/pnl.js';

/** Computes the P&L from the account's lists and prints it. */
export async function run(ctx: Context, opts: PnlOptions): Promise<void> {
  const { csv, since, token } = opts;
  const input = await readPortfolio(await ctx.api());
  const mint = token === null ? null : findTokenMint(token, input);
  const report = computePnl(input, { since, asOf: ctx.clock.now(), mint });
  if (csv) {
    const { PNL_CSV, pnlCsvRows } = await import('../io/csv-columns.js');
    const printer = await ctx.output.csv(PNL_CSV);
    printer.page(pnlCsvRows(pnlDocument(report)));
    printer.end();
    return;
  }
  ctx.output.result(pnlDocument(report), (theme) => renderPnl(report, theme, token));
}
