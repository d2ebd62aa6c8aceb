// Tables fit the terminal (60, 80 and 120 columns here) with long values: no line wider than
// the terminal, no status, amount or value cut; lower-value columns go first; --wide shows all.
import { describe, expect, it } from 'vitest';
import type { ActivityEntry, Holding, Position } from '../../src/api/types.js';
import { plainTheme } from '../../src/io/theme.js';
import { renderFields, renderTable, shortId, uniquePrefixes, visibleLength, wrapCell } from '../../src/io/table.js';
import { displayWidth, sliceToWidth } from '../../src/io/display-width.js';
import { renderActivity } from '../../src/views/activity-table.js';
import { renderHoldings } from '../../src/views/holdings-table.js';
import { renderPositions } from '../../src/views/positions-table.js';
import { activity, holding, position } from './api-helpers.js';

const widest = (text: string) => Math.max(...text.split('\n').map(visibleLength));
const MINT = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';

// Long values: a large amount with many decimals, big SOL legs, a long status, a token without a symbol.
const entries: ActivityEntry[] = [
  {
    ...activity,
    amount: '123456789012345678901',
    decimals: 9,
    solLamports: '987654321987654321',
    usdValue: 148148148148.15,
    status: 'requires_review',
    symbol: 'WOOFWOOFWO',
  },
  {
    ...activity,
    id: 'a-2',
    type: 'deposit',
    amount: null,
    solLamports: '1000000000',
    usdValue: null,
    status: 'confirmed',
    symbol: null,
    mint: MINT,
  },
] as ActivityEntry[];
const positions: Position[] = [
  {
    ...position,
    id: '3f0c2a9e-1b2c-4d5e-8f90-0123456789ab',
    status: 'refund_pending',
    remainingAmount: '123456789012345678901',
    costLamports: '987654321987654321',
    token: { symbol: null, name: null, decimals: 9 },
    mint: MINT,
  },
  { ...position, id: '3f0c2a9e-ffff-4d5e-8f90-0123456789ab', status: 'open', remainingAmount: '5', costLamports: '1' },
] as Position[];
const holdings: Holding[] = [
  {
    ...holding,
    name: 'A Token With A Very Long Name Indeed',
    amount: '123456789012345678901',
    decimals: 9,
    usdPrice: 0.00001234,
    usdValue: 1523456789.12,
    sellInProgress: true,
  },
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
    expect(at(140)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d {2}buy/m);
    expect(at(120).split('\n')[0]).toMatch(/^Time \(UTC\)\s+Type\s+Status\s+Token\s+Amount\s+SOL\s+USD$/);
    expect(at(120)).toMatch(/^\d\d-\d\d \d\d:\d\d {2}buy/m);
    expect(at(100).split('\n')[0]).toMatch(/^Time \(UTC\)\s+Type\s+Status\s+Token\s+Amount\s+SOL$/);
    expect(at(90).split('\n')[0]).toMatch(/^Type\s+Status\s+Token\s+Amount\s+SOL$/);
    // Narrower still, rows become blocks of lines (nothing cut).
    expect(at(80)).toMatch(/^Status {6}requires_review$/m);
  });

  it('--wide shows every column in full, whatever the width: whole ids and mints', () => {
    const out = renderPositions(positions, plainTheme, { width: 60, wide: true });
    expect(out.split('\n')[0]).toMatch(/^ID\s+Status\s+Token\s+Remaining\s+Cost SOL\s+Opened \(UTC\)$/);
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
    // Laid out to the table's width: the amount too wide for its label's column stands whole on a line of its own.
    expect(out).toBe(
      'Status  requires_review\nAmount\n123,456,789,012,345,678,901.123456789\nValue   $1,523,456,789.12',
    );
  });

  it('wrappable text wraps at spaces only as much as needed, never cut', () => {
    const cols = [
      { header: 'Name', shrinkTo: 4 },
      { header: 'Amount', align: 'right' as const },
    ];
    const rows = [['A very long name', '1,234']];
    // natural: 16 + 2 + 6
    expect(renderTable(cols, rows, 24).split('\n')[1]).toBe('A very long name   1,234');
    expect(renderTable(cols, rows, 23).split('\n')).toEqual(['Name         Amount', 'A very long   1,234', 'name']);
  });
});

