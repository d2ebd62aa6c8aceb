// `trader positions [id]`: list positions, or show one.
import type { Position } from '../api/types.js';
import type { Context } from '../context.js';
import { renderPosition, renderPositions } from '../io/views/positions.js';
import type { PositionsOptions } from './definitions/positions.js';
import { resolvePositionId } from './id-prefix.js';
import { shellQuote } from '../shell-quote.js';
import { printPages } from './paged-list.js';

/** Lists positions a page at a time (or all), or shows one. */
export async function run(ctx: Context, opts: PositionsOptions): Promise<void> {
  const { id, status, limit, csv } = opts;
  const csvPrinter = async () => ctx.output.csv((await import('../io/csv-columns.js')).POSITION_CSV);
  if (id !== null) {
    const api = await ctx.api();
    const position = await api.getPosition(await resolvePositionId(api, id));
    if (csv) {
      const printer = await csvPrinter();
      printer.page([position]);
      printer.end();
    } else ctx.output.result(position, (theme) => renderPosition(position, theme));
    return;
  }
  const api = await ctx.api();
  await printPages<Position>(ctx, {
    all: opts.all,
    cursor: opts.cursor,
    fetchPage: (c) => api.listPositions({ status, limit, cursor: c }),
    printer: csv ? await csvPrinter() : ctx.output.list((items, theme) => renderPositions(items, theme, { width: ctx.terminal.columns, wide: opts.wide }), 'No positions.'),
    nextCommand: (next) =>
      ['trader positions', status && `--status ${status}`, limit && `--limit ${limit}`, `--cursor ${shellQuote(next)}`].filter(Boolean).join(' '),
  });
}
