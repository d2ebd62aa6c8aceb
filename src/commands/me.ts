// `trader me`: the account and the key used.
import type { Context } from '../cli/context.js';
import { renderAccount } from '../views/account.js';
import { defineCommand, type NoOptions } from '../cli/definition.js';

export const me = defineCommand<NoOptions>({
  examples: ['trader me', 'trader me --json | jq -r .walletAddress'],
  parse: () => ({}),
  run,
});

/** Prints the account and the key used. */
async function run(ctx: Context): Promise<void> {
  const account = await (await ctx.api()).me();
  ctx.output.result(account, (theme) => renderAccount(account, theme));
}
