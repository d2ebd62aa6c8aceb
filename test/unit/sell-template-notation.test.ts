// An approved slot means one thing: one fact in one unit. Where the approving message wrote two
// units alike (a 0-decimal amount in raw units and whole tokens, 0 bps in bps and %, a time as
// given and in ISO), the approval covers only messages where they read alike again; the first
// where they differ is a new wording for a person. Also the edges of what literal text, the
// statement of the minimum, an address-sized run and a random value's boundary may be.
import { describe, expect, it } from 'vitest';
import { judgeSell, type Verdict } from '../../src/wallet/sell-template/guard.js';
import { extract } from '../../src/wallet/sell-template/extract.js';
import { match, written } from '../../src/wallet/sell-template/match.js';
import { isTemplate, type Part, type Template } from '../../src/wallet/sell-template/template.js';
import { templateText } from '../../src/views/wording.js';
import type { Fact, SellFacts } from '../../src/wallet/sell-template/facts.js';
import { good, input, MINT, OWNER, sandbox, STRANGER, T1, type Trade } from './sell-template-fixtures.js';

const judge = (t: Trade, message: string, approved: Template | null = null) => judgeSell(input(t, message, approved));
const facts = (t: Trade): SellFacts => ({ ...t, owner: OWNER, slippageBps: t.bps });

/** The template a person approves for this first message of `t`. */
function approve(t: Trade, message: string): Template {
  const v = judge(t, message);
  expect(v, JSON.stringify(v)).toMatchObject({ kind: 'person', code: 'WORDING_NOT_APPROVED' });
  return (v as Extract<Verdict, { kind: 'person' }>).template!;
}

/** The units of each fact slot of `fact` in a template. */
const unitsOf = (template: Template, fact: Fact) =>
  template.parts.flatMap((p) =>
    typeof p !== 'string' && 'fact' in p && p.fact === fact
      ? [[...new Set(p.notations.map((n) => n.split(' ')[0]))].sort()]
      : [],
  );

/** A first sell of a 0-decimal token: 7 ZERO are 7 raw units. */
const ZERO: Trade = { ...T1, symbol: 'ZERO', name: 'Zero Dog', decimals: 0, amount: 7n };
/** The sell of the attack: 1.5 WOOF at 5 decimals, 150000 raw units. */
const WOOF: Trade = { ...T1, symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5, amount: 150_000n };
/** The sandbox's wording with the two notations of the amount swapped. */
const swapped = (t: Trade) =>
  sandbox(t).replace(/^Amount: (\S+) (\S+) \((\d+) raw units\)$/m, 'Amount: $3 $2 ($1 raw units)');

