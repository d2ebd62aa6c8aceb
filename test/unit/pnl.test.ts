// P&L arithmetic on hand-made positions, activity and holdings: exact to the lamport and the cent.
import { describe, expect, it } from 'vitest';
import type { ActivityEntry, Holding, Position } from '../../src/api/types.js';
import { computePnl, type PnlInput } from '../../src/portfolio/pnl-reckoning.js';
import { pnlDocument } from '../../src/portfolio/pnl-document.js';
import { centsToDecimal, divRound, formatCents, numberToFraction, usdToCents } from '../../src/domain/usd.js';

const MINT = 'MintAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const OTHER = 'MintBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
let ids = 0;

function position(p: {
  mint?: string;
  principal: bigint;
  cost: bigint | null;
  bought: bigint;
  sold?: bigint;
  signature?: string | null;
  minute: number;
  status?: Position['status'];
}): Position {
  const sold = p.sold ?? 0n;
  const remaining = p.bought - sold;
  return {
    id: `pos-${++ids}`,
    status: p.status ?? (remaining === 0n ? 'closed' : 'open'),
    mint: p.mint ?? MINT,
    token: { symbol: 'TKN', name: 'Token', decimals: 3 },
    principalLamports: p.principal.toString(),
    costLamports: p.cost === null ? null : p.cost.toString(),
    boughtAmount: p.bought.toString(),
    soldAmount: sold.toString(),
    remainingAmount: remaining.toString(),
    buyTradeId: null,
    buySignature: p.signature === undefined ? `sig-${ids}` : p.signature,
    openedAt: at(p.minute),
    createdAt: at(p.minute),
    updatedAt: at(p.minute),
  };
}

function entry(e: {
  type: 'buy' | 'sell';
  mint?: string;
  amount: bigint;
  lamports: bigint | null;
  usd: number | null;
  minute: number;
  signature?: string | null;
  status?: string;
}): ActivityEntry {
  return {
    id: `act-${++ids}`,
    type: e.type,
    status: e.status ?? 'completed',
    signature: e.signature ?? `sig-${ids}`,
    mint: e.mint ?? MINT,
    symbol: 'TKN',
    decimals: 3,
    amount: e.amount.toString(),
    solLamports: e.lamports === null ? null : e.lamports.toString(),
    usdValue: e.usd,
    points: 0,
    createdAt: at(e.minute),
  };
}

/** A buy: the position and its activity entry, joined by the swap signature. */
function buy(b: {
  mint?: string;
  principal: bigint;
  cost: bigint;
  bought: bigint;
  sold?: bigint;
  usd: number | null;
  minute: number;
}) {
  const p = position({ ...b, signature: `swap-${++ids}` });
  return {
    position: p,
    entry: entry({
      type: 'buy',
      mint: b.mint,
      amount: b.bought,
      lamports: b.cost,
      usd: b.usd,
      minute: b.minute,
      signature: p.buySignature,
    }),
  };
}

function holding(amount: bigint, usdValue: number | null, mint = MINT): Holding {
  return {
    mint,
    name: 'Token',
    symbol: mint === MINT ? 'TKN' : 'OTH',
    decimals: 3,
    amount: amount.toString(),
    balance: null,
    usdPrice: usdValue === null ? null : 1,
    usdValue,
    imageUrl: 'https://example.com/x.png',
    positionIds: [],
    sellInProgress: false,
  };
}

const run = (input: PnlInput, since: number | null = null) => computePnl(input, { since, asOf: Date.UTC(2026, 0, 2) });

