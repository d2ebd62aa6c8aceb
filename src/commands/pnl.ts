// `trader pnl`: profit and loss per token and in total, by average cost.
import { parseSince, parseTokenArgument, type TokenArgument } from '../argument-parsers.js';
import type { Context } from '../context.js';
import { MIN_MINT_PREFIX } from '../domain/token.js';
import { renderPnl } from '../io/views/pnl.js';
import { pnlDocument } from '../portfolio/pnl-document.js';
import { computePnl } from '../portfolio/pnl.js';
import { readPortfolio } from '../portfolio/read-portfolio.js';
import { knownTokens, resolveTokenMint } from '../trade/token-lookup.js';
import { defineCommand, parsedOption } from './definition.js';
import { CSV_OPTION, parseCsv } from './shared-options.js';

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
How it is computed (average cost per token):
  Cost basis  the SOL deposited for each buy (principalLamports, platform fee
              included), in USD at that buy's rate (its activity entry's
              usdValue / solLamports), to the cent.
  Sales       walked oldest first: a sale takes its share of the token's pooled
              cost (units sold / units held), rounded to the lamport and cent,
              halves away from zero; a sale that empties the pool takes all
              that is left, so rounding never adds or loses cost.
  Realized    proceeds at execution (the sell entry's solLamports, usdValue)
              minus that share.
  Unrealized  value now (the holding's usdValue) minus the cost basis of what
              is held, and as a % of it.
  Fees        principalLamports - costLamports of each buy.
  --since     realized P&L and fees count sells and buys from then on; a
              sale's cost still comes from the whole history.
  Unknown     a figure that cannot be known (a buy with no activity entry, a
              token with no USD price, activity and positions that disagree)
              reads "unknown" (null in --json), never a guess; totals add the
              known figures and are marked *.
  --json      raw units and lamports are integer strings with exact decimals
              beside them; USD and % are strings with two decimals (exact).
`;

export const pnl = defineCommand<PnlOptions>({
  options: [
    { flags: '--token <token>', help: `only this token: a mint, or the symbol or mint prefix (${MIN_MINT_PREFIX}+ characters) of a token ${PNL_TOKENS}` },
    { flags: '--since <date>', help: 'count realized P&L and fees from this date (2026-01-01, local time) or ISO date-time' },
    CSV_OPTION,
  ],
  helpAfter: PNL_METHOD,
  examples: ['trader pnl', 'trader pnl --token WOOF --since 2026-01-01', "trader pnl --json | jq -r '.tokens[] | [.symbol, .unrealizedUsd] | @tsv'", 'trader pnl --csv > pnl.csv'],
  parse(raw) {
    const csv = parseCsv(raw);
    return { token: parsedOption(raw, 'token', (text) => parseTokenArgument(text, PNL_TOKENS, '--token')) ?? null, since: parsedOption(raw, 'since', parseSince) ?? null, csv };
  },
  run,
});

/** Computes the P&L from the account's lists and prints it. */
async function run(ctx: Context, opts: PnlOptions): Promise<void> {
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
