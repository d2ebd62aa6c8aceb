// `trader points`: the points summary.
import type { Context } from '../cli/context.js';
import { renderPoints } from '../views/account.js';
import { defineCommand, type NoOptions } from '../cli/definition.js';

export const points = defineCommand<NoOptions>({
  examples: ['trader points', 'trader points --json | jq .totalPoints'],
  parse: () => ({}),
  run,
});

/** Prints the points summary. */
async function run(ctx: Context): Promise<void> {
  const points = await (await ctx.api()).points();
  ctx.output.result(points, (theme) => renderPoints(points, theme));
}
