// `trader cancel <buyId>`: cancel a buy still awaiting its deposit.
import type { Context } from '../context.js';
import { renderFields } from '../io/table.js';
import { parseUuid } from './arguments.js';

export async function run(ctx: Context, [id]: string[]): Promise<void> {
  const buyId = parseUuid(id!, 'buy id');
  const data = await (await ctx.api()).cancelBuy(buyId);
  const { intent } = data;
  ctx.output.result(data, (theme) =>
    renderFields([
      ['Buy', intent.id],
      ['Status', theme.status(intent.status)],
    ]),
  );
}
