// Creating a buy or a sell is idempotent per account and key: a client that retries after a
// lost answer gets the first trade back (200) rather than a second one, and a key reused for a
// different request is refused (409) rather than answered with a trade it did not ask for.
import { HttpError } from './sandbox-error.js';
import type { TradeRequest } from './validate.js';

/** A buy or a sell authorization, as far as telling a repeat from a different request goes. */
interface Created {
  id: string;
  mint: string;
  slippageBps: number;
}

/**
 * The record of this request's idempotency key: made by `create` now (201), or for a repeat the
 * earlier one (200). `keys` maps the account's keys of this side to record ids; `amountOf` reads
 * the amount a record was made for (buys and sells name it differently).
 */
export function createOnce<R extends Created>(
  side: 'buy' | 'sell',
  request: TradeRequest,
  keys: Record<string, string>,
  records: ReadonlyMap<string, R>,
  amountOf: (record: R) => bigint,
  create: () => R,
): { status: 200 | 201; record: R } {
  const earlierId = keys[request.idempotencyKey];
  if (earlierId === undefined) {
    const record = create();
    keys[request.idempotencyKey] = record.id;
    return { status: 201, record };
  }
  const earlier = records.get(earlierId)!;
  if (
    earlier.mint !== request.mint ||
    amountOf(earlier) !== request.amount ||
    earlier.slippageBps !== request.slippageBps
  ) {
    throw new HttpError(
      409,
      'IDEMPOTENCY_KEY_REUSED',
      `idempotencyKey was already used for a ${side} with different parameters`,
    );
  }
  return { status: 200, record: earlier };
}
