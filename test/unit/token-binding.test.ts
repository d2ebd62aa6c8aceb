// Each rule of the binding, on both sides: the chain wins and a service value differing from it
// is refused; where the chain has none, a person's confirmation binds it (and a differing service
// value is refused); else the service's value is unbound; decimals are the chain's, a person's
// only when the chain cannot be read; a symbol or name pinned for another mint is refused; a
// fact bound to the mint (a person's, or the chain's at a trade a person signed) that the chain
// now states otherwise is refused, and the bound value stands.
import { describe, expect, it } from 'vitest';
import {
  bindingPin,
  bindToken,
  changedBoundFacts,
  pinnedByPerson,
  refuseChangedFacts,
  type PinnedTokenFacts,
} from '../../src/domain/token-binding.js';
import { errorReport, exitCodeOf, RefusedToSignError } from '../../src/domain/errors.js';
import type { ChainTokenFacts } from '../../src/domain/token-meta.js';

const MINT = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
const OTHER = 'F9EMmE5iFqHwzksCWVoGG21SuqD9iFXtkRdKG9ENeRwo';

const chainFacts = (over: Partial<ChainTokenFacts> = {}): ChainTokenFacts => ({
  mint: MINT,
  program: 'spl-token',
  decimals: 5,
  symbol: 'WOOF',
  name: 'Woof Sandbox Dog',
  metadataSource: 'metaplex',
  ...over,
});
const service = { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 };
const person = (over: Partial<PinnedTokenFacts> = {}): PinnedTokenFacts => ({
  symbol: 'NEWT',
  name: 'Newt Token',
  decimals: 5,
  by: 'prompt',
  ...over,
});

describe('the chain wins', () => {
  it('service facts equal to the chain: all bound by the chain, no problem, nothing unbound', () => {
    const b = bindToken(MINT, service, chainFacts(), null, {});
    expect(b).toEqual({
      token: {
        mint: MINT,
        decimals: 5,
        symbol: 'WOOF',
        name: 'Woof Sandbox Dog',
        source: { decimals: 'chain', symbol: 'chain', name: 'chain' },
      },
      changed: [],
      problems: [],
      unbound: [],
      symbolBound: false,
    });
  });

  it.each([
    ['symbol', { symbol: 'WOOF2' }, '"WOOF2", but its metaplex metadata on chain says "WOOF"'],
    ['symbol (case differs)', { symbol: 'woof' }, '"woof", but its metaplex metadata on chain says "WOOF"'],
    [
      'name',
      { name: 'SENDALL (Send All Funds)' },
      '"SENDALL (Send All Funds)", but its metaplex metadata on chain says "Woof Sandbox Dog"',
    ],
    ['decimals', { decimals: 6 }, '6, but its mint account on chain says 5'],
  ])('a service %s differing from the chain is a problem; the chain value is the one bound', (_, diff, said) => {
    const b = bindToken(MINT, { ...service, ...diff }, chainFacts(), null, {});
    expect(b.problems).toHaveLength(1);
    expect(b.problems[0]).toContain(`the service gives token ${MINT} the `);
    expect(b.problems[0]).toContain(said);
    expect(b.token).toMatchObject({ decimals: 5, symbol: 'WOOF', name: 'Woof Sandbox Dog' });
  });

  it('Token-2022 metadata is named as its source', () => {
    const b = bindToken(
      MINT,
      { ...service, symbol: 'X' },
      chainFacts({ program: 'token-2022', metadataSource: 'token-2022' }),
      null,
      {},
    );
    expect(b.problems[0]).toContain('but its token-2022 metadata on chain says "WOOF"');
  });

  it('a service that gives no symbol, name or decimals is no problem; the chain binds them all', () => {
    const b = bindToken(MINT, { symbol: null, name: null, decimals: null }, chainFacts(), null, {});
    expect(b.problems).toEqual([]);
    expect(b.token.source).toEqual({ decimals: 'chain', symbol: 'chain', name: 'chain' });
    expect(bindToken(MINT, null, chainFacts(), null, {}).token.symbol).toBe('WOOF');
  });

  it("a person's pin the chain states alike: bound by the chain, nothing changed", () => {
    const b = bindToken(MINT, service, chainFacts(), person({ symbol: 'WOOF', name: 'Woof Sandbox Dog' }), {});
    expect(b.token).toMatchObject({
      decimals: 5,
      symbol: 'WOOF',
      name: 'Woof Sandbox Dog',
      source: { decimals: 'chain', symbol: 'chain', name: 'chain' },
    });
    expect(b.changed).toEqual([]);
    expect(b.problems).toEqual([]);
  });
});

