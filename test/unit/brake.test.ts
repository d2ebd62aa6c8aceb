// The brake's pure rules (domain/brake-rules.ts) and what it counts from the journal
// (journal/brake-counts.ts): the lock file's text, the mint lists, the trades of the last hour
// (at the limit refused, one fewer fits), the realized loss reckoned from journal records, and
// which changes of a limit loosen it.
import { describe, expect, it } from 'vitest';
import { brakeText, hourRoom, HOUR_MS, loosens, mintRefusedWhy, parseBrake } from '../../src/domain/brake-rules.js';
import { realizedLoss, tradesInHour } from '../../src/journal/brake-counts.js';
import type { JournalRecord } from '../../src/journal/records.js';

const W = 'wallet';
const NOW = Date.UTC(2026, 0, 2, 12);
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();
let n = 0;
/** A signed trade's records: created, before-signing, signed (`msAgo` before NOW). */
function trade(
  side: 'buy' | 'sell',
  mint: string,
  msAgo: number,
  o: { amount: string; lamports: string; units?: string; outcome?: string; wallet?: string },
): JournalRecord[] {
  const id = `${side}-${++n}`;
  const sha = String(n).padStart(64, '0');
  const base = { v: 1 as const, at: at(msAgo), service: 's', wallet: o.wallet ?? W, side, trade: id };
  const created = {
    ...base,
    type: 'created',
    idempotencyKey: id,
    resumed: false,
    request: { mint, amount: o.amount, slippageBps: null },
    quote: side === 'buy' ? { minimumOutputAmount: o.units ?? '0' } : {},
  };
  const before =
    side === 'buy'
      ? {
          ...base,
          type: 'before-signing',
          messageSha256: sha,
          blockhash: 'B',
          lastValidBlockHeight: 1,
          blockhashKnownBeforeSigning: true,
          amountLamports: o.lamports,
        }
      : { ...base, type: 'before-signing', messageSha256: sha, minimumOutputLamports: o.lamports };
  const signed = { ...base, type: 'signed', messageSha256: sha, signature: `sig${n}` };
  const out = o.outcome ? [{ ...base, type: 'outcome', outcome: o.outcome }] : [];
  return [created, before, signed, ...out] as JournalRecord[];
}

describe('the lock file', () => {
  it('reads back what it wrote; unlocked is null; anything else is an error, never "unlocked"', () => {
    const lock = { at: at(0), reason: 'why', by: 'script' };
    expect(parseBrake(brakeText(lock))).toEqual(lock);
    expect(parseBrake(brakeText(null))).toBeNull();
    for (const text of ['{}', '[]', 'null', '{"locked":{"at":1}}', 'nope'])
      expect(() => parseBrake(text), text).toThrow();
  });
});

describe('mint lists', () => {
  it('denied always refused; with an allow list only its mints; neither: any', () => {
    expect(mintRefusedWhy('A', ['A'], null, 'p')).toBeNull();
    expect(mintRefusedWhy('B', ['A'], null, 'p')).toBe(`B is not in profile "p"'s allowedMints (A)`);
    expect(mintRefusedWhy('A', ['A'], ['A'], 'p')).toBe(`A is in profile "p"'s deniedMints`);
    expect(mintRefusedWhy('Z', null, null, 'p')).toBeNull();
  });
});

describe('trades per hour', () => {
  it("counts signed trades of the wallet in the last hour (not one never signed, not another wallet's, not older); at the limit the next is refused", () => {
    const unsigned = trade('buy', 'M', 10, { amount: '1', lamports: '1' }).filter((r) => r.type !== 'signed');
    const records = [
      ...trade('buy', 'M', HOUR_MS + 1, { amount: '1', lamports: '1' }),
      ...trade('buy', 'M', HOUR_MS - 1000, { amount: '1', lamports: '1' }),
      ...trade('sell', 'M', 5, { amount: '1', lamports: '1' }),
      ...unsigned,
      ...trade('buy', 'M', 5, { amount: '1', lamports: '1', wallet: 'other' }),
    ];
    const inHour = tradesInHour(records, W, NOW);
    expect(inHour).toEqual([NOW - HOUR_MS + 1000, NOW - 5]);
    expect(hourRoom(inHour, 3)).toEqual({ fits: true, freesAtMs: null });
    expect(hourRoom(inHour, 2)).toEqual({ fits: false, freesAtMs: NOW + 1000 });
    expect(hourRoom(inHour, 1)).toEqual({ fits: false, freesAtMs: NOW - 5 + HOUR_MS });
    expect(hourRoom([], 0).fits).toBe(false);
  });
});

describe('realized loss over 24 hours, from the journal', () => {
  it('average cost over the fewest units quoted, each sell paid its signed minimum; older sells move the pool but do not count; a refunded buy and a failed sell are left out', () => {
    const records = [
      ...trade('buy', 'M', 30 * HOUR_MS, { amount: '100', lamports: '100', units: '10' }),
      ...trade('buy', 'M', 29 * HOUR_MS, { amount: '999', lamports: '999', units: '10', outcome: 'refunded' }),
      ...trade('buy', 'M', 28 * HOUR_MS, { amount: '300', lamports: '300', units: '10' }),
      // 25 h ago: 5 of 20 units, cost 100 (400 * 5/20), paid 80: outside the window.
      ...trade('sell', 'M', 25 * HOUR_MS, { amount: '5', lamports: '80' }),
      // In the window: 5 of 15 (cost 100) paid 60 → 40 lost; a failed sell moves nothing.
      ...trade('sell', 'M', 2 * HOUR_MS, { amount: '5', lamports: '60' }),
      ...trade('sell', 'M', HOUR_MS, { amount: '10', lamports: '0', outcome: 'failed' }),
      // The rest (10 units, cost 200) paid 230 → 30 gained.
      ...trade('sell', 'M', HOUR_MS, { amount: '10', lamports: '230' }),
      // A token never bought here: its cost is unknown, not counted.
      ...trade('sell', 'X', HOUR_MS, { amount: '10', lamports: '1' }),
    ];
    expect(realizedLoss(records, W, NOW)).toEqual({ lossLamports: 10n, sells: 2, unknownCost: 1 });
    expect(realizedLoss(records, 'other', NOW)).toEqual({ lossLamports: 0n, sells: 0, unknownCost: 0 });
  });
});

describe('loosening', () => {
  it.each<[Parameters<typeof loosens>[0], string | number | undefined, string | number | undefined, boolean]>([
    ['maxBuyLamports', undefined, '5', false],
    ['maxBuyLamports', '5', '4', false],
    ['maxBuyLamports', '5', '5', false],
    ['maxBuyLamports', '5', '6', true],
    ['maxBuyLamports', '5', undefined, true],
    // A hand-edited value the tool cannot read (every run refuses it): replacing it is no loosening.
    ['maxBuyLamports', '-5', '500000000', false],
    ['maxBuyLamports', 'lots', '500000000', false],
    ['maxSlippageBps', 50, 51, true],
    ['maxTradesPerHour', 4, 3, false],
    ['allowedMints', undefined, 'A', false],
    ['allowedMints', 'A,B', 'A', false],
    ['allowedMints', 'A', 'A,B', true],
    ['allowedMints', 'A', undefined, true],
    ['deniedMints', undefined, 'A', false],
    ['deniedMints', 'A', 'A,B', false],
    ['deniedMints', 'A,B', 'B', true],
    ['deniedMints', 'A', undefined, true],
  ])('%s %j → %j loosens: %s', (key, before, after, expected) => {
    expect(loosens(key, before, after)).toBe(expected);
  });
});
