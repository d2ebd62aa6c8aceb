// The human pnl view and the share bars: unknown figures say so, totals that leave something
// out are starred, bars are drawn to the eighth of a cell.
import { describe, expect, it } from 'vitest';
import type { PnlReport, TokenPnl } from '../../src/portfolio/pnl-reckoning.js';
import { shareBar } from '../../src/views/share-bar.js';
import { plainTheme, type Theme } from '../../src/io/theme.js';
import { renderPnl } from '../../src/views/pnl-table.js';

const token = (over: Partial<TokenPnl>): TokenPnl => ({
  mint: 'MintAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  symbol: 'AAA',
  name: 'A',
  decimals: 2,
  amount: 12345n,
  costBasisLamports: 100_000_000n,
  costBasisCents: 1500n,
  valueCents: 2000n,
  shareHundredths: 10_000n,
  unrealizedCents: 500n,
  unrealizedHundredths: 3333n,
  soldAmount: 0n,
  proceedsLamports: 0n,
  proceedsCents: 0n,
  realizedLamports: 0n,
  realizedCents: 0n,
  feesLamports: 1_000_000n,
  notes: [],
  ...over,
});

const report = (tokens: TokenPnl[], incomplete: PnlReport['total']['incomplete'] = []): PnlReport => ({
  method: 'average-cost',
  asOf: 0,
  since: null,
  tokens,
  total: {
    costBasisLamports: tokens.reduce((s, t) => s + (t.costBasisLamports ?? 0n), 0n),
    costBasisCents: tokens.reduce((s, t) => s + (t.costBasisCents ?? 0n), 0n),
    valueCents: tokens.reduce((s, t) => s + (t.valueCents ?? 0n), 0n),
    unrealizedCents: tokens.reduce((s, t) => s + (t.unrealizedCents ?? 0n), 0n),
    unrealizedHundredths: null,
    proceedsLamports: 0n,
    proceedsCents: 0n,
    realizedLamports: tokens.reduce((s, t) => s + (t.realizedLamports ?? 0n), 0n),
    realizedCents: tokens.reduce((s, t) => s + (t.realizedCents ?? 0n), 0n),
    feesLamports: tokens.reduce((s, t) => s + (t.feesLamports ?? 0n), 0n),
    incomplete,
  },
});

describe('shareBar', () => {
  it.each([
    [10_000n, '████████ 100%'],
    [4_200n, '███▍     42%'],
    [5_000n, '████     50%'],
    [30n, '         <1%'],
    [0n, '          0%'],
  ])('%s hundredths → %j', (share, bar) => expect(shareBar(share)).toBe(bar));
  it('unknown share: no bar', () => expect(shareBar(null)).toBe(''));
});

describe('renderPnl', () => {
  it('unknown figures read "unknown", incomplete totals are starred, notes are shown', () => {
    const priced = token({ realizedCents: -250n, soldAmount: 5n, realizedLamports: -1n });
    const unpriced = token({
      mint: 'MintBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
      symbol: 'BBB',
      valueCents: null,
      shareHundredths: null,
      unrealizedCents: null,
      unrealizedHundredths: null,
      notes: ['the service gives no USD price for this token: its value now is unknown'],
    });
    const text = renderPnl(report([priced, unpriced], ['valueCents', 'unrealizedCents']), plainTheme);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^Token\s+Held\s+Cost\s+Value\s+Unrealized\s+Realized\s+Share$/);
    expect(lines[1]).toMatch(/^AAA\s+123\.45\s+\$15\.00\s+\$20\.00\s+\+\$5\.00 \+33\.3%\s+-\$2\.50\s+█+/);
    expect(lines[2]).toMatch(/^BBB\s+123\.45\s+\$15\.00\s+unknown\s+unknown\s+—$/);
    expect(lines[3]).toMatch(/^Total\s+\$30\.00\s+\$20\.00\*\s+\+\$5\.00\*\s+-\$2\.50$/);
    expect(text).toContain('* Totals leave out what is unknown');
    expect(text).toContain('BBB: the service gives no USD price for this token');
    expect(text).toContain('In SOL: cost 0.2, fees paid 0.002, realized -0.000000001.');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('colours gains and losses through the theme', () => {
    const marks: Theme = { ...plainTheme, success: (t) => `<g>${t}</g>`, failure: (t) => `<r>${t}</r>` };
    const text = renderPnl(report([token({ realizedCents: -250n, soldAmount: 5n })]), marks);
    expect(text).toContain('<g>+$5.00</g> <g>+33.3%</g>');
    expect(text).toContain('<r>-$2.50</r>');
  });

  it('nothing to report says so in one line', () => {
    expect(renderPnl(report([]), plainTheme)).toBe('No holdings, buys or sells yet.');
    expect(renderPnl(report([]), plainTheme, 'MOON')).toBe('No holdings, buys or sells of MOON yet.');
  });
});
