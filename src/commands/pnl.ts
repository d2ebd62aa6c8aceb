// `trader pnl`: profit and loss per token and in total, by average cost.
import type { Context } from '../context.js';
import { computePnl } from '../portfolio/pnl.js';
import { pnlDocument } from '../portfolio/pnl-document.js';
import { readPortfolio } from '../portfolio/read-portfolio.js';
import { renderPnl } from '../io/views/pnl.js';
import { knownTokens, resolveTokenMint } from '../trade/token-lookup.js';
import { PNL_TOKENS, type PnlOptions } from './definitions/pnl.js';

/** Computes the P&L from the account's lists and prints it. */
export async function run(ctx: Context, opts: PnlOptions): Promise<void> {
  const { csv, since, token } = opts;
  const input = await readPortfolio(await ctx.api());
  // The same rule as buy's and sell's <token>, over the whole history read for the P&L.
  const mint = token === null ? null : token.kind === 'mint' ? token.mint : resolveTokenMint(token.text, knownTokens(input), PNL_TOKENS);
  const report = computePnl(input, { since, asOf: ctx.clock.now(), mint });
  if (csv) {
    const { PNL_CSV, pnlCsvRows } = await import('../io/csv-columns.js');
    const printer = await ctx.output.csv(PNL_CSV);
    printer.page(pnlCsvRows(pnlDocument(report)));
    printer.end();
    return;
  }
  ctx.output.result(pnlDocument(report), (theme) => renderPnl(report, theme, token && (token.kind === 'mint' ? token.mint : token.text)));
}