describe('usd: exact cents', () => {
  it('reads a JSON number at its exact decimal value', () => {
    expect(numberToFraction(0.1)).toEqual({ num: 1n, den: 10n });
    expect(numberToFraction(1e-7)).toEqual({ num: 1n, den: 10_000_000n });
    expect(numberToFraction(1.5e21)).toEqual({ num: 1_500_000_000_000_000_000_000n, den: 1n });
    expect(numberToFraction(-12.3)).toEqual({ num: -123n, den: 10n });
    expect(numberToFraction(Number.NaN)).toBeNull();
  });

  it('rounds to the cent, halves away from zero, with no float in between', () => {
    expect(usdToCents(15.605)).toBe(1561n); // 15.605 * 100 is 1560.4999… in floating point
    expect(usdToCents(0.1 + 0.2)).toBe(30n);
    expect(usdToCents(-0.005)).toBe(-1n);
    expect(usdToCents(0.004)).toBe(0n);
    expect(usdToCents(null)).toBeNull();
    expect(divRound(5n, 2n)).toBe(3n);
    expect(divRound(-5n, 2n)).toBe(-3n);
    expect(divRound(7n, -2n)).toBe(-4n);
  });

  it('prints cents exactly', () => {
    expect(centsToDecimal(5n)).toBe('0.05');
    expect(centsToDecimal(-123456n)).toBe('-1234.56');
    expect(formatCents(123456789n)).toBe('$1,234,567.89');
    expect(formatCents(-310n)).toBe('-$3.10');
    expect(formatCents(779n, { signed: true })).toBe('+$7.79');
    expect(formatCents(0n, { signed: true })).toBe('$0.00');
  });
});

