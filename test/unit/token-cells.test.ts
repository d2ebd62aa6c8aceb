// A table's Token column: a symbol stands for its token only where it tells it apart (attack-log-2 H:
// a token named SOL read as SOL, two WOOF mints as two identical WOOF rows).
import { describe, expect, it } from 'vitest';
import type { Holding } from '../../src/api/types.js';
import { plainTheme } from '../../src/io/theme.js';
import { renderHoldings } from '../../src/views/holdings-table.js';
import { tokenCells } from '../../src/views/token-cell.js';

const WOOF = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
const FAKE = 'FkD9N7noZTJVUa3vV4nTrNcftCW8UPHtDPgceYqmmJkS';
const WSOL = 'So11111111111111111111111111111111111111112';

const cells = (rows: Parameters<typeof tokenCells>[0]) => tokenCells(rows).map((c) => c.cell);

describe('tokenCells', () => {
  it('a symbol only one mint has stands for it, on every row of that mint', () => {
    expect(
      cells([
        { symbol: 'WOOF', mint: WOOF },
        { symbol: 'WOOF', mint: WOOF },
        { symbol: 'SGLD', mint: FAKE },
      ]),
    ).toEqual(['WOOF', 'WOOF', 'SGLD']);
  });

  it('two mints with one symbol (look-alikes folded): each shows its mint, the symbol as a claim', () => {
    expect(
      cells([
        { symbol: 'WOOF', mint: WOOF },
        { symbol: 'ＷOOF', mint: FAKE },
      ]),
    ).toEqual(['GFmFPoog… (claims WOOF)', 'FkD9N7no… (claims ＷOOF)']);
    const wide = tokenCells(
      [
        { symbol: 'WOOF', mint: WOOF },
        { symbol: 'woof', mint: FAKE },
      ],
      true,
    );
    expect(wide[0]).toEqual({ cell: `${WOOF} (claims WOOF)`, symbol: 'WOOF' });
  });

  it('two claimed mints that share their first characters get prefixes long enough to tell them apart', () => {
    const twin = `${WOOF.slice(0, 10)}${FAKE.slice(10)}`;
    expect(
      cells([
        { symbol: 'WOOF', mint: WOOF },
        { symbol: 'WOOF', mint: twin },
      ]),
    ).toEqual([`${WOOF.slice(0, 11)}… (claims WOOF)`, `${twin.slice(0, 11)}… (claims WOOF)`]);
  });

  it('SOL names only wrapped SOL: any other mint calling itself SOL (or a look-alike) is a claim', () => {
    expect(cells([{ symbol: 'SOL', mint: FAKE }])).toEqual(['FkD9N7no… (claims SOL)']);
    expect(cells([{ symbol: 'sol', mint: FAKE }])).toEqual(['FkD9N7no… (claims sol)']);
    expect(cells([{ symbol: 'ＳＯＬ', mint: FAKE }])).toEqual(['FkD9N7no… (claims ＳＯＬ)']); // fullwidth
    expect(cells([{ symbol: 'SOL', mint: WSOL }])).toEqual(['SOL']);
    expect(cells([{ symbol: 'SOLX', mint: FAKE }])).toEqual(['SOLX']);
  });

  it("a symbol that passes for something else is a claim even alone (attack-log-3 F1, F2): another script's look-alike letters, the tool's own notation, what cannot be seen, a mint-like run; CJK and emoji stand", () => {
    const alone = (symbol: string) => cells([{ symbol, mint: FAKE }])[0];
    for (const symbol of [
      'WООF', // Cyrillic О
      'WΟOF', // Greek Ο
      'ŁOOF',
      '𝐖𝐎𝐎𝐅', // math bold
      'WOOF٣', // Arabic-Indic digit
      'F9EMmE5i…',
      'WOOF (claims SGLD)',
      'WOOF\u200B',
      'WO\u0332OF',
      'W OOF',
      '⟦WOOF⟧',
      'GFmFPoog', // 8 base58 characters: a mint's prefix
      'So11111111',
      'ⓌⓄⓄⒻ', // circled: NFKC makes it WOOF
      '🅆🄾🄾🄵',
      'F9EMmE5i...',
      'F9EMmE5i.',
      'ᗯOOF', // Canadian syllabics
      'WㅇㅇF', // Hangul jamo
      '∪SDC',
      'S0L', // reads as SOL
      'wSOL',
    ])
      expect(alone(symbol), symbol).toBe(`FkD9N7no… (claims ${symbol.replace('\u200B', '<U+200B>')})`);
    for (const symbol of ['WOOF', '$WIF', 'USDC.e', 'GFmFPoo', 'BONK2', '月光', '🐶', '도지', 'ねこ'])
      expect(alone(symbol)).toBe(symbol);
  });

  it("beside another in one table, W00F, VVOOF and W1F read as WOOF and WIF: each a claim; Total is the table's own word (attack-log-4 R4-5)", () => {
    for (const lookAlike of ['W00F', 'VVOOF', 'WO0F'])
      expect(
        cells([
          { symbol: 'WOOF', mint: WOOF },
          { symbol: lookAlike, mint: FAKE },
        ]),
      ).toEqual(['GFmFPoog… (claims WOOF)', `FkD9N7no… (claims ${lookAlike})`]);
    expect(cells([{ symbol: 'W00F', mint: FAKE }])).toEqual(['W00F']); // alone it tells nothing apart
    expect(cells([{ symbol: 'Total', mint: FAKE }])).toEqual(['FkD9N7no… (claims Total)']);
  });

  it('a symbol of 5 or more characters that starts a mint in the table reads as that mint: a claim (attack-log-4 R4-5)', () => {
    expect(
      cells([
        { symbol: 'WOOF', mint: WOOF },
        { symbol: WOOF.slice(0, 7), mint: FAKE },
        { symbol: WOOF.slice(0, 4), mint: WSOL },
      ]),
    ).toEqual(['WOOF', `FkD9N7no… (claims ${WOOF.slice(0, 7)})`, WOOF.slice(0, 4)]);
  });

  it('a symbol bound to its mint stands when another mint only claims it (attack-log-3 F7): the claim does not take it away', () => {
    expect(
      cells([
        { symbol: 'WOOF', mint: WOOF },
        { symbol: null, claims: 'WOOF', mint: FAKE },
      ]),
    ).toEqual(['WOOF', 'FkD9N7no… (claims WOOF)']);
  });

  it('a claim (a symbol bound to another mint) stays a claim; no symbol is the mint; no mint is the symbol or —', () => {
    expect(cells([{ symbol: null, claims: 'WOOF', mint: FAKE }])).toEqual(['FkD9N7no… (claims WOOF)']);
    expect(cells([{ symbol: null, mint: FAKE }])).toEqual(['FkD9N7no…']);
    expect(tokenCells([{ symbol: null, mint: FAKE }])[0]!.symbol).toBeNull();
    expect(
      cells([
        { symbol: 'WOOF', mint: null },
        { symbol: null, mint: null },
      ]),
    ).toEqual(['WOOF', '—']);
  });
});

describe('renderHoldings with tokens that do not tell themselves apart', () => {
  const holding = (mint: string, symbol: string, usdValue: number): Holding => ({
    mint,
    name: 'Dog',
    symbol,
    decimals: 5,
    amount: '100000',
    balance: '1',
    usdPrice: usdValue,
    usdValue,
    imageUrl: '',
    positionIds: [],
    sellInProgress: false,
  });

  it('two WOOF mints are two rows told apart by their mints; a SOL-named token is not shown as SOL', () => {
    const out = renderHoldings(
      [
        holding(WOOF, 'WOOF', 2),
        holding(FAKE, 'WOOF', 1),
        holding('7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', 'SOL', 3),
      ],
      plainTheme,
      { width: 80, wide: true },
    );
    expect(out).toContain(`${WOOF} (claims WOOF)`);
    expect(out).toContain(`${FAKE} (claims WOOF)`);
    expect(out).toContain('7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU (claims SOL)');
    expect(out).not.toMatch(/^WOOF\b/m);
    expect(out).not.toMatch(/^SOL\b/m);
  });
});
