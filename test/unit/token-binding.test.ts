// Each rule of the binding, on both sides: the chain wins and a service value differing from it
// is refused; where the chain has none, a person's confirmation binds it (and a differing service
// value is refused); else the service's value is unbound; decimals are the chain's, a person's
// only when the chain cannot be read; a symbol or name pinned for another mint is refused.
import { describe, expect, it } from 'vitest';
import { bindToken, pinnedByPerson, type PinnedTokenFacts } from '../../src/domain/token-binding.js';
import type { ChainTokenFacts } from '../../src/domain/token.js';

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
const person = (over: Partial<PinnedTokenFacts> = {}): PinnedTokenFacts => ({ symbol: 'NEWT', name: 'Newt Token', decimals: 6, by: 'prompt', ...over });

describe('the chain wins', () => {
  it('service facts equal to the chain: all bound by the chain, no problem, nothing unbound', () => {
    const b = bindToken(MINT, service, chainFacts(), null, {});
    expect(b).toEqual({
      token: { mint: MINT, decimals: 5, symbol: 'WOOF', name: 'Woof Sandbox Dog', source: { decimals: 'chain', symbol: 'chain', name: 'chain' } },
      problems: [],
      unbound: [],
    });
  });

  it.each([
    ['symbol', { symbol: 'WOOF2' }, '"WOOF2", but its metaplex metadata on chain says "WOOF"'],
    ['symbol (case differs)', { symbol: 'woof' }, '"woof", but its metaplex metadata on chain says "WOOF"'],
    ['name', { name: 'SENDALL (Send All Funds)' }, '"SENDALL (Send All Funds)", but its metaplex metadata on chain says "Woof Sandbox Dog"'],
    ['decimals', { decimals: 6 }, '6, but its mint account on chain says 5'],
  ])('a service %s differing from the chain is a problem; the chain value is the one bound', (_, diff, said) => {
    const b = bindToken(MINT, { ...service, ...diff }, chainFacts(), null, {});
    expect(b.problems).toHaveLength(1);
    expect(b.problems[0]).toContain(`the service gives token ${MINT} the `);
    expect(b.problems[0]).toContain(said);
    expect(b.token).toMatchObject({ decimals: 5, symbol: 'WOOF', name: 'Woof Sandbox Dog' });
  });

  it('Token-2022 metadata is named as its source', () => {
    const b = bindToken(MINT, { ...service, symbol: 'X' }, chainFacts({ program: 'token-2022', metadataSource: 'token-2022' }), null, {});
    expect(b.problems[0]).toContain('but its token-2022 metadata on chain says "WOOF"');
  });

  it('a service that gives no symbol, name or decimals is no problem; the chain binds them all', () => {
    const b = bindToken(MINT, { symbol: null, name: null, decimals: null }, chainFacts(), null, {});
    expect(b.problems).toEqual([]);
    expect(b.token.source).toEqual({ decimals: 'chain', symbol: 'chain', name: 'chain' });
    expect(bindToken(MINT, null, chainFacts(), null, {}).token.symbol).toBe('WOOF');
  });

  it("the chain's facts win over a person's (a person's confirmation counts only where the chain has none)", () => {
    const b = bindToken(MINT, service, chainFacts(), person(), {});
    expect(b.token).toMatchObject({ decimals: 5, symbol: 'WOOF', name: 'Woof Sandbox Dog', source: { decimals: 'chain', symbol: 'chain', name: 'chain' } });
    expect(b.problems).toEqual([]);
  });
});