describe('the wrap rule: wrapped, never cut, a value never split', () => {
  const ADDRESS = '8ZpBrZDvXNXKQBauewuJxYvuRmNLteoAWeyE8oKYiQR5';
  const cols = [{ header: 'WHAT' }, { header: 'CHAIN SHOWS', shrinkTo: 20 }, { header: 'MARK' }];
  const text = `the swap delivers 74242649977 raw units to token account of ${ADDRESS}`;
  const rows = [['swap', text, 'verified']];
  // 4 + 2 + the text + 2 + 8: the natural width of the table.
  const natural = 4 + 2 + displayWidth(text) + 2 + 8;

  it('at its natural width every cell is on one line; one column less, the text wraps at a space', () => {
    expect(renderTable(cols, rows, natural).split('\n')[1]).toBe(`swap  ${text}  verified`);
    const narrower = renderTable(cols, rows, natural - 1).split('\n');
    expect(narrower).toHaveLength(3);
    expect(narrower.map((l) => l.trim().split(/\s+/).at(-1))).toEqual(['MARK', 'verified', ADDRESS]);
  });

  it.each([80, 81, 79])('at %i columns: every line fits, every word and the address whole, no ellipsis', (width) => {
    const out = renderTable(cols, rows, width);
    expect(widest(out)).toBeLessThanOrEqual(width);
    expect(out).not.toContain('…');
    expect(out.split('\n').filter((l) => l.includes(ADDRESS))).toHaveLength(1);
    const words = out.split('\n').slice(1).join(' ').split(/\s+/);
    for (const word of text.split(' ')) expect(words).toContain(word);
  });

  it('a column never narrows below its widest value: when the values cannot fit, each row is a block of lines', () => {
    const cells = [['swap', `to ${ADDRESS}`, 'verified']];
    expect(renderTable(cols, cells, 4 + 2 + 47 + 2 + 8).split('\n')[1]).toBe(`swap  to ${ADDRESS}  verified`);
    expect(
      renderTable(cols, cells, 4 + 2 + 44 + 2 + 8)
        .split('\n')
        .slice(1),
    ).toEqual(['swap  to                                            verified', `      ${ADDRESS}`]);
    // One column less and the address would have to break: blocks of lines, laid out to the width.
    const out = renderTable(cols, cells, 4 + 2 + 44 + 2 + 8 - 1);
    expect(out).toBe(`WHAT         swap\nCHAIN SHOWS  to\n             ${ADDRESS}\nMARK         verified`);
  });

  it('--wide: each cell whole on one line, whatever the width', () => {
    expect(renderTable(cols, rows, { width: 40, wide: true }).split('\n')[1]).toBe(`swap  ${text}  verified`);
  });

  it('a cell in one colour keeps it on each of its lines', () => {
    const green = (t: string) => `\u001b[32m${t}\u001b[39m`;
    expect(wrapCell(green('may still land'), 9)).toBe(`${green('may still')}\n${green('land')}`);
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

// Wide characters: a CJK name and an emoji symbol take two columns each on screen; every column
// after them must still start (left-aligned) or end (right-aligned) at the same screen column.
describe('display widths: CJK and emoji keep the columns aligned', () => {
  /** Screen column where `text` starts in `line`, counted in display width. */
  const startOf = (line: string, text: string) => {
    const at = line.indexOf(text);
    expect(at, `${JSON.stringify(text)} in ${JSON.stringify(line)}`).toBeGreaterThanOrEqual(0);
    return displayWidth(line.slice(0, at));
  };
  const wideHoldings: Holding[] = [
    { ...holding, symbol: '月光', name: '月光币', amount: '1500000', decimals: 6, usdPrice: 2, usdValue: 3 },
    { ...holding, mint: MINT, symbol: '🐶', name: 'Dog 🐶 coin', amount: '25', decimals: 0, usdPrice: 1, usdValue: 25 },
    { ...holding, mint: 'MintY', symbol: 'PLAIN', name: 'Plain', amount: '7', decimals: 0, usdPrice: 1, usdValue: 7 },
  ] as Holding[];

  it('the measure: wide characters and emoji 2, combining marks 0, colour codes nothing', () => {
    expect(displayWidth('月光币')).toBe(6);
    expect(displayWidth('🐶')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('\u001b[32mok\u001b[39m')).toBe(2);
    expect(displayWidth('abc')).toBe(3);
  });

  it('shortening never splits a wide character or an emoji', () => {
    expect(sliceToWidth('月光币', 3)).toBe('月');
    expect(sliceToWidth('月光币', 4)).toBe('月光');
    expect(sliceToWidth('🐶🐶🐶', 5)).toBe('🐶🐶');
    expect(sliceToWidth('e\u0301e\u0301', 1)).toBe('e\u0301');
  });

  it.each([120, 80, 60])(
    'holdings at %i columns: each column starts or ends at one screen column on every line',
    (width) => {
      const lines = renderHoldings(wideHoldings, plainTheme, { width }).split('\n').slice(0, 4); // header and rows, not the total
      for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
      const [header, ...rows] = lines as [string, ...string[]];
      // Left-aligned Share starts where its header does; right-aligned Amount and Value end where theirs do.
      const amountEnd = startOf(header, 'Amount') + displayWidth('Amount');
      const valueEnd = startOf(header, 'Value') + displayWidth('Value');
      const amounts = ['1.5', '25', '7'];
      const values = ['$3.00', '$25.00', '$7.00'];
      rows.forEach((row, i) => {
        const sorted = [1, 2, 0][i]!; // largest value first
        expect(startOf(row, amounts[sorted]!) + displayWidth(amounts[sorted]!), row).toBe(amountEnd);
        expect(startOf(row, values[sorted]!) + displayWidth(values[sorted]!), row).toBe(valueEnd);
      });
    },
  );

  it('activity with a CJK symbol: Status starts, Amount and USD end at one screen column on every row', () => {
    const wide = [
      { ...activity, symbol: '月光币', amount: '1234500000', decimals: 6, usdValue: 1 },
      { ...activity, symbol: '🐶', amount: '2000000', decimals: 6, usdValue: 22 },
      { ...activity, symbol: 'ABC', amount: '3000000', decimals: 6, usdValue: 333 },
    ] as ActivityEntry[];
    const lines = renderActivity(wide, plainTheme, { width: 80 }).split('\n');
    const [header, ...rows] = lines as [string, ...string[]];
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    const end = (line: string, text: string) => startOf(line, text) + displayWidth(text);
    const amounts = ['1,234.5', '2', '3'];
    const usd = ['$1.00', '$22.00', '$333.00'];
    rows.forEach((row, i) => {
      expect(end(row, ` ${amounts[i]!} `)).toBe(end(header, 'Amount') + 1);
      expect(end(row, usd[i]!)).toBe(end(header, 'USD'));
      expect(startOf(row, 'completed')).toBe(startOf(header, 'Status'));
    });
  });

  it('narrow: when a wide name leaves no room, each row becomes a block, labels aligned, nothing cut', () => {
    const out = renderTable(
      [{ header: 'Token' }, { header: 'Amount', align: 'right' }],
      [
        ['月光币月光币', '123,456,789.123456'],
        ['🐶', '1'],
      ],
      20,
    );
    expect(out).toBe('Token   月光币月光币\nAmount\n123,456,789.123456\n\nToken   🐶\nAmount  1');
  });

  it('at the natural width a wide name is whole; one column less, it is never cut inside: the row becomes a block', () => {
    const cols = [
      { header: 'Name', shrinkTo: 2 },
      { header: 'N', align: 'right' as const },
    ];
    const rows = [['月光币', '1']];
    // natural: 6 + 2 + 1 = 9
    expect(renderTable(cols, rows, 9).split('\n')[1]).toBe('月光币  1');
    expect(renderTable(cols, rows, 8)).toBe('Name\n月光币\nN     1');
  });

  it('key–value fields align values after a wide label', () => {
    const out = renderFields([
      ['名前', 'a'],
      ['Mint', 'b'],
    ]);
    expect(out.split('\n').map((l) => startOf(l, l.trim().slice(-1)))).toEqual([6, 6]);
  });
});

describe('--wide never cuts', () => {
  it('a cell with spaces wider than its column’s maxWidth is whole on one line, not cut to its widest word', () => {
    const cell = `${'G'.repeat(44)} (claims WOOF)`;
    const out = renderTable(
      [
        { header: 'Token', maxWidth: 13 },
        { header: 'Name', maxWidth: 16 },
      ],
      [[cell, 'a name of many words here']],
      {
        width: 80,
        wide: true,
      },
    );
    expect(out.split('\n')[1]).toBe(`${cell}  a name of many words here`);
    expect(out).not.toContain('…');
  });
});
