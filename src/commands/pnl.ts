// `trader pnl`: profit and loss per token and in total, by average cost.
import { parseSince, parseTokenArgument, type TokenArgument } from '../cli/argument-parsers.js';
import type { Context } from '../cli/context.js';
import { MIN_MINT_PREFIX } from '../domain/token-meta.js';
import { renderPnl } from '../views/pnl-table.js';
import { pnlDocument } from '../portfolio/pnl-document.js';
import { computePnl } from '../portfolio/pnl-reckoning.js';
import { readPortfolio } from '../portfolio/read-portfolio.js';
import { boundDecimals } from '../cli/bound-decimals.js';
import { knownTokens, resolveTokenMint } from '../trade/token-lookup.js';
import { defineCommand, parsedOption } from '../cli/definition.js';
import { CSV_OPTION, parseCsv } from '../cli/shared-options.js';

export interface PnlOptions {
  /** A mint, or a symbol or mint prefix resolved against the account's tokens; null: every token. */
  token: TokenArgument | null;
  /** Epoch ms: realized P&L and fees count from then; null: all history. */
  since: number | null;
  csv: boolean;
}

/** The tokens --token may name. */
const PNL_TOKENS = 'you hold or traded';

/** How the figures are computed, after the options in `trader pnl --help`. */
const PNL_METHOD = `
How it is computed: average cost per token. A buy's cost is its whole deposit
(platform fee included) in USD at execution; a sale takes its share of the
token's pooled cost (units sold / units held) and realizes its proceeds minus
that share; unrealized is value now minus the cost of what is held. A figure
that cannot be known reads "unknown", never a guess. In full: docs/pnl.md.`;

export const pnl = defineCommand<PnlOptions>({
  options: [
    { flags: '--token <token>', help: `only this token: its mint, symbol or first ${MIN_MINT_PREFIX}+ characters` },
    { flags: '--since <date>', help: 'realized P&L and fees from 2026-01-01 (local) or an ISO time' },
    CSV_OPTION,
  ],
  helpAfter: PNL_METHOD,
  examples: ['trader pnl --token WOOF --since 2026-01-01', 'trader pnl --csv > pnl.csv'],
  parse(raw) {
    const csv = parseCsv(raw);
    return {
      token: parsedOption(raw, 'token', (text) => parseTokenArgument(text, PNL_TOKENS, '--token')) ?? null,
      since: parsedOption(raw, 'since', parseSince) ?? null,
      csv,
    };
  },
  run,
});

/** Computes the P&L from the account's lists and prints it. */
async function run(ctx: Context, opts: PnlOptions): Promise<void> {
  const { csv, since, token } = opts;
  const bound = await boundDecimals(ctx);
  const read = await readPortfolio(await ctx.api());
  const input = {
    positions: read.positions.map(bound.position),
    activity: read.activity.map(bound.entry),
    holdings: read.holdings.map(bound.holding),
  };
  // The same rule as buy's and sell's <token>, over the whole history read for the P&L.
  const mint =
    token === null
      ? null
      : token.kind === 'mint'
        ? token.mint
        : resolveTokenMint(token.text, knownTokens(input), PNL_TOKENS);
  const report = computePnl(input, { since, asOf: ctx.clock.now(), mint });
  if (csv) {
    const { PNL_CSV, pnlCsvRows } = await import('../views/csv-columns.js');
    const printer = await ctx.output.csv(PNL_CSV);
    printer.page(pnlCsvRows(pnlDocument(report)));
    printer.end();
    return;
  }
  ctx.output.result(pnlDocument(report), (theme) =>
    renderPnl(report, theme, token && (token.kind === 'mint' ? token.mint : token.text)),
  );
}
