// The seeded portfolio history: real buys and sells in the past, consistent across positions,
// activity, trades and holdings, with the pools back at their start prices afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry, Holding, Position } from '../../src/api/types.js';
import { computePnl } from '../../src/portfolio/pnl-reckoning.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let empty: TestSandbox;
beforeAll(async () => {
  [sb, empty] = await Promise.all([startTestSandbox({ history: true }), startTestSandbox()]);
});
afterAll(async () => {
  await Promise.all([sb?.close(), empty?.close()]);
});

async function state(s: TestSandbox) {
  const [positions, activity, holdings] = await Promise.all([
    s.call('GET', '/positions', { query: { limit: 100 } }),
    s.call('GET', '/activity', { query: { limit: 100 } }),
    s.call('GET', '/holdings'),
  ]);
  return {
    positions: positions.body.data as Position[],
    activity: activity.body.data as ActivityEntry[],
    holdings: holdings.body.data as Holding[],
  };
}

describe('portfolio history', () => {
  it('buys and partial sells in the past that positions, activity, trades and holdings agree on', async () => {
    const { positions, activity, holdings } = await state(sb);
    const now = Date.parse((await sb.control('/clock')).now);
    expect(positions).toHaveLength(4);
    expect(activity.filter((e) => e.type === 'buy')).toHaveLength(4);
    expect(activity.filter((e) => e.type === 'sell')).toHaveLength(3);
    for (const e of activity) expect(Date.parse(e.createdAt)).toBeLessThan(now - 12 * 3_600_000);

    const solUsd = (await sb.control('/')).solUsd as number;
    for (const p of positions) {
      expect(BigInt(p.boughtAmount!)).toBe(BigInt(p.soldAmount) + BigInt(p.remainingAmount!));
      const buy = activity.find((e) => e.type === 'buy' && e.signature === p.buySignature)!;
      expect(buy).toMatchObject({ mint: p.mint, amount: p.boughtAmount, solLamports: p.costLamports });
      expect(buy.usdValue).toBe(Math.round((Number(p.costLamports) / 1e9) * solUsd * 100) / 100);
      const trade = await sb.call('GET', `/trades/${p.buyTradeId}`);
      expect(trade.body.data).toMatchObject({
        stage: 'completed',
        inputAmount: p.principalLamports,
        receivedOutputAmount: p.boughtAmount,
      });
      expect(BigInt(trade.body.data.platformFeeLamports)).toBe(BigInt(p.principalLamports) - BigInt(p.costLamports!));
    }
    for (const mint of new Set(positions.map((p) => p.mint!))) {
      const sold = activity
        .filter((e) => e.type === 'sell' && e.mint === mint)
        .reduce((s, e) => s + BigInt(e.amount!), 0n);
      const mine = positions.filter((p) => p.mint === mint);
      expect(mine.reduce((s, p) => s + BigInt(p.soldAmount), 0n)).toBe(sold);
      const held = mine.filter((p) => p.status === 'open').reduce((s, p) => s + BigInt(p.remainingAmount!), 0n);
      expect(holdings.find((h) => h.mint === mint)?.amount ?? '0').toBe(held.toString());
    }
  });

  it('leaves the pools at their start prices, and shows a gain, a loss and a closed trade', async () => {
    const [seeded, fresh] = await Promise.all([sb.control('/tokens'), empty.control('/tokens')]);
    expect(seeded.map((t: any) => t.usdPrice)).toEqual(fresh.map((t: any) => t.usdPrice));
    const report = computePnl(await state(sb), { since: null, asOf: 0 });
    const by = Object.fromEntries(report.tokens.map((t) => [t.symbol, t]));
    expect(by.WOOF!.unrealizedCents! > 0n && by.WOOF!.realizedCents! > 0n).toBe(true);
    expect(by.SGLD!.unrealizedCents! < 0n && by.SGLD!.realizedCents! < 0n).toBe(true);
    expect(by.BRIX!.amount).toBe(0n);
    expect(by.BRIX!.realizedCents! > 0n).toBe(true);
    expect(report.tokens.flatMap((t) => t.notes)).toEqual([]);
  });

  it('reset trades it again; the control route adds it to an account with no history only', async () => {
    await sb.control('/reset', {});
    expect((await state(sb)).positions).toHaveLength(4);
    await expect(sb.control('/seed-portfolio', {})).rejects.toThrow(/409 HAS_HISTORY/);
    expect(await empty.control('/seed-portfolio', {})).toEqual({ buys: 4, sells: 3 });
    expect((await state(empty)).activity).toHaveLength(14);
  });
});