describe('where the chain has no symbol or name', () => {
  const bare = chainFacts({ symbol: null, name: null, metadataSource: null });

  it("the service's symbol and name are unbound (need a person), its decimals are checked against the mint", () => {
    const b = bindToken(MINT, { symbol: 'NEWT', name: 'Newt Token', decimals: 5 }, bare, null, {});
    expect(b.token).toEqual({
      mint: MINT,
      decimals: 5,
      symbol: null,
      name: null,
      source: { decimals: 'chain', symbol: null, name: null },
    });
    expect(b.unbound).toEqual([
      { fact: 'symbol', value: 'NEWT' },
      { fact: 'name', value: 'Newt Token' },
    ]);
    expect(b.problems).toEqual([]);
  });

  it("a person's confirmation binds them; the service giving the same is no problem", () => {
    const b = bindToken(MINT, { symbol: 'NEWT', name: 'Newt Token', decimals: 5 }, bare, person(), {});
    expect(b.token).toMatchObject({
      symbol: 'NEWT',
      name: 'Newt Token',
      decimals: 5,
      source: { symbol: 'person', name: 'person', decimals: 'chain' },
    });
    expect(b.unbound).toEqual([]);
    expect(b.problems).toEqual([]);
  });

  it("a service value differing from the person's is a problem", () => {
    const b = bindToken(MINT, { symbol: 'NEWT', name: 'Newt Token v2', decimals: 5 }, bare, person(), {});
    expect(b.problems).toEqual([
      `the service gives token ${MINT} the name "Newt Token v2", but you confirmed "Newt Token"`,
    ]);
    expect(b.token.name).toBe('Newt Token');
  });

  it.each([
    ['by the accept command', person({ by: 'accept-command' }), true],
    ['by a setting', person({ by: 'setting' }), true],
    ['stored from the service by an earlier version', person({ by: undefined }), false],
    [
      'stored by an earlier version, marked confirmed',
      { ...person({ by: undefined }), confirmed: true } as PinnedTokenFacts,
      false,
    ],
  ])("a pin %s: a person's word = %s", (_, pin, personal) => {
    expect(pinnedByPerson(pin)).toBe(personal);
    const b = bindToken(MINT, { symbol: 'NEWT', name: null, decimals: null }, bare, pin, {});
    expect(b.token.symbol).toBe(personal ? 'NEWT' : null);
    expect(b.unbound).toEqual(personal ? [] : [{ fact: 'symbol', value: 'NEWT' }]);
  });
});

