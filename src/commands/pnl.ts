// `trader pnl`: profit and loss per token and in total, by average cost.
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { findTokenMint } from '../portfolio/find-token.js';
import { computePnl } from '../portfolio/pnl.js';
import { pnlDocument } from '../portfolio/pnl-document.js';
import { readPortfolio } from '../portfolio/read-portfolio.js';
import { renderPnl } from '../io/views/pnl.js';
import { parseCsvFlag, printable } from './arguments.js';

interface Options {
  token?: string;
  since?: string;
  csv?: boolean;
}

export async function run(ctx: Context, _args: string[], opts: Options): Promise<void> {
  const csv = parseCsvFlag(opts.csv, ctx.settings.json);
  const since = opts.since === undefined ? null : parseSince(opts.since);
  const token = opts.token === undefined ? null : parseTokenOption(opts.token);
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

/**
 * `--since`: a date (`2026-01-01`, the start of that day in local time) or an ISO 8601 date-time
 * with its zone (`2026-01-01T00:00:00Z`, `…+02:00`). Returns epoch ms.
 */
export function parseSince(value: string): number {
  const fail = (): never => {
    throw new UsageError(`--since must be a date like 2026-01-01 or an ISO date-time like 2026-01-01T00:00:00Z, got "${printable(value)}"`);
  };
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const date = new Date(y, m - 1, d);
    // Refuse what the Date constructor would quietly roll over (2026-02-30 → March 2).
    if (date.getFullYear() !== y || date.getMonth() !== m - 1 || date.getDate() !== d) fail();
    return date.getTime();
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(value)) fail();
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? fail() : ms;
}

/** `--token`: a mint or a symbol; checked for shape here, resolved against the account's tokens later. */
function parseTokenOption(value: string): string {
  if (value === '' || value.length > 64 || /[\s\u0000-\u001f\u007f-\u009f]/.test(value)) {
    throw new UsageError(`--token must be a mint address or a token symbol, got "${printable(value)}"`);
  }
  return value;
}
