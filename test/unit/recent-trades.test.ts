// `trader trades` rows: buys from positions, sells from the ledger, newest first, cut at the limit.
import { describe, expect, it } from 'vitest';
import type { ActivityEntry, Position } from '../../src/api/types.js';
import { plainTheme } from '../../src/io/theme.js';
import { renderRecentTrades } from '../../src/views/trades-table.js';
import { recentTrades } from '../../src/portfolio/recent-trades.js';
import { listedSymbol } from '../../src/domain/token-binding.js';
import { activity, position } from './api-helpers.js';
import type { TradeHistory } from '../../src/journal/trade-history.js';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00Z`;
const buy = (id: string, minute: number, over: Partial<Position> = {}) =>
  ({ ...position, id: `pos-${id}`, buyTradeId: id, createdAt: at(minute), ...over }) as Position;
const sell = (minute: number, over: Partial<ActivityEntry> = {}) =>
  ({ ...activity, type: 'sell', createdAt: at(minute), ...over }) as ActivityEntry;

describe('recentTrades', () => {
  const positions = [
    buy('b1', 1),
    buy('b3', 3, { openedAt: null, status: 'pending_deposit', boughtAmount: null }),
    buy('none', 4, { buyTradeId: null }),
  ];
  const ledger = [
    sell(5, { amount: '7', solLamports: '9' }),
    sell(2),
    { ...activity, type: 'buy', createdAt: at(6) } as ActivityEntry,
  ];

  it('newest first; a position without a buy id and the ledger buys (the positions have them) are left out', () => {
    expect(recentTrades(positions, ledger, 10).map((t) => `${t.side}:${t.id}:${t.createdAt.slice(14, 16)}`)).toEqual([
      'sell:null:05',
      'buy:b3:03',
      'sell:null:02',
      'buy:b1:01',
    ]);
  });

  it('a buy is completed once its position opened, else it shows the position status; amounts as listed', () => {
    const [s5, b3, , b1] = recentTrades(positions, ledger, 10);
    // A buy's SOL is its swap's cost (as the ledger says a buy's), its deposit apart.
    expect(b1).toMatchObject({
      status: 'completed',
      amount: '1000',
      solLamports: '99000000',
      depositLamports: '100000000',
      positionId: 'pos-b1',
      signature: 'sig',
    });
    expect(b3).toMatchObject({ status: 'pending_deposit', amount: null });
    expect(s5).toMatchObject({ side: 'sell', id: null, amount: '7', solLamports: '9', positionId: null });
  });

  it('the limit: exactly that many, the newest', () => {
    expect(recentTrades(positions, ledger, 4)).toHaveLength(4);
    expect(recentTrades(positions, ledger, 3).map((t) => t.createdAt)).toEqual([at(5), at(3), at(2)]);
    expect(recentTrades(positions, ledger, 1).map((t) => t.createdAt)).toEqual([at(5)]);
  });
});

describe("recentTrades with this tool's journal", () => {
  const history = (over: Partial<TradeHistory>): TradeHistory => ({
    side: 'buy',
    trade: 't',
    service: 's',
    wallet: 'w',
    createdAtMs: Date.parse(at(0)),
    madeAtMs: Date.parse(at(0)),
    idempotencyKey: 'k',
    request: { mint: 'M', amount: '500', slippageBps: null },
    deposits: [],
    signedMinimumLamports: null,
    status: null,
    tradeId: null,
    evidence: [],
    signatures: [],
    ...over,
  });

  it("a listed buy gets the journal's key; a listed sell its sell_ id, matched by a transaction named for it; the rest as recorded; dry runs left out", () => {
    const own = [
      history({ trade: 'b1', idempotencyKey: 'kb1', status: 'completed' }),
      history({
        side: 'sell',
        trade: 'sell_A',
        idempotencyKey: 'ka',
        signatures: ['swapA', 'payA'],
        status: 'completed',
      }),
      history({
        side: 'sell',
        trade: 'sell_R',
        idempotencyKey: 'kr',
        createdAtMs: Date.parse(at(7)),
        status: 'refused',
      }),
      history({ side: 'sell', trade: 'sell_D', createdAtMs: Date.parse(at(8)), status: 'dry-run' }),
    ];
    const rows = recentTrades(
      [buy('b1', 1)],
      [sell(5, { signature: 'swapA' }), sell(2, { signature: 'other' })],
      10,
      own,
    );
    expect(rows.map((t) => [t.side, t.id, t.status, t.idempotencyKey, t.journal])).toEqual([
      ['sell', 'sell_R', 'refused', 'kr', true],
      ['sell', 'sell_A', 'completed', 'ka', true],
      ['sell', null, 'completed', null, false],
      ['buy', 'b1', 'completed', 'kb1', true],
    ]);
    expect(rows[0]).toMatchObject({
      mint: 'M',
      amount: '500',
      solLamports: null,
      createdAt: new Date(Date.parse(at(7))).toISOString(),
    });
  });
});

describe('renderRecentTrades', () => {
  it("a buy id's prefix tells it apart from every buy of the account, shown or not", () => {
    const rows = recentTrades([buy('abcdefgh-1111', 1)], [], 10);
    expect(renderRecentTrades(rows, plainTheme, { width: 80 }).split('\n')[1]).toMatch(/^abcdefgh… /);
    expect(
      renderRecentTrades(rows, plainTheme, { width: 80 }, ['abcdefgh-1111', 'abcdefgh-2222']).split('\n')[1],
    ).toMatch(/^abcdefgh-1… /);
  });

  it('sells show no id, and a line under the table says why; none when there is no sell', () => {
    const out = renderRecentTrades(recentTrades([buy('b1', 1)], [sell(2)], 10), plainTheme, { width: 80 });
    expect(out.split('\n')[1]).toMatch(/^—\s+sell\s+completed\s+X\s/);
    expect(out.split('\n').at(-1)).toBe('A sell made elsewhere shows no id: the service lists none.');
    expect(renderRecentTrades(recentTrades([buy('b1', 1)], [], 10), plainTheme, { width: 80 })).not.toContain(
      'shows no id',
    );
  });

  it('an amount without known decimals reads as raw units, never as a count of tokens with separators', () => {
    const rows = recentTrades([], [sell(2, { amount: '330000000000', decimals: null })], 10);
    const out = renderRecentTrades(rows, plainTheme, { width: 80 });
    expect(out.split('\n')[1]).toMatch(/\s330000000000 raw units\s/);
    expect(out).not.toContain('330,000');
    // With decimals (bound, or the service's), in the token's units.
    expect(
      renderRecentTrades(recentTrades([], [sell(2, { amount: '330000000000', decimals: 9 })], 10), plainTheme, {
        width: 80,
      }),
    ).toMatch(/\s330\s/);
  });

  it("a symbol bound to another mint is only a claim: the mint's short form, never the symbol alone", () => {
    const IMPOSTOR = '4kezffhjYn1FXi3oCeBqPiSwbioCnSyUH5hF3WwpATYt';
    const rows = recentTrades(
      [buy('b1', 1, { mint: IMPOSTOR, token: { symbol: 'WOOF', name: null, decimals: 5 } })],
      [],
      10,
    );
    const out = renderRecentTrades(
      rows.map((r) => ({ ...r, symbol: null, claims: 'WOOF' })),
      plainTheme,
      { width: 80 },
    ).split('\n');
    expect(out[1]).toMatch(/\s4kezffhj… \s*/);
    expect(out.join('\n')).toMatch(/4kezffhj…[\s\S]*\(claims WOOF\)/);
    expect(out.some((l) => /\sWOOF\s/.test(l))).toBe(false);
  });
});

describe('listedSymbol: the symbol a list shows for a mint', () => {
  const WOOF = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
  const OTHER = '4kezffhjYn1FXi3oCeBqPiSwbioCnSyUH5hF3WwpATYt';
  const pins = { [WOOF]: { symbol: 'WOOF', name: 'Woof', decimals: 5, by: 'accept-command' as const } };

  it("the bound symbol; the service's for an unbound mint; a symbol bound to another mint only as a claim (in any case)", () => {
    expect(listedSymbol(pins, WOOF, 'WOOF')).toEqual({ symbol: 'WOOF', claims: null });
    expect(listedSymbol(pins, OTHER, 'MOON')).toEqual({ symbol: 'MOON', claims: null });
    expect(listedSymbol(pins, OTHER, 'WOOF')).toEqual({ symbol: null, claims: 'WOOF' });
    expect(listedSymbol(pins, OTHER, 'woof')).toEqual({ symbol: null, claims: 'woof' });
    expect(listedSymbol(pins, OTHER, null)).toEqual({ symbol: null, claims: null });
    // A pin that binds nothing (an earlier version's, no `by`) makes no claim of another mint an impostor.
    expect(listedSymbol({ [WOOF]: { symbol: 'WOOF', name: null, decimals: 5 } }, OTHER, 'WOOF')).toEqual({
      symbol: 'WOOF',
      claims: null,
    });
  });
});