describe('computePnl', () => {
  it('a buy and a partial sell: realized on the part sold, unrealized on the rest, fees from the position', () => {
    // 1 SOL deposited, 0.99 SOL swapped for 1,000 units at $150/SOL; 400 units sold for 0.7 SOL ($105).
    const b = buy({ principal: 1_000_000_000n, cost: 990_000_000n, bought: 1000n, sold: 400n, usd: 148.5, minute: 1 });
    const sell = entry({ type: 'sell', amount: 400n, lamports: 700_000_000n, usd: 105, minute: 2 });
    const r = run({ positions: [b.position], activity: [sell, b.entry], holdings: [holding(600n, 120.5)] });
    const t = r.tokens[0]!;
    expect(t.amount).toBe(600n);
    // USD cost of the whole deposit at the buy's rate: 148.5 × 1e9 / 0.99e9 = $150.00.
    expect(t.costBasisLamports).toBe(600_000_000n);
    expect(t.costBasisCents).toBe(9000n);
    expect(t.valueCents).toBe(12050n);
    expect(t.unrealizedCents).toBe(3050n);
    expect(t.unrealizedHundredths).toBe(3389n); // 30.50 / 90.00 = 33.888…%
    expect(t.soldAmount).toBe(400n);
    expect(t.proceedsLamports).toBe(700_000_000n);
    expect(t.proceedsCents).toBe(10500n);
    expect(t.realizedLamports).toBe(300_000_000n);
    expect(t.realizedCents).toBe(4500n);
    expect(t.feesLamports).toBe(10_000_000n);
    expect(t.shareHundredths).toBe(10000n);
    expect(t.notes).toEqual([]);
    expect(r.total).toMatchObject({
      costBasisCents: 9000n,
      valueCents: 12050n,
      unrealizedCents: 3050n,
      realizedCents: 4500n,
      incomplete: [],
    });
  });

  it('several buys at different prices: average cost, rounded per sale, and nothing lost to rounding', () => {
    // Lot 1: 3 units for 100 lamports ($1.00); sell 1; lot 2: 1 unit for 50 lamports ($0.50); sell 2; sell the last.
    const b1 = buy({ principal: 100n, cost: 99n, bought: 3n, sold: 3n, usd: 0.99, minute: 1 });
    const b2 = buy({ principal: 50n, cost: 50n, bought: 1n, usd: 0.5, minute: 3 });
    const s1 = entry({ type: 'sell', amount: 1n, lamports: 40n, usd: 0.41, minute: 2 });
    const s2 = entry({ type: 'sell', amount: 2n, lamports: 90n, usd: 0.88, minute: 4 });
    const input = {
      positions: [b1.position, b2.position],
      activity: [b1.entry, b2.entry, s1, s2],
      holdings: [holding(1n, 0.5)],
    };

    // After s2: pool 3 units / 117 lamports / 117 cents; s2 takes 2/3 → 78 and 78.
    const t = run(input).tokens[0]!;
    expect(t.costBasisLamports).toBe(39n);
    expect(t.costBasisCents).toBe(39n);
    // Realized: (40 − 33) + (90 − 78) lamports; (41 − 33) + (88 − 78) cents.
    expect(t.realizedLamports).toBe(19n);
    expect(t.realizedCents).toBe(18n);
    expect(t.feesLamports).toBe(1n);

    // Selling the last unit takes all that is left: total cost taken = total paid, to the lamport.
    const s3 = entry({ type: 'sell', amount: 1n, lamports: 45n, usd: 0.45, minute: 5 });
    const closed = { ...b2.position, status: 'closed' as const, soldAmount: '1', remainingAmount: '0' };
    const done = run({ positions: [b1.position, closed], activity: [...input.activity, s3], holdings: [] }).tokens[0]!;
    expect(done.amount).toBe(0n);
    expect(done.costBasisLamports).toBe(0n);
    expect(done.costBasisCents).toBe(0n);
    expect(done.proceedsLamports! - done.realizedLamports!).toBe(150n);
    expect(done.proceedsCents! - done.realizedCents!).toBe(150n);
    expect(done.valueCents).toBe(0n);
    expect(done.unrealizedHundredths).toBeNull();
  });

  it('a sale that splits a cost evenly rounds half away from zero', () => {
    const b = buy({ principal: 5n, cost: 5n, bought: 2n, sold: 1n, usd: 0.05, minute: 1 });
    const s = entry({ type: 'sell', amount: 1n, lamports: 1n, usd: 0.01, minute: 2 });
    const t = run({ positions: [b.position], activity: [b.entry, s], holdings: [holding(1n, 0.02)] }).tokens[0]!;
    expect(t.costBasisLamports).toBe(2n); // 5 − round(2.5) = 5 − 3
    expect(t.costBasisCents).toBe(2n);
    expect(t.realizedLamports).toBe(-2n);
    expect(t.realizedCents).toBe(-2n);
    expect(t.unrealizedCents).toBe(0n);
  });

  it('a position with no activity entry: SOL figures known, USD cost unknown, and said so', () => {
    const p = position({ principal: 1_000_000_000n, cost: 990_000_000n, bought: 1000n, sold: 500n, minute: 1 });
    const s = entry({ type: 'sell', amount: 500n, lamports: 600_000_000n, usd: 90, minute: 2 });
    const r = run({ positions: [p], activity: [s], holdings: [holding(500n, 80)] });
    const t = r.tokens[0]!;
    expect(t.costBasisLamports).toBe(500_000_000n);
    expect(t.costBasisCents).toBeNull();
    expect(t.valueCents).toBe(8000n);
    expect(t.unrealizedCents).toBeNull();
    expect(t.realizedLamports).toBe(100_000_000n);
    expect(t.realizedCents).toBeNull();
    expect(t.proceedsCents).toBe(9000n);
    expect(t.notes.join('\n')).toMatch(new RegExp(`no activity entry for the buy of position ${p.id}`));
    expect(r.total.incomplete).toEqual(['costBasisCents', 'unrealizedCents', 'realizedCents']);
    expect(r.total.valueCents).toBe(8000n);
    expect(pnlDocument(r).total.incomplete).toEqual(['costBasisUsd', 'unrealizedUsd', 'realizedUsd']);
  });

  it('an unknown cost sold off entirely does not cloud a later buy', () => {
    const old = position({ principal: 100n, cost: 99n, bought: 10n, sold: 10n, minute: 1 });
    const s = entry({ type: 'sell', amount: 10n, lamports: 120n, usd: 1.2, minute: 2 });
    const b = buy({ principal: 200n, cost: 198n, bought: 10n, usd: 1.98, minute: 3 });
    const t = run({ positions: [old, b.position], activity: [s, b.entry], holdings: [holding(10n, 2.5)] }).tokens[0]!;
    expect(t.costBasisCents).toBe(200n);
    expect(t.unrealizedCents).toBe(50n);
    expect(t.unrealizedHundredths).toBe(2500n);
    expect(t.realizedCents).toBeNull(); // that sale's cost is still unknown
    expect(t.realizedLamports).toBe(20n);
  });

  it('a token with no USD price: value and unrealized unknown, totals over the rest, marked incomplete', () => {
    const a = buy({ principal: 1000n, cost: 990n, bought: 10n, usd: 1.5, minute: 1 });
    const b = buy({ mint: OTHER, principal: 2000n, cost: 1980n, bought: 20n, usd: 3, minute: 2 });
    const r = run({
      positions: [a.position, b.position],
      activity: [a.entry, b.entry],
      holdings: [holding(10n, 2), holding(20n, null, OTHER)],
    });
    const [priced, unpriced] = r.tokens;
    expect(priced!.mint).toBe(MINT);
    expect(priced!.shareHundredths).toBe(10000n);
    expect(unpriced!.mint).toBe(OTHER);
    expect(unpriced!.costBasisCents).toBe(303n); // 3.00 × 2000 / 1980 = 3.0303…
    expect(unpriced!.valueCents).toBeNull();
    expect(unpriced!.unrealizedCents).toBeNull();
    expect(unpriced!.shareHundredths).toBeNull();
    expect(unpriced!.notes).toContain('the service gives no USD price for this token: its value now is unknown');
    expect(r.total.valueCents).toBe(200n);
    expect(r.total.costBasisCents).toBe(152n + 303n);
    expect(r.total.unrealizedCents).toBe(48n);
    expect(r.total.unrealizedHundredths).toBe(3158n); // 0.48 / 1.52, only where both are known
    expect(r.total.incomplete).toEqual(['valueCents', 'unrealizedCents']);
  });

  it('--since: realized and fees count from the date; the cost of a sale still comes from the whole history', () => {
    const b1 = buy({ principal: 1000n, cost: 990n, bought: 10n, sold: 10n, usd: 10, minute: 1 });
    const s1 = entry({ type: 'sell', amount: 5n, lamports: 700n, usd: 7, minute: 2 });
    const b2 = buy({ principal: 2000n, cost: 1980n, bought: 10n, sold: 0n, usd: 20, minute: 3 });
    const s2 = entry({ type: 'sell', amount: 5n, lamports: 900n, usd: 9, minute: 4 });
    const input = {
      positions: [b1.position, b2.position],
      activity: [b1.entry, s1, b2.entry, s2],
      holdings: [holding(10n, 25)],
    };
    const since = Date.parse(at(3));
    const t = run(input, since).tokens[0]!;
    // b1 costs 1,010 cents ($10 × 1000/990); s1 takes half: 500 lamports, 505 cents.
    // + b2 (2,020 cents): 15 units, 2,500 lamports, 2,525 cents; s2 takes a third: 833 lamports, 842 cents.
    expect(t.soldAmount).toBe(5n);
    expect(t.realizedLamports).toBe(900n - 833n);
    expect(t.realizedCents).toBe(900n - 842n);
    expect(t.feesLamports).toBe(20n);
    expect(t.costBasisLamports).toBe(1667n);
    expect(t.costBasisCents).toBe(1683n);
    // Without --since everything counts.
    const all = run(input).tokens[0]!;
    expect(all.soldAmount).toBe(10n);
    expect(all.feesLamports).toBe(30n);
    expect(all.costBasisCents).toBe(1683n);
    expect(all.realizedCents).toBe(700n - 505n + 900n - 842n);
    // A token closed before the period is left out.
    expect(
      run({ positions: [b1.position], activity: [b1.entry, s1, { ...s2, createdAt: at(2) }], holdings: [] }, since)
        .tokens,
    ).toEqual([]);
  });

  it('activity and positions that disagree on what was sold: average-cost figures unknown, never guessed', () => {
    const b = buy({ principal: 1000n, cost: 990n, bought: 10n, sold: 4n, usd: 10, minute: 1 });
    const r = run({ positions: [b.position], activity: [b.entry], holdings: [holding(6n, 7)] });
    const t = r.tokens[0]!;
    expect(t.costBasisLamports).toBeNull();
    expect(t.costBasisCents).toBeNull();
    expect(t.realizedCents).toBeNull();
    expect(t.unrealizedCents).toBeNull();
    expect(t.valueCents).toBe(700n);
    expect(t.feesLamports).toBe(10n);
    expect(t.notes.join(' ')).toMatch(/disagree on the amount sold/);
  });

  it('finds a buy entry without a signature by mint, units and SOL; ignores failed entries', () => {
    const p = position({ principal: 1000n, cost: 990n, bought: 10n, signature: null, minute: 1 });
    const e = entry({ type: 'buy', amount: 10n, lamports: 990n, usd: 1.98, minute: 1, signature: null });
    const failed = entry({ type: 'sell', amount: 5n, lamports: 1n, usd: 0, minute: 2, status: 'failed' });
    const t = run({ positions: [p], activity: [e, failed], holdings: [holding(10n, 3)] }).tokens[0]!;
    expect(t.costBasisCents).toBe(200n);
    expect(t.unrealizedCents).toBe(100n);
    expect(t.soldAmount).toBe(0n);
  });

  it('shares of the portfolio add up and order follows value', () => {
    const a = buy({ principal: 100n, cost: 99n, bought: 1n, usd: 1, minute: 1 });
    const b = buy({ mint: OTHER, principal: 100n, cost: 99n, bought: 1n, usd: 1, minute: 1 });
    const r = run({
      positions: [a.position, b.position],
      activity: [a.entry, b.entry],
      holdings: [holding(1n, 42.1), holding(1n, 57.9, OTHER)],
    });
    expect(r.tokens.map((t) => [t.mint, t.shareHundredths])).toEqual([
      [OTHER, 5790n],
      [MINT, 4210n],
    ]);
  });

  it('the JSON document: integer strings with exact decimals, USD as two-decimal strings', () => {
    const b = buy({ principal: 1_000_000_000n, cost: 990_000_000n, bought: 1000n, sold: 400n, usd: 148.5, minute: 1 });
    const sell = entry({ type: 'sell', amount: 400n, lamports: 700_000_000n, usd: 105, minute: 2 });
    const doc = pnlDocument(
      run({ positions: [b.position], activity: [sell, b.entry], holdings: [holding(600n, 120.5)] }, Date.parse(at(0))),
    );
    expect(doc).toMatchObject({ method: 'average-cost', since: at(0), asOf: '2026-01-02T00:00:00.000Z' });
    expect(doc.tokens[0]).toEqual({
      mint: MINT,
      symbol: 'TKN',
      name: 'Token',
      decimals: 3,
      amount: '600',
      amountDecimal: '0.6',
      costBasisLamports: '600000000',
      costBasisSol: '0.6',
      costBasisUsd: '90.00',
      valueUsd: '120.50',
      sharePct: '100.00',
      unrealizedUsd: '30.50',
      unrealizedPct: '33.89',
      soldAmount: '400',
      soldAmountDecimal: '0.4',
      proceedsLamports: '700000000',
      proceedsSol: '0.7',
      proceedsUsd: '105.00',
      realizedLamports: '300000000',
      realizedSol: '0.3',
      realizedUsd: '45.00',
      feesLamports: '10000000',
      feesSol: '0.01',
      notes: [],
    });
    expect(doc.total.realizedUsd).toBe('45.00');
    expect(doc.total.unrealizedPct).toBe('33.89');
  });
});

describe('--since', () => {
  it('a date is the start of that day in local time; a date-time needs its zone', async () => {
    const { parseSince } = await import('../../src/cli/argument-parsers.js');
    expect(parseSince('2026-01-01')).toBe(new Date(2026, 0, 1).getTime());
    expect(parseSince('2026-01-01T00:00:00Z')).toBe(Date.UTC(2026, 0, 1));
    expect(parseSince('2026-01-01T02:00+02:00')).toBe(Date.UTC(2026, 0, 1));
    expect(parseSince('2026-01-01T00:00:00.5Z')).toBe(Date.UTC(2026, 0, 1) + 500);
    for (const bad of ['2026-02-30', '2026-1-1', '2026-01-01T00:00', 'yesterday', '']) {
      expect(() => parseSince(bad), bad).toThrow(/--since must be a date/);
    }
  });
});