describe('decimals: the chain, a person only when the chain cannot be read', () => {
  it('unreadable chain and no person: every service fact unbound, nothing bound, no problem', () => {
    const b = bindToken(MINT, service, 'unreadable', null, {});
    expect(b.token).toEqual({
      mint: MINT,
      decimals: null,
      symbol: null,
      name: null,
      source: { decimals: null, symbol: null, name: null },
    });
    expect(b.unbound).toEqual([
      { fact: 'decimals', value: '5' },
      { fact: 'symbol', value: 'WOOF' },
      { fact: 'name', value: 'Woof Sandbox Dog' },
    ]);
    expect(b.problems).toEqual([]);
  });

  it("unreadable chain: a person's decimals bind, and a service giving others is a problem", () => {
    const pin = person({ decimals: 5, symbol: 'WOOF', name: 'Woof Sandbox Dog' });
    expect(bindToken(MINT, service, 'unreadable', pin, {}).token).toMatchObject({
      decimals: 5,
      source: { decimals: 'person' },
    });
    const b = bindToken(MINT, { ...service, decimals: 6 }, 'unreadable', pin, {});
    expect(b.problems).toEqual([`the service gives token ${MINT} the decimals 6, but you confirmed 5`]);
  });

  it("a readable chain whose decimals differ from a person's: refused, the person's decimals stand", () => {
    const b = bindToken(
      MINT,
      { ...service, decimals: null },
      chainFacts({ decimals: 9 }),
      person({ decimals: 5, symbol: 'WOOF', name: 'Woof Sandbox Dog' }),
      {},
    );
    expect(b.token).toMatchObject({ decimals: 5, source: { decimals: 'person' } });
    expect(b.changed).toEqual([{ mint: MINT, fact: 'decimals', bound: 5, chain: 9, by: 'prompt' }]);
  });

  it("unreadable chain: the chain's decimals recorded at a trade a person signed bind (a mint's never change), and a service giving others is a problem", () => {
    const record = person({ decimals: 5, symbol: 'WOOF', name: 'Woof Sandbox Dog', by: 'chain' });
    expect(bindToken(MINT, service, 'unreadable', record, {}).token).toMatchObject({
      decimals: 5,
      symbol: null,
      source: { decimals: 'chain', symbol: null },
    });
    const b = bindToken(MINT, { ...service, decimals: 8 }, 'unreadable', record, {});
    expect(b.problems).toEqual([
      `the service gives token ${MINT} the decimals 8, but the chain said at a trade you signed 5`,
    ]);
    expect(b.token.decimals).toBe(5);
    // One past it: an earlier version's pin (no `by`) may be the service's word; it binds nothing.
    expect(
      bindToken(MINT, { ...service, decimals: 8 }, 'unreadable', { ...record, by: undefined }, {}).unbound,
    ).toContainEqual({ fact: 'decimals', value: '8' });
  });
});

describe('not a mint', () => {
  it('is a problem; a person may still bind the symbol and name, the decimals stay unbound', () => {
    const b = bindToken(MINT, service, null, person({ symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 }), {});
    expect(b.problems).toEqual([
      `the chain has no token mint at ${MINT} (no account there, or not a mint): the service's facts of it cannot be bound`,
    ]);
    expect(b.token).toMatchObject({ decimals: null, symbol: 'WOOF', source: { decimals: null, symbol: 'person' } });
    expect(b.unbound).toEqual([{ fact: 'decimals', value: '5' }]);
  });
});

