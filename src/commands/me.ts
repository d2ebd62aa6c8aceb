// `trader me`: the account and the key used.
import type { Context } from '../context.js';
import { renderAccount } from '../io/views/account.js';

/** Prints the account and the key used. */
export async function run(ctx: Context): Promise<void> {
  const account = await (await ctx.api()).me();
  ctx.output.result(account, (theme) => renderAccount(account, theme));
}
