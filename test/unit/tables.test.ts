// Tables fit the terminal (60, 80 and 120 columns here) with long values: no line wider than
// the terminal, no status, amount or value cut; lower-value columns go first; --wide shows all.
import { describe, expect, it } from 'vitest';
import type { ActivityEntry, Holding, Position } from '../../src/api/types.js';
import { plainTheme } from '../../src/io/theme.js';
import { renderTable, shortId, uniquePrefixes, visibleLength } from '../../src/io/table.js';
import { renderActivity } from '../../src/io/views/activity.js';
import { renderHoldings } from '../../src/io/views/holdings.js';
import { renderPositions } from '../../src/io/views/positions.js';
import { activity, holding, position } from './api-helpers.js';

const widest = (text: string) => Math.max(...text.split('\n').map(visibleLength));
const MINT = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';

// Long values: a large amount with many decimals, big SOL legs, a long status, a token without a symbol.
const entries: ActivityEntry[] = [
  { ...activity, amount: '123456789012345678901', decimals: 9, solLamports: '987654321987654321', usdValue: 148148148148.15, status: 'requires_review', symbol: 'WOOFWOOFWO' },
  { ...activity, id: 'a-2', type: 'deposit', amount: null, solLamports: '1000000000', usdValue: null, status: 'confirmed', symbol: null, mint: MINT },
] as ActivityEntry[];
const positions: Position[] = [
  { ...position, id: '3f0c2a9e-1b2c-4d5e-8f90-0123456789ab', status: 'refund_pending', remainingAmount: '123456789012345678901', costLamports: '987654321987654321', token: { symbol: null, name: null, decimals: 9 }, mint: MINT },
  { ...position, id: '3f0c2a9e-ffff-4d5e-8f90-0123456789ab', status: 'open', remainingAmount: '5', costLamports: '1' },
] as Position[];
const holdings: Holding[] = [
  { ...holding, name: 'A Token With A Very Long Name Indeed', amount: '123456789012345678901', decimals: 9, usdPrice: 0.00001234, usdValue: 1523456789.12, sellInProgress: true },
  { ...holding, mint: MINT, symbol: null, name: null },
] as Holding[];

const mustShow = {
  activity: ['requires_review', 'confirmed', '123,456,789,012.345678901', '987,654,321.987654321'],
  positions: ['refund_pending', 'open', '123,456,789,012.345678901'],
  holdings: ['123,456,789,012.345678901', '$1,523,456,789.12', '0.001'],
};

describe.each([60, 80, 120])('at %i columns', (width) => {
  it('activity: within the width, statuses and amounts whole', () => {
    const out = renderActivity(entries, plainTheme, { width });
    expect(widest(out), out).toBeLessThanOrEqual(width);
    for (const text of mustShow.activity) expect(out).toContain(text);
    expect(out).not.toMatch(/requires_…|confirm…|complet…/);
  });

  it('positions: within the width, statuses and amounts whole, ids typeable', () => {
    const out = renderPositions(positions, plainTheme, { width });
    expect(widest(out), out).toBeLessThanOrEqual(width);
    for (const text of mustShow.positions) expect(out).toContain(text);
    // Two ids that share 8 characters show as long as they must to differ.
    expect(out).toContain('3f0c2a9e-1…');
    expect(out).toContain('3f0c2a9e-f…');
  });

  it('holdings: within the width, amounts and values whole', () => {
    const out = renderHoldings(holdings, plainTheme, { width });
    expect(widest(out), out).toBeLessThanOrEqual(width);
    for (const text of mustShow.holdings) expect(out).toContain(text);
    expect(out).toContain('GFmFPoog…'); // a token without a symbol: a mint prefix buy and sell accept
  });
});

describe('what goes first to fit', () => {
  it('first the time loses its year, then the USD column goes, then the time', () => {
    const at = (width: number) => renderActivity(entries, plainTheme, { width });
    expect(at(140)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d  buy/m);
    expect(at(120).split('\n')[0]).toMatch(/^Time\s+Type\s+Status\s+Token\s+Amount\s+SOL\s+USD$/);
    expect(at(120)).toMatch(/^\d\d-\d\d \d\d:\d\d  buy/m);
    expect(at(100).split('\n')[0]).toMatch(/^Time\s+Type\s+Status\s+Token\s+Amount\s+SOL$/);
    expect(at(90).split('\n')[0]).toMatch(/^Type\s+Status\s+Token\s+Amount\s+SOL$/);
    // Narrower still, rows become blocks of lines (nothing cut).
    expect(at(80)).toMatch(/^Status  requires_review$/m);
  });

  it('--wide shows every column in full, whatever the width: whole ids and mints', () => {
    const out = renderPositions(positions, plainTheme, { width: 60, wide: true });
    expect(out.split('\n')[0]).toMatch(/^ID\s+Status\s+Token\s+Remaining\s+Cost SOL\s+Opened$/);
    expect(out).toContain(positions[0]!.id);
    expect(out).toContain(MINT);
    expect(renderActivity(entries, plainTheme, { width: 60, wide: true }).split('\n')[0]).toContain('USD');
  });

  it('when even the essential columns cannot fit, each row becomes a block of lines, nothing cut', () => {
    const out = renderTable(
      [{ header: 'Status' }, { header: 'Amount', align: 'right' }, { header: 'Value', align: 'right' }],
      [['requires_review', '123,456,789,012,345,678,901.123456789', '$1,523,456,789.12']],
      40,
    );
    expect(out).toBe('Status  requires_review\nAmount  123,456,789,012,345,678,901.123456789\nValue   $1,523,456,789.12');
  });

  it('shrinkable text is shortened only as much as needed', () => {
    const out = renderTable([{ header: 'Name', shrinkTo: 4 }, { header: 'Amount', align: 'right' }], [['A very long name', '1,234']], 17);
    expect(out.split('\n')[1]).toBe('A very l…   1,234');
  });
});

describe('uniquePrefixes', () => {
  it('at least 8 characters, longer where ids share more, the whole id when nothing shorter tells them apart', () => {
    const shown = uniquePrefixes(['abcdef0123', 'abcdef0199', '12345678xyz', 'short']);
    expect(shown.get('abcdef0123')).toBe('abcdef012…');
    expect(shown.get('abcdef0199')).toBe('abcdef019…');
    expect(shown.get('12345678xyz')).toBe('12345678…');
    expect(shown.get('short')).toBe('short');
  });
});

describe('shortId', () => {
  it('the start of the id, typeable back as a prefix, at least 8 characters', () => {
    expect(shortId('GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd', 4)).toBe('GFmFPoog…');
    expect(shortId('GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd', 6)).toBe('GFmFPooguQpN…');
    expect(shortId('short123')).toBe('short123');
  });
});