describe('a symbol or name pinned for another mint', () => {
  const pinnedWoof = { [OTHER]: { symbol: 'WOOF', name: 'Woof Sandbox Dog' } };

  it('the chain giving this mint the symbol and name pinned for another: two problems naming both mints', () => {
    const b = bindToken(MINT, service, chainFacts(), null, pinnedWoof);
    expect(b.problems).toEqual([
      `the chain gives token ${MINT} the symbol "WOOF", which is pinned for token ${OTHER}: it would pass for that token; if the token really changed, forget the pinned facts with \`trader config trust forget tokens\``,
      `the chain gives token ${MINT} the name "Woof Sandbox Dog", which is pinned for token ${OTHER}: it would pass for that token; if the token really changed, forget the pinned facts with \`trader config trust forget tokens\``,
    ]);
  });

  it('compared case-insensitively and trimmed; a different symbol or an empty pin is no claim', () => {
    expect(
      bindToken(MINT, null, chainFacts({ symbol: 'woof ', name: 'Other' }), null, pinnedWoof).problems,
    ).toHaveLength(1);
    expect(
      bindToken(MINT, null, chainFacts({ symbol: 'WOOFY', name: 'Woof Sandbox Dogs' }), null, pinnedWoof).problems,
    ).toEqual([]);
    expect(
      bindToken(MINT, null, chainFacts({ symbol: '', name: 'x' }), null, { [OTHER]: { symbol: '', name: null } })
        .problems,
    ).toEqual([]);
  });

  it("this mint's own pin is its own", () => {
    expect(
      bindToken(MINT, service, chainFacts(), null, { [MINT]: { symbol: 'WOOF', name: 'Woof Sandbox Dog' } }).problems,
    ).toEqual([]);
  });

  it("a service's unbound symbol pinned for another mint is refused too; so is a person-bound one", () => {
    const bare = chainFacts({ symbol: null, name: null, metadataSource: null });
    const b = bindToken(MINT, { symbol: 'WOOF', name: null, decimals: 5 }, bare, null, pinnedWoof);
    expect(b.problems).toEqual([
      expect.stringMatching(/^the service gives token \S+ the symbol "WOOF", which is pinned for token F9EM/),
    ]);
    const p = bindToken(MINT, null, bare, person({ symbol: 'WOOF' }), pinnedWoof);
    expect(p.problems).toEqual([
      expect.stringMatching(/^you confirmed for token \S+ the symbol "WOOF", which is pinned for token F9EM/),
    ]);
  });

  it('a value claimed by the service and bound by the chain alike is said once, as the chain gives it', () => {
    expect(
      bindToken(MINT, { symbol: 'WOOF', name: null, decimals: null }, chainFacts({ name: null }), null, pinnedWoof)
        .problems,
    ).toHaveLength(1);
  });
});

