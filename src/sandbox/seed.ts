// Bulk history for pagination and benchmark tests: cheap synthetic positions and activity entries.
import type { ActivityEntry, ActivityType, Position, PositionStatus } from '../api/types.js';
import { POSITION_STATUSES } from '../api/types.js';
import { iso } from './offset-clock.js';
import { HttpError } from './sandbox-error.js';
import { newSignature, newUuid } from './ids.js';
import { quoteBuy } from './market.js';
import { awardPoints, valueOf } from './points-ledger.js';
import { createPosition } from './position-book.js';
import type { World } from './world.js';

const TYPES: ActivityType[] = ['buy', 'deposit', 'sell', 'payout', 'refund'];
const MAX_SEED = 200_000;

/** Append `positions` positions and `activity` entries to an account, stamped just before now. */
export function seedHistory(
  world: World,
  accountId: string,
  opts: { activity: number; positions: number; positionStatus: PositionStatus },
): { positions: number; activity: number } {
  for (const [name, n] of [
    ['activity', opts.activity],
    ['positions', opts.positions],
  ] as const) {
    if (!Number.isInteger(n) || n < 0 || n > MAX_SEED) {
      throw new HttpError(400, 'VALIDATION_ERROR', `${name} must be an integer from 0 to ${MAX_SEED}`);
    }
  }
  if (!(POSITION_STATUSES as readonly string[]).includes(opts.positionStatus)) {
    throw new HttpError(400, 'VALIDATION_ERROR', `positionStatus must be one of ${POSITION_STATUSES.join(', ')}`);
  }
  const now = world.now();
  // The tokens with risky mints stay out of the history (a buy of them is the person's to review).
  const tokens = world.state.tokens.filter((t) => !t.mintExtras);
  const principal = 100_000_000n;
  for (let i = 0; i < opts.positions; i++) {
    const token = tokens[i % tokens.length]!;
    const at = now - (opts.positions - i);
    const cost = principal - principal / 100n;
    const bought = quoteBuy(token, cost);
    const open = opts.positionStatus === 'open' || opts.positionStatus === 'closing';
    const done = open || opts.positionStatus === 'closed';
    const fields: Partial<Position> & { mint: string } = {
      mint: token.mint,
      status: opts.positionStatus,
      principalLamports: principal.toString(),
      costLamports: done ? cost.toString() : null,
      boughtAmount: done ? bought.toString() : null,
      soldAmount: open || !done ? '0' : bought.toString(),
      remainingAmount: done ? (open ? bought.toString() : '0') : null,
      buySignature: done ? newSignature() : null,
      openedAt: done ? iso(at) : null,
    };
    createPosition(world, accountId, fields, at);
  }
  const ledger = world.account(accountId).activity;
  // Amounts repeat every 1,000 entries per token: compute each quote once.
  const cache = new Map<number, { lamports: bigint; amount: string; v: ReturnType<typeof valueOf> }>();
  for (let i = 0; i < opts.activity; i++) {
    const token = tokens[i % tokens.length]!;
    const type = TYPES[i % TYPES.length]!;
    const variant = (i % 1000) * tokens.length + (i % tokens.length);
    let c = cache.get(variant);
    if (!c) {
      const l = BigInt(10_000_000 + (i % 1000) * 100_000);
      c = { lamports: l, amount: quoteBuy(token, l).toString(), v: valueOf(world, l) };
      cache.set(variant, c);
    }
    const { lamports, v } = c;
    const swap = type === 'buy' || type === 'sell';
    const entry: ActivityEntry = {
      id: newUuid(),
      type,
      status: type === 'deposit' ? 'confirmed' : 'completed',
      signature: newSignature(),
      mint: token.mint,
      symbol: token.symbol,
      decimals: token.decimals,
      amount: swap ? c.amount : null,
      solLamports: lamports.toString(),
      usdValue: swap ? v.usdValue : null,
      points: swap ? v.points : 0,
      createdAt: iso(now - (opts.activity - i)),
    };
    ledger.push(entry);
    if (swap) awardPoints(world, accountId, v.cents, v.points);
  }
  return { positions: opts.positions, activity: opts.activity };
}
