// `trader positions [id]`: list positions, or show one.
import type { Position } from '../api/types.js';
import type { Context } from '../context.js';
import { parseLimit } from '../amounts.js';
import { renderPosition, renderPositions } from '../io/views/positions.js';
import { parseCsvFlag, parseCursor, parsePositionStatus } from './arguments.js';
import { resolvePositionId } from './id-prefix.js';
import { shellQuote } from '../shell-quote.js';
import { printPages } from './paged-list.js';

interface Options {
  status?: string;
  limit?: string;
  cursor?: string;
  all?: boolean;
  csv?: boolean;
  wide?: boolean;
}

export async function run(ctx: Context, [id]: string[], opts: Options): Promise<void> {
  const csv = parseCsvFlag(opts.csv, ctx.settings.json);
  const csvPrinter = async () => ctx.output.csv((await import('../io/csv-columns.js')).POSITION_CSV);
  if (id !== undefined) {
    const api = await ctx.api();
    const position = await api.getPosition(await resolvePositionId(api, id));
    if (csv) {
      const printer = await csvPrinter();
      printer.page([position]);
      printer.end();
    } else ctx.output.result(position, (theme) => renderPosition(position, theme));
    return;
  }
  const status = opts.status === undefined ? undefined : parsePositionStatus(opts.status);
  const limit = opts.limit === undefined ? undefined : parseLimit(opts.limit);
  const cursor = opts.cursor === undefined ? undefined : parseCursor(opts.cursor);
  const api = await ctx.api();
  await printPages<Position>(ctx, {
    all: Boolean(opts.all),
    cursor,
    fetchPage: (c) => api.listPositions({ status, limit, cursor: c }),
    printer: csv ? await csvPrinter() : ctx.output.list((items, theme) => renderPositions(items, theme, { width: ctx.terminal.columns, wide: opts.wide }), 'No positions.'),
    nextCommand: (next) =>
      ['trader positions', status && `--status ${status}`, limit && `--limit ${limit}`, `--cursor ${shellQuote(next)}`].filter(Boolean).join(' '),
  });
}