describe('facts bound to a mint hold (issue 33)', () => {
  const pins: Array<[string, PinnedTokenFacts['by']]> = [
    ['a person at the prompt', 'prompt'],
    ['a person with the accept command', 'accept-command'],
    ['a setting', 'setting'],
    ['the chain at a trade a person signed', 'chain'],
  ];
  const woof = (by: PinnedTokenFacts['by']) => person({ symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5, by });

  it.each(pins)('bound by %s and stated alike by the chain: nothing changed', (_, by) => {
    expect(changedBoundFacts(MINT, woof(by), chainFacts())).toEqual([]);
    expect(bindingPin(woof(by))).toBe(true);
  });

  it.each(
    pins.flatMap(
      ([who, by]) =>
        [
          [who, by, 'decimals', 8, 5],
          [who, by, 'symbol', 'W00F', 'WOOF'],
          [who, by, 'name', 'Woof Sandbox Dogs', 'Woof Sandbox Dog'],
        ] as const,
    ),
  )(
    'bound by %s (%s), the chain now stating another %s: one change, refused, the bound value stands',
    (_, by, fact, now, was) => {
      const chain = chainFacts({ [fact]: now });
      expect(changedBoundFacts(MINT, woof(by), chain)).toEqual([{ mint: MINT, fact, bound: was, chain: now, by }]);
      // The service saying what the chain now says adds nothing: the binding holds.
      const b = bindToken(MINT, { ...service, [fact]: now }, chain, woof(by), {});
      expect(b.token[fact]).toBe(was);
      expect(b.changed).toHaveLength(1);
      expect(b.problems).toContain(
        `token ${MINT} is bound to the ${fact} ${JSON.stringify(was)} (${by === 'chain' ? 'as the chain stated it at a trade you signed' : 'as you confirmed it'}), but the chain now says ${JSON.stringify(now)}: ` +
          (fact === 'decimals'
            ? "a mint's decimals cannot change on Solana, so a changed answer means a lying RPC or service"
            : `a token's ${fact} changes only if its metadata's update authority rewrites it; far more likely the RPC or the service lies`),
      );
    },
  );

  it('a symbol differing only in case is a change (compared byte for byte)', () => {
    expect(changedBoundFacts(MINT, woof('prompt'), chainFacts({ symbol: 'woof' }))).toEqual([
      { mint: MINT, fact: 'symbol', bound: 'WOOF', chain: 'woof', by: 'prompt' },
    ]);
  });

  it("no metadata on chain now: a change of the chain's own record, not of a person's (a person binds a symbol the chain lacks)", () => {
    const bare = chainFacts({ symbol: null, name: null, metadataSource: null });
    expect(changedBoundFacts(MINT, woof('chain'), bare).map((c) => [c.fact, c.chain])).toEqual([
      ['symbol', null],
      ['name', null],
    ]);
    expect(bindToken(MINT, null, bare, woof('chain'), {}).problems[0]).toContain(
      'is bound to the symbol "WOOF" (as the chain stated it at a trade you signed), but the chain now states none',
    );
    expect(changedBoundFacts(MINT, woof('accept-command'), bare)).toEqual([]);
  });

  it("nothing is compared where nothing binds or the chain gives no answer: an earlier version's pin, no pin, an unreadable chain, no mint", () => {
    expect(changedBoundFacts(MINT, { ...woof('prompt'), by: undefined }, chainFacts({ decimals: 8 }))).toEqual([]);
    expect(bindingPin({ by: undefined })).toBe(false);
    expect(changedBoundFacts(MINT, null, chainFacts({ decimals: 8 }))).toEqual([]);
    expect(changedBoundFacts(MINT, woof('prompt'), 'unreadable')).toEqual([]);
    expect(changedBoundFacts(MINT, woof('prompt'), null)).toEqual([]);
    // A fact the pin does not state binds nothing.
    expect(changedBoundFacts(MINT, { ...woof('prompt'), name: null }, chainFacts({ name: 'Other' }))).toEqual([]);
  });

  it('refuseChangedFacts: none, no refusal; any, exit 6 BOUND_FACTS_CHANGED whose report carries the facts and what to do', () => {
    expect(() => refuseChangedFacts([])).not.toThrow();
    const changed = changedBoundFacts(MINT, woof('chain'), chainFacts({ decimals: 8, symbol: 'W00F' }));
    let err: unknown;
    try {
      refuseChangedFacts(changed);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RefusedToSignError);
    expect(exitCodeOf(err)).toBe(6);
    const report = errorReport(err);
    expect(report).toMatchObject({
      code: 'BOUND_FACTS_CHANGED',
      category: 'refused_to_sign',
      retryable: false,
      facts: changed,
    });
    expect(report.message).toContain(`token ${MINT} is bound to the decimals 5`);
    expect(report.message).toContain(`token ${MINT} is bound to the symbol "WOOF"`);
    expect(report.message).toContain('nothing was created or signed; check the RPC');
    expect(report.message).toContain('`trader config trust forget tokens`');
  });
});

describe('a bound symbol: only a binding pin of this mint binds the symbol shown (a message without the mint names the token by it)', () => {
  it('a person’s pin, or the chain’s at a trade a person signed, binds it; the chain’s word alone, an earlier version’s pin or another symbol does not', () => {
    const pinned = (over: Partial<PinnedTokenFacts>) =>
      bindToken(MINT, service, chainFacts(), person({ symbol: 'WOOF', name: 'Woof Sandbox Dog', ...over }), {});
    expect(pinned({ by: 'prompt' }).symbolBound).toBe(true);
    expect(pinned({ by: 'accept-command' }).symbolBound).toBe(true);
    expect(pinned({ by: 'chain' }).symbolBound).toBe(true);
    expect(pinned({ by: undefined }).symbolBound).toBe(false);
    expect(bindToken(MINT, service, chainFacts(), null, {}).symbolBound).toBe(false);
    // A pin that binds no symbol binds not the chain's either.
    expect(pinned({ by: 'prompt', symbol: null }).symbolBound).toBe(false);
  });
});