describe('the amount of a 0-decimal token: raw units and whole tokens alike', () => {
  const template = approve(ZERO, sandbox(ZERO));

  it('both amount slots hold both units, labelled as meant at once, never "or"', () => {
    expect(unitsOf(template, 'amount')).toEqual([
      ['raw', 'tokens'],
      ['raw', 'tokens'],
    ]);
    const text = templateText(template, facts(ZERO));
    expect(text).toContain(
      'Amount: ⟦amount in raw units and whole tokens (0 decimals) alike⟧ ⟦the symbol⟧ (⟦amount in raw units and whole tokens (0 decimals) alike⟧ raw units)',
    );
    expect(text).not.toMatch(/ or /);
  });

  it('signed where they read alike again: another 0-decimal amount, grouped or not', () => {
    for (const amount of [1n, 150_000n, 98_765_432n])
      expect(judge({ ...ZERO, amount }, sandbox({ ...ZERO, amount }), template).kind, String(amount)).toBe('sign');
  });

  it('the attack: 1.5 WOOF written "150000 WOOF (1.5 raw units)" is refused outright: each unit word after a figure contradicts its slot', () => {
    expect(swapped(WOOF)).toContain('Amount: 150000 WOOF (1.5 raw units)');
    const v = judge(WOOF, swapped(WOOF), template);
    expect(v).toEqual({
      kind: 'refused',
      reasons: [
        '"150000" is the amount in raw units, but ⟦the symbol⟧ after it says another unit: the message would misstate the figure',
        '"1.5" is the amount in whole tokens (5 decimals), but "raw" after it says another unit: the message would misstate the figure',
      ],
    });
    // Not offered for approval either, whatever was approved before.
    expect(judge(WOOF, swapped(WOOF)).kind).toBe('refused');
  });

  it('the honest wording of the same sell is a new wording too: the approval never covered two units apart', () => {
    expect(judge(WOOF, sandbox(WOOF), template)).toMatchObject({ kind: 'person', code: 'WORDING_CHANGED' });
    // At 1 decimal they already differ (7 raw units are 0.7 tokens).
    const one = { ...ZERO, decimals: 1 };
    expect(judge(one, sandbox(one), template)).toMatchObject({ kind: 'person', code: 'WORDING_CHANGED' });
  });

  it('once the honest wording of a 5-decimal sell is approved, each slot holds one unit, and a 0-decimal sell still signs under it', () => {
    const apart = approve(WOOF, sandbox(WOOF));
    expect(unitsOf(apart, 'amount')).toEqual([['tokens'], ['raw']]);
    expect(judge(WOOF, swapped(WOOF), apart).kind).not.toBe('sign');
    expect(judge(ZERO, sandbox(ZERO), apart).kind).toBe('sign');
  });

  it('a template stored by an earlier version, whose slots kept "raw or tokens": signs only where they read alike', () => {
    const stored: Template = approve(ZERO, sandbox(ZERO));
    // As an earlier version stored it: two units in one slot, read then as either.
    expect(isTemplate(JSON.parse(JSON.stringify(stored)))).toBe(true);
    expect(judge(WOOF, swapped(WOOF), stored).kind).not.toBe('sign');
    expect(judge(WOOF, sandbox(WOOF), stored).kind).not.toBe('sign');
    const either: Template = {
      parts: [
        'Sell ',
        { fact: 'amount', notations: ['raw', 'tokens'] },
        ' of ',
        { fact: 'mint', notations: ['exact'] },
        ' for at least ',
        { fact: 'minimum', notations: ['SOL'] },
        ' SOL',
      ],
    };
    const message = (amount: string) => `Sell ${amount} of ${MINT} for at least 0.0495 SOL`;
    expect(judge(WOOF, message('1.5'), either).kind).not.toBe('sign');
    expect(judge(WOOF, message('150000'), either).kind).not.toBe('sign');
    expect(judge({ ...ZERO, amount: 150_000n }, message('150000'), either).kind).toBe('sign');
  });
});

describe('written: the texts a fact slot may hold', () => {
  const at = (over: Partial<Trade>) => facts({ ...T1, ...over });
  it.each<[string, string[], Partial<Trade>, string[]]>([
    [
      'one unit, grouped or not (how a figure is written, not what it counts)',
      ['tokens', 'tokens ,'],
      { decimals: 0, amount: 1234n },
      ['1234', '1,234'],
    ],
    ['one unit, trimmed or every decimal', ['tokens', 'tokens .'], { decimals: 2, amount: 150n }, ['1.5', '1.50']],
    ['raw and tokens at 0 decimals', ['raw', 'tokens'], { decimals: 0, amount: 7n }, ['7']],
    ['raw and tokens at 1 decimal', ['raw', 'tokens'], { decimals: 1, amount: 7n }, []],
    ['raw and tokens, decimals unknown', ['raw', 'tokens'], { decimals: null as unknown as number, amount: 7n }, []],
    [
      'raw (grouped or not) and tokens at 0 decimals: only the text both units write',
      ['raw', 'raw ,', 'tokens'],
      { decimals: 0, amount: 1234n },
      ['1234'],
    ],
  ])('%s', (_name, notations, over, texts) => {
    expect(written({ fact: 'amount', notations }, at(over)).sort()).toEqual([...texts].sort());
  });

  it('slippage: 0 bps is 0%, 1 bps is not', () => {
    expect(written({ fact: 'slippage', notations: ['bps', '%'] }, at({ bps: 0 }))).toEqual(['0']);
    expect(written({ fact: 'slippage', notations: ['bps', '%'] }, at({ bps: 1 }))).toEqual([]);
  });

  it('a time as given and in ISO: alike for a field in ISO with milliseconds, apart for one without', () => {
    expect(written({ fact: 'expiresAt', notations: ['field', 'iso'] }, at({}))).toEqual([T1.expiresAt]);
    expect(
      written({ fact: 'expiresAt', notations: ['field', 'iso'] }, at({ expiresAt: '2030-01-01T00:02:00Z' })),
    ).toEqual([]);
  });
});

