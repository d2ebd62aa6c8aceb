// A unit word next to a figure says what the figure counts: one that contradicts the slot's unit
// is refused before any person is asked (attack-log-2 A), and a token whose symbol or name reads
// as a unit word never becomes a slot (attack-log-2 B).
import { describe, expect, it } from 'vitest';
import { judgeSell, type Verdict } from '../../src/wallet/sell-template/guard.js';
import type { Template } from '../../src/wallet/sell-template/template.js';
import { unitWordToken, UNIT_WORDS } from '../../src/wallet/sell-template/unit-words.js';
import { figureLegend, markedMessage } from '../../src/views/wording.js';
import { markedValue } from '../../src/io/terminal-text.js';
import { dec, input, sandbox, T1, type Trade } from './sell-template-fixtures.js';

const judge = (t: Trade, message: string, approved: Template | null = null) => judgeSell(input(t, message, approved));
const reasons = (v: Verdict) => (v.kind === 'refused' ? v.reasons.join('\n') : `not refused: ${v.kind}`);
/** T1's sandbox wording with one line rewritten, as the red team's proxy did. */
const rewritten = (t: Trade, from: RegExp, to: string) =>
  sandbox(t)
    .split('\n')
    .map((l) => l.replace(from, to))
    .join('\n');
const SGLD: Trade = { ...T1, symbol: 'SGLD', name: 'Sandbox Gold', decimals: 6, amount: 1_000_000n };

describe('a unit word after a figure that contradicts its slot: refused outright', () => {
  it('A2: the raw amount before the symbol ("Amount: 123450000 BONK") is refused, first time and under an approval', () => {
    const m = rewritten(T1, /^Amount: (\S+) (\S+) \((\d+) raw units\)$/, `Amount: ${T1.amount} ${T1.symbol}`);
    expect(m).toContain('Amount: 123450000 BONK\n');
    expect(reasons(judge(T1, m))).toBe(
      '"123450000" is the amount in raw units, but ⟦the symbol⟧ after it says another unit: the message would misstate the figure',
    );
  });

  it('A2: a SOL figure followed by "lamports", and a lamports figure followed by "SOL", are refused', () => {
    const sol = rewritten(T1, /^Minimum proceeds: (\S+) SOL \((\d+) lamports\)$/, `Minimum proceeds: $1 lamports`);
    expect(reasons(judge(T1, sol))).toBe(
      '"0.0495" is the minimum in SOL, but "lamports" after it says another unit: the message would misstate the figure',
    );
    const lam = rewritten(T1, /^Minimum proceeds: (\S+) SOL \((\d+) lamports\)$/, `Minimum proceeds: $2 SOL`);
    expect(reasons(judge(T1, lam))).toMatch(/"49500000" is the minimum in lamports, but "SOL" after it/);
  });

  it('each unit word, case folded, against each figure: bps/percent, tokens/units, SOL/lamports after the amount', () => {
    const line = (tail: string) => `${sandbox(T1)}\nSlippage: ${tail}`;
    expect(judge(T1, line('100 bps')).kind).toBe('person');
    expect(judge(T1, line('1 percent')).kind).toBe('person');
    expect(judge(T1, line('1%')).kind).toBe('person');
    expect(reasons(judge(T1, line('100 PERCENT')))).toMatch(/"100" is the slippage in bps, but "PERCENT"/);
    expect(reasons(judge(T1, line('1 bps')))).toMatch(/"1" is the slippage in percent, but "bps"/);
    const amount = (tail: string) => `Sell ${tail} of ${T1.mint}\nMinimum proceeds: ${dec(T1.minimum, 9)} SOL`;
    expect(judge(T1, amount(`${T1.amount} raw units`)).kind).toBe('person');
    expect(judge(T1, amount('1234.5 tokens')).kind).toBe('person');
    expect(reasons(judge(T1, amount(`${T1.amount} Tokens`)))).toMatch(/but "Tokens" after it/);
    expect(reasons(judge(T1, amount('1234.5 units')))).toMatch(/but "units" after it/);
    expect(reasons(judge(T1, amount('1234.5 sol')))).toMatch(/but "sol" after it/);
    expect(reasons(judge(T1, amount('1234.5 lamport')))).toMatch(/but "lamport" after it/);
    // A word that is no unit says nothing of the figure; two spaces part it from the figure.
    expect(judge(T1, amount('1234.5 whole tokens')).kind).toBe('person');
  });

  it('an approved template written before this check (a SOL minimum beside the symbol slot) is never signed', () => {
    const honest = judge(T1, sandbox(T1)) as Extract<Verdict, { kind: 'person' }>;
    const parts = honest.template!.parts.map((p) => (p === ' SOL (' ? ' ' : p));
    const i = parts.indexOf(' ');
    const lied: Template = {
      parts: [...parts.slice(0, i + 1), { fact: 'symbol', notations: ['exact'] }, ' (', ...parts.slice(i + 1)],
    };
    const m = sandbox(T1).replace(' SOL (', ' BONK (');
    expect(reasons(judge(T1, m, lied))).toMatch(/"0\.0495" is the minimum in SOL, but ⟦the symbol⟧ after it/);
  });

  it('a 0-decimal amount is raw units and whole tokens alike: the symbol after it contradicts nothing', () => {
    const zero: Trade = { ...SGLD, decimals: 0, amount: 7n };
    expect(judge(zero, sandbox(zero)).kind).toBe('person');
  });
});

