// `trader points`: the points summary.
import type { Context } from '../context.js';
import { renderPoints } from '../io/views/account.js';

/** Prints the points summary. */
export async function run(ctx: Context): Promise<void> {
  const points = await (await ctx.api()).points();
  ctx.output.result(points, (theme) => renderPoints(points, theme));
}
