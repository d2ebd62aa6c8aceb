// `trader cancel <buyId>`: cancel a buy still awaiting its deposit. When the service refuses,
// the buy is read and its state decides (the API does not say which status a refusal has):
// already cancelled is done (exit 0); any other state is named (exit 3).
import type { BuyIntentResponse } from '../api/types.js';
import type { Context } from '../context.js';
import { ApiError } from '../errors.js';
import { renderFields } from '../io/table.js';
import type { CancelOptions } from './definitions/cancel.js';
import { resolveBuyId } from './id-prefix.js';

/** Cancels the buy, or says it already was cancelled. */
export async function run(ctx: Context, opts: CancelOptions): Promise<void> {
  const api = await ctx.api();
  const buyId = await resolveBuyId(api, opts.buyId);
  let data: BuyIntentResponse;
  let already = false;
  try {
    data = await api.cancelBuy(buyId);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const current = await api.getBuy(buyId).catch(() => null);
    if (!current) throw err;
    if (current.intent.status !== 'cancelled') {
      throw new ApiError(`buy ${buyId} is ${current.intent.status}; only a buy awaiting its deposit can be cancelled`, {
        code: 'NOT_CANCELLABLE',
        status: err.status,
        requestId: err.requestId,
      });
    }
    data = current;
    already = true;
  }
  const { intent } = data;
  ctx.output.result(data, (theme) =>
    renderFields([
      ['Buy', intent.id],
      ['Status', `${theme.status(intent.status)}${already ? ' (it already was; nothing to do)' : ''}`],
    ]),
  );
}