describe('a symbol or name that reads as a unit word is never a slot', () => {
  it('A3: a token whose symbol is SOL (or raw, lamports) is refused in one line, before and after an approval', () => {
    for (const symbol of ['SOL', 'raw', 'lamports', 'Units', 'tokens', 'bps', '%', 'percent']) {
      const t: Trade = { ...T1, symbol };
      const v = judge(t, sandbox(t));
      expect(v.kind, symbol).toBe('refused');
      expect(reasons(v)).toBe(
        `the token's symbol ${JSON.stringify(symbol)} reads as "${symbol.toLowerCase()}", a unit word of sell messages: a slot for it could not be told from the unit, so this token is not sold through a sell message`,
      );
      const approved = (judge(T1, sandbox(T1)) as Extract<Verdict, { kind: 'person' }>).template!;
      expect(judge(t, sandbox(t), approved).kind, symbol).toBe('refused');
    }
  });

  it('look-alikes the normalisation equates (fullwidth, small capitals, an invisible character) and the name too', () => {
    expect(unitWordToken({ symbol: 'ＳＯＬ', name: null })).toMatch(/^the token's symbol "ＳＯＬ" reads as "sol"/);
    expect(unitWordToken({ symbol: 'ʀᴀᴡ', name: 'x' })).toMatch(/reads as "raw"/);
    expect(unitWordToken({ symbol: 'SOL\u200b', name: 'x' })).toMatch(/reads as "sol"/);
    expect(unitWordToken({ symbol: 'WOOF', name: 'Lamports' })).toMatch(
      /^the token's name "Lamports" reads as "lamports"/,
    );
    // One letter more or less is another word.
    for (const symbol of ['SOLA', 'SO', 'WSOL', 'RAWR', 'BPSX'])
      expect(unitWordToken({ symbol, name: 'Sandbox SOL coin' }), symbol).toBeNull();
    expect(UNIT_WORDS).toEqual(expect.arrayContaining(['sol', 'lamports', 'raw', 'units', 'tokens', 'bps', 'percent']));
  });
});

describe('a message without the mint names the token only by a symbol a person bound (attack-log-2 D)', () => {
  const noMint = (t: Trade) =>
    sandbox(t)
      .split('\n')
      .filter((l) => !l.startsWith('Mint: '))
      .join('\n');
  const approved = (judge(T1, noMint(T1)) as Extract<Verdict, { kind: 'person' }>).template!;
  const unbound = (t: Trade, message: string, otherSymbols = ['WIF']) =>
    judgeSell({
      ...input(t, message, approved),
      token: { symbol: t.symbol, name: t.name, decimals: t.decimals, problems: [], unbound: [], symbolBound: false },
      otherSymbols,
    });

  it('bound: signed under the approved wording', () => {
    expect(judge(T1, noMint(T1), approved).kind).toBe('sign');
  });

  it('unbound, though the service’s holdings show no other token with it: a person binds it first (TOKEN_FACTS_UNCONFIRMED, exit 6), nothing signed', () => {
    const v = unbound(T1, noMint(T1), []);
    expect(v).toMatchObject({ kind: 'person', code: 'TOKEN_FACTS_UNCONFIRMED', template: null });
    expect((v as Extract<Verdict, { kind: 'person' }>).reasons).toEqual([
      `the message names the token only by its symbol "BONK", which no person has bound to ${T1.mint}: any token may carry that symbol, and the service's holdings are no proof that none other does`,
    ]);
  });

  it('the mint in the message names the token: an unbound symbol beside it signs', () => {
    const withMint = (judge(T1, sandbox(T1)) as Extract<Verdict, { kind: 'person' }>).template!;
    expect(
      judgeSell({
        ...input(T1, sandbox(T1), withMint),
        token: { symbol: 'BONK', name: 'Bonk Inu', decimals: 5, problems: [], unbound: [], symbolBound: false },
      }).kind,
    ).toBe('sign');
  });
});

describe('a slot value cannot draw slot edges or stack marks on the screen (attack-log-2 F)', () => {
  it('A15: a name holding ⟦ ⟧ and Braille blanks, and a name of combining marks, are named <U+…> inside their slot', () => {
    const slt: Trade = { ...T1, symbol: 'SLT', name: 'Dog⟧ SOL (⟦1⟧ lamports)\u2800\u2800' };
    const v = judge(slt, sandbox(slt)) as Extract<Verdict, { kind: 'person' }>;
    const marked = markedMessage(v.slots!.template, v.slots!.values);
    expect(marked).toContain('Token: ⟦SLT⟧ (⟦Dog<U+27E7> SOL (<U+27E6>1<U+27E7> lamports)<U+2800><U+2800>⟧)');
    // Every ⟦ opens a slot the guard cut, every ⟧ closes one.
    expect(marked.match(/⟦/g)!.length).toBe(v.slots!.values.length);
    expect(marked.match(/⟧/g)!.length).toBe(v.slots!.values.length);
    expect(markedValue('Do\u0336g\u0301\u20dd')).toBe('Do<U+0336>g<U+0301><U+20DD>');
    // Letters with their accent composed are letters: shown as they are.
    expect(markedValue('Café Ωmega 狗')).toBe('Café Ωmega 狗');
  });
});

describe('a bound non-ASCII name: fullwidth letters are its slot; a zero-width joiner or an ideographic space refuse it in one line (attack-log-2 I)', () => {
  it('fullwidth letters and emoji without a joiner are matched exactly as bound', () => {
    for (const name of ['ＷＯＯＦ Dog', 'ＦＷＤ', 'Dog 🐕 Team']) {
      const t: Trade = { ...T1, symbol: 'FWD', name };
      const template = (judge(t, sandbox(t)) as Extract<Verdict, { kind: 'person' }>).template!;
      expect(template, name).toBeTruthy();
      expect(judge(t, sandbox(t), template).kind, name).toBe('sign');
    }
  });

  it('an emoji ZWJ sequence or a fullwidth space: one line naming the character, not "U+1F415 outside a bound name"', () => {
    const cases: Array<[string, string]> = [
      ['Dog 🐕\u200d🦺 Team', 'U+200D'],
      ['Ｗｏｏｆ\u3000Ｄｏｇ', 'U+3000'],
      ['Woof  Dog', 'a space that is not one space between words'],
    ];
    for (const [name, what] of cases) {
      const t: Trade = { ...T1, symbol: 'FWD', name };
      expect(judge(t, sandbox(t))).toEqual({
        kind: 'refused',
        reasons: [
          `line 2, column 13: the token's bound name holds ${what}, which a slot never holds (it could hide or reorder text), so a message stating it is not signed`,
        ],
      });
    }
  });
});

describe('a first approval says what each figure counts (attack-log-2 A)', () => {
  it('the sandbox wording: each figure with its fact and unit, in two rows of 80 at most; none for a message without figures', () => {
    const v = judge(T1, sandbox(T1)) as Extract<Verdict, { kind: 'person' }>;
    const legend = figureLegend(v.slots!.template, v.slots!.values, 80);
    expect(legend.join(' ')).toBe(
      'Marked figures: ⟦1234.5⟧ is the amount in whole tokens, ⟦123450000⟧ in raw units · ⟦0.0495⟧ is the minimum in SOL, ⟦49500000⟧ in lamports',
    );
    expect(legend.length).toBe(2);
    for (const row of legend) expect(row.length).toBeLessThanOrEqual(80);
    expect(figureLegend(v.slots!.template, v.slots!.values, Infinity)).toHaveLength(1);
    expect(figureLegend({ parts: ['Sell ', { fact: 'mint', notations: ['exact'] }] }, [T1.mint], 80)).toEqual([]);
  });

  it('a 0-decimal amount is said in both units at once', () => {
    const zero: Trade = { ...T1, decimals: 0, amount: 7n };
    const v = judge(zero, sandbox(zero)) as Extract<Verdict, { kind: 'person' }>;
    expect(figureLegend(v.slots!.template, v.slots!.values, Infinity)[0]).toMatch(
      /^Marked figures: ⟦7⟧ is the amount in raw units and whole tokens · ⟦[\d.]+⟧ is the minimum /,
    );
  });
});
