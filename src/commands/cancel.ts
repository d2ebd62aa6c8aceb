// `trader cancel <buyId>`: cancel a buy still awaiting its deposit. When the service refuses,
// the buy is read and its state decides (the API does not say which status a refusal has):
// already cancelled is done (exit 0); any other state is named (exit 3). A buy this tool signed
// a deposit for is done only when the chain proves that deposit can never land (trade/signed-deposits.ts).
import type { BuyIntentResponse } from '../api/types.js';
import { MIN_PREFIX_LENGTH, parseUuidOrPrefix, type TypedId } from '../cli/argument-parsers.js';
import type { Context } from '../cli/context.js';
import { ApiError } from '../domain/errors.js';
import { renderFields } from '../io/table.js';
import { defineCommand } from '../cli/definition.js';
import { resolveBuyId } from '../cli/id-prefix.js';
import { recordFollowed } from '../journal/followed.js';
import { holdToSignedDeposits } from '../trade/signed-deposits.js';
import { renderVerificationLines } from '../views/verification.js';

export interface CancelOptions {
  /** A whole buy id, or a prefix looked up among the account's buys. */
  buyId: TypedId;
}

export const cancel = defineCommand<CancelOptions>({
  arguments: [{ name: '<buyId>', help: `buy intent id (uuid), or its first ${MIN_PREFIX_LENGTH}+ characters` }],
  examples: ['trader cancel 3f0c2a9e-1b2c-4d5e-8f90-0123456789ab', 'trader cancel 3f0c2a9e --json'],
  parse: (raw) => ({ buyId: parseUuidOrPrefix(raw.args[0]!, 'buy id') }),
  run,
});

/** Cancels the buy, or says it already was cancelled. */
async function run(ctx: Context, opts: CancelOptions): Promise<void> {
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
  recordFollowed(ctx, intent.id, intent.status);
  ctx.output.result(data, (theme) =>
    renderFields(
      [
        ['Buy', intent.id],
        ['Status', `${theme.status(intent.status)}${already ? ' (it already was; nothing to do)' : ''}`],
      ],
      theme,
    ),
  );
  // A deposit this tool signed for it may have landed, or may still: the chain says, not the cancel.
  await holdToSignedDeposits(ctx, api, intent.id, intent.status, renderVerificationLines);
}