describe('the other units and facts read alike at approval', () => {
  it('an expiry approved where the field was ISO: a later field in another form is a new wording, the same form signs', () => {
    const message = (t: Trade) => `${good(t)}, expires ${t.expiresAt}`;
    const template = approve(T1, message(T1));
    expect(unitsOf(template, 'expiresAt')).toEqual([['field', 'iso']]);
    const later = { ...T1, createdAt: '2030-01-01T00:00:30.000Z', expiresAt: '2030-01-01T00:02:30.000Z' };
    expect(judge(later, message(later), template).kind).toBe('sign');
    const otherForm = { ...later, expiresAt: '2030-01-01T00:02:30Z' };
    expect(judge(otherForm, message(otherForm), template)).toMatchObject({ kind: 'person', code: 'WORDING_CHANGED' });
    expect(judge(otherForm, `${good(otherForm)}, expires 2030-01-01T00:02:30.000Z`, template)).toMatchObject({
      kind: 'person',
      code: 'WORDING_CHANGED',
    });
  });

  it('two facts alike are refused outright, never one slot for either: the amount in tokens equal to the expected output in SOL', () => {
    const t = { ...T1, amount: 5_000n };
    const v = judge(t, `Sell 0.05 BONK (${MINT}) for at least 0.0495 SOL, expected 0.05 SOL`);
    expect(v.kind).toBe('refused');
    const reasons = (v as Extract<Verdict, { kind: 'refused' }>).reasons;
    expect(reasons).toHaveLength(2);
    for (const reason of reasons) expect(reason).toMatch(/: "0\.05" is both the amount and the expected of this trade/);
  });
});

describe('literal text: printable ASCII, byte for byte (a Cyrillic look-alike is another wording)', () => {
  const latin = sandbox(T1);
  // An о (U+043E) in "proceeds" and an і (U+0456) in "Minimum": each looks like its Latin letter.
  const lookAlikes: Array<[string, string]> = [
    ['U+043E', latin.replace('Minimum proceeds', 'Minimum pr\u043Eceeds')],
    ['U+0456', latin.replace('Minimum proceeds', 'M\u0456nimum proceeds')],
  ];

  it.each(lookAlikes)(
    'a first message with %s is refused outright, naming it, never offered for approval',
    (code, message) => {
      expect(message).not.toBe(latin);
      expect(judge(T1, message)).toEqual({
        kind: 'refused',
        reasons: [
          expect.stringMatching(
            new RegExp(`^line 5, column \\d+: ${code.replace('+', '\\+')}, a character other than printable ASCII`),
          ),
        ],
      });
    },
  );

  it.each(lookAlikes)('approved in Latin, later with %s: refused outright; the Latin one signs', (code, message) => {
    const template = approve(T1, latin);
    expect(judge(T1, latin, template).kind).toBe('sign');
    expect(match(template, facts(T1), message)).toBeNull();
    expect(judge(T1, message, template)).toMatchObject({ kind: 'refused', reasons: [expect.stringContaining(code)] });
  });

  it.each(lookAlikes)(
    'a stored template with %s in its literal text is no template this version reads, and matches only its own spelling',
    (_code, message) => {
      const template = approve(T1, latin);
      const stored: Template = {
        parts: template.parts.map((p) =>
          typeof p === 'string' ? p.replace('Minimum proceeds', message.match(/^M\S+ \S+(?=:)/m)![0]) : p,
        ),
      };
      expect(templateText(stored)).not.toBe(templateText(template));
      expect(isTemplate(stored)).toBe(false);
      expect(isTemplate(template)).toBe(true);
      expect(match(stored, facts(T1), latin)).toBeNull();
    },
  );
});

