// Points: 50 per USD of executed volume, earned by buy and sell entries; a leaderboard of
// fictitious participants gives rank and participants realistic values.
import type { PointsSummary } from '../api/types.js';
import { lamportsToCents } from './market.js';
import type { World } from './world.js';

export const POINTS_PER_USD = 50;

/** USD value and points of a swap leg of `lamports`. */
export function valueOf(world: World, lamports: bigint): { usdValue: number; points: number; cents: number } {
  const cents = lamportsToCents(lamports, world.state.solUsd);
  return { usdValue: cents / 100, points: (cents * POINTS_PER_USD) / 100, cents };
}

/** Credit an executed swap to the account's points. */
export function awardPoints(world: World, accountId: string, cents: number, points: number): void {
  const data = world.account(accountId);
  data.totalPoints += points;
  data.volumeCents += cents;
  data.completedSwaps += 1;
}

/** Deterministic fictitious leaderboard. */
export function seedLeaderboard(): number[] {
  const out: number[] = [];
  let x = 7;
  for (let i = 0; i < 40; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(Math.round((x % 2_000_000) / 10) / 10 + 5);
  }
  return out;
}

/** GET /points. */
export function pointsSummary(world: World, accountId: string): PointsSummary {
  const me = world.account(accountId);
  const others = [
    ...world.state.leaderboard,
    ...Object.values(world.state.accounts)
      .filter((a) => a.accountId !== accountId && a.totalPoints > 0)
      .map((a) => a.totalPoints),
  ];
  const has = me.totalPoints > 0;
  return {
    totalPoints: me.totalPoints,
    volumeUsd: (me.volumeCents / 100).toFixed(2),
    completedSwaps: me.completedSwaps,
    rank: has ? 1 + others.filter((p) => p > me.totalPoints).length : null,
    participants: others.length + (has ? 1 : 0),
    pointsPerUsd: POINTS_PER_USD,
  };
}