describe('where the chain has no symbol or name', () => {
  const bare = chainFacts({ symbol: null, name: null, metadataSource: null });

  it("the service's symbol and name are unbound (need a person), its decimals are checked against the mint", () => {
    const b = bindToken(MINT, { symbol: 'NEWT', name: 'Newt Token', decimals: 5 }, bare, null, {});
    expect(b.token).toEqual({ mint: MINT, decimals: 5, symbol: null, name: null, source: { decimals: 'chain', symbol: null, name: null } });
    expect(b.unbound).toEqual([
      { fact: 'symbol', value: 'NEWT' },
      { fact: 'name', value: 'Newt Token' },
    ]);
    expect(b.problems).toEqual([]);
  });

  it("a person's confirmation binds them; the service giving the same is no problem", () => {
    const b = bindToken(MINT, { symbol: 'NEWT', name: 'Newt Token', decimals: 5 }, bare, person(), {});
    expect(b.token).toMatchObject({ symbol: 'NEWT', name: 'Newt Token', decimals: 5, source: { symbol: 'person', name: 'person', decimals: 'chain' } });
    expect(b.unbound).toEqual([]);
    expect(b.problems).toEqual([]);
  });

  it("a service value differing from the person's is a problem", () => {
    const b = bindToken(MINT, { symbol: 'NEWT', name: 'Newt Token v2', decimals: 5 }, bare, person(), {});
    expect(b.problems).toEqual([`the service gives token ${MINT} the name "Newt Token v2", but you confirmed "Newt Token"`]);
    expect(b.token.name).toBe('Newt Token');
  });

  it.each([
    ['by the accept command', person({ by: 'accept-command' }), true],
    ['by a setting', person({ by: 'setting' }), true],
    ['recorded from the chain', person({ by: 'chain' }), false],
    ['stored from the service by an earlier version', person({ by: undefined }), false],
    ['stored by an earlier version, marked confirmed', { ...person({ by: undefined }), confirmed: true } as PinnedTokenFacts, false],
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
    expect(b.token).toEqual({ mint: MINT, decimals: null, symbol: null, name: null, source: { decimals: null, symbol: null, name: null } });
    expect(b.unbound).toEqual([
      { fact: 'decimals', value: '5' },
      { fact: 'symbol', value: 'WOOF' },
      { fact: 'name', value: 'Woof Sandbox Dog' },
    ]);
    expect(b.problems).toEqual([]);
  });

  it("unreadable chain: a person's decimals bind, and a service giving others is a problem", () => {
    const pin = person({ decimals: 5, symbol: 'WOOF', name: 'Woof Sandbox Dog' });
    expect(bindToken(MINT, service, 'unreadable', pin, {}).token).toMatchObject({ decimals: 5, source: { decimals: 'person' } });
    const b = bindToken(MINT, { ...service, decimals: 6 }, 'unreadable', pin, {});
    expect(b.problems).toEqual([`the service gives token ${MINT} the decimals 6, but you confirmed 5`]);
  });

  it("a readable chain ignores a person's decimals, even where the chain's differ", () => {
    const b = bindToken(MINT, { ...service, decimals: null }, chainFacts({ decimals: 9 }), person({ decimals: 5 }), {});
    expect(b.token).toMatchObject({ decimals: 9, source: { decimals: 'chain' } });
    expect(b.problems).toEqual([]);
  });
});

describe('not a mint', () => {
  it('is a problem; a person may still bind the symbol and name, the decimals stay unbound', () => {
    const b = bindToken(MINT, service, null, person({ symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 }), {});
    expect(b.problems).toEqual([`the chain has no token mint at ${MINT} (no account there, or not a mint): the service's facts of it cannot be bound`]);
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
    expect(bindToken(MINT, null, chainFacts({ symbol: 'woof ', name: 'Other' }), null, pinnedWoof).problems).toHaveLength(1);
    expect(bindToken(MINT, null, chainFacts({ symbol: 'WOOFY', name: 'Woof Sandbox Dogs' }), null, pinnedWoof).problems).toEqual([]);
    expect(bindToken(MINT, null, chainFacts({ symbol: '', name: 'x' }), null, { [OTHER]: { symbol: '', name: null } }).problems).toEqual([]);
  });

  it("this mint's own pin is its own", () => {
    expect(bindToken(MINT, service, chainFacts(), null, { [MINT]: { symbol: 'WOOF', name: 'Woof Sandbox Dog' } }).problems).toEqual([]);
  });

  it("a service's unbound symbol pinned for another mint is refused too; so is a person-bound one", () => {
    const bare = chainFacts({ symbol: null, name: null, metadataSource: null });
    const b = bindToken(MINT, { symbol: 'WOOF', name: null, decimals: 5 }, bare, null, pinnedWoof);
    expect(b.problems).toEqual([expect.stringMatching(/^the service gives token \S+ the symbol "WOOF", which is pinned for token F9EM/)]);
    const p = bindToken(MINT, null, bare, person({ symbol: 'WOOF' }), pinnedWoof);
    expect(p.problems).toEqual([expect.stringMatching(/^you confirmed for token \S+ the symbol "WOOF", which is pinned for token F9EM/)]);
  });

  it('a value claimed by the service and bound by the chain alike is said once, as the chain gives it', () => {
    expect(bindToken(MINT, { symbol: 'WOOF', name: null, decimals: null }, chainFacts({ name: null }), null, pinnedWoof).problems).toHaveLength(1);
  });
});