describe('what a template must state: the minimum, not only the expected output', () => {
  const expectedOnly = `Sell 1,234.5 BONK (${MINT}), expected 0.05 SOL`;
  it('a first message stating the expected output but not the minimum is refused', () => {
    const v = judge(T1, expectedOnly);
    expect(v.kind).toBe('refused');
    expect((v as Extract<Verdict, { kind: 'refused' }>).reasons).toEqual([
      'the message does not state the minimum, 49500000 lamports',
    ]);
  });

  it('a stored template that states it so is refused too, though the message is its rendering', () => {
    const stored: Template = {
      parts: [
        'Sell ',
        { fact: 'amount', notations: ['tokens ,'] },
        ' BONK (',
        { fact: 'mint', notations: ['exact'] },
        '), expected ',
        { fact: 'expected', notations: ['SOL'] },
        ' SOL',
      ],
    };
    expect(match(stored, facts(T1), expectedOnly)).not.toBeNull();
    expect(judge(T1, expectedOnly, stored)).toEqual({
      kind: 'refused',
      reasons: ['the message does not state the minimum, 49500000 lamports'],
    });
  });
});

describe('a base58 address of 43 characters is an account, not a random value', () => {
  /** base58 of sha256("trader-43-8"): 32 bytes written in 43 characters. */
  const ADDRESS_43 = 'rb17VBfkWMTuussa3QC1Mf3ZTB2Kc38z15ahPusHTa2';
  const withRef = (ref: string) => `${good(T1)}\nref ${ref}`;

  it('in a first message: refused outright, naming it (as one of 44 is)', () => {
    expect(ADDRESS_43).toHaveLength(43);
    for (const address of [ADDRESS_43, STRANGER]) {
      expect(judge(T1, withRef(address))).toMatchObject({
        kind: 'refused',
        reasons: [`line 2, column 5: the address ${address}, which is neither the mint nor your wallet`],
      });
    }
  });

  it('in an approved 45-character base58 slot (±2): refused; a random 45-character value signs', () => {
    const random45 = T1.hash.slice(0, 45);
    const template = approve(T1, withRef(random45));
    expect(judge(T1, withRef(T1.hash.slice(1, 46)), template).kind).toBe('sign');
    expect(judge(T1, withRef(ADDRESS_43), template)).toMatchObject({
      kind: 'refused',
      reasons: [expect.stringContaining(`the address ${ADDRESS_43}`)],
    });
    expect(match(template, facts(T1), withRef(ADDRESS_43))).toBeNull();
  });
});

describe('a random value stands alone when matched: no letter or digit, nor a joined . or , beside it', () => {
  const hex = '0123456789abcdef';
  const slot: Part = { opaque: 'hex', length: 16 };
  const template = (before: string, after: string): Template => ({
    parts: [`${good(T1)}\nref `, ...(before ? [before] : []), slot, ...(after ? [after] : [])],
  });
  const message = (before: string, after: string) => `${good(T1)}\nref ${before}${hex}${after}`;

  it.each([
    ['a space after it', '', ' end', true],
    ['a letter after it', '', 'x end', false],
    ['a hex digit after it', '', 'ff', false],
    ['a letter before it', 'x', '', false],
    ['a dot joined to a digit before it', 'v1.', '', false],
    ['a dot before it after a letter', 'v.', '', true],
    ['a comma joined to a digit after it', '', ',5', false],
  ])('%s', (_name, before, after, matches) => {
    const m = match(template(before, after), facts(T1), message(before, after));
    if (matches) expect(m).toEqual([hex]);
    else expect(m).toBeNull();
  });

  it('and extraction never makes such a slot: the run joined to letters is a figure of its own', () => {
    expect(extract(message('', 'x end'), facts(T1))).toMatchObject({
      refused: [expect.stringMatching(/"0123456789abcdefx", a figure/)],
    });
  });
});
