// `trader positions [id]`: list positions, or show one.
import { POSITION_STATUSES, type Position } from '../api/types.js';
import { MIN_PREFIX_LENGTH, parsePositionStatus, parseUuidOrPrefix, type TypedId } from '../cli/argument-parsers.js';
import type { Context } from '../cli/context.js';
import { renderPosition, renderPositions } from '../views/positions-table.js';
import { shellQuote } from '../domain/shell-quote.js';
import { defineCommand, parsedOption } from '../cli/definition.js';
import { resolvePositionId } from '../cli/id-prefix.js';
import { printPages } from '../cli/paged-list.js';
import { boundDecimals } from '../cli/bound-decimals.js';
import { LIST_OPTIONS, parseListFlags, type ListFlags } from '../cli/shared-options.js';

export interface PositionsOptions extends ListFlags {
  /** One position to show (whole id or prefix); null lists them. */
  id: TypedId | null;
  status: string | undefined;
}

export const positions = defineCommand<PositionsOptions>({
  arguments: [{ name: '[id]', help: `position id to show, or its first ${MIN_PREFIX_LENGTH}+ characters` }],
  options: [
    { flags: '--status <status>', help: 'only positions in this status (open, closed, …)', values: POSITION_STATUSES },
    ...LIST_OPTIONS,
  ],
  examples: [
    'trader positions',
    'trader positions --status open --all --json',
    'trader positions 3f0c2a9e',
    'trader positions --all --csv > positions.csv',
  ],
  parse(raw) {
    const flags = parseListFlags(raw);
    const id = raw.args[0];
    return {
      ...flags,
      id: id === undefined ? null : parseUuidOrPrefix(id, 'position id'),
      status: parsedOption(raw, 'status', parsePositionStatus),
    };
  },
  run,
});

/** Lists positions a page at a time (or all), or shows one. */
async function run(ctx: Context, opts: PositionsOptions): Promise<void> {
  const { id, status, limit, csv } = opts;
  const csvPrinter = async () => ctx.output.csv((await import('../views/csv-columns.js')).POSITION_CSV);
  const bound = await boundDecimals(ctx);
  if (id !== null) {
    const api = await ctx.api();
    const position = bound.position(await api.getPosition(await resolvePositionId(api, id)));
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
    fetchPage: async (c) => {
      const page = await api.listPositions({ status, limit, cursor: c });
      return { ...page, items: page.items.map(bound.position) };
    },
    printer: csv
      ? await csvPrinter()
      : ctx.output.list(
          (items, theme) => renderPositions(items, theme, { width: ctx.terminal.columns, wide: opts.wide }),
          'No positions.',
        ),
    nextCommand: (next) =>
      ['trader positions', status && `--status ${status}`, limit && `--limit ${limit}`, `--cursor ${shellQuote(next)}`]
        .filter(Boolean)
        .join(' '),
  });
}
