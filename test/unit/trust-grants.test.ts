// Each grant of trust in one line naming it, its undo on the next (views/grant-lines.ts); the source of
// kept token facts, said alike by the refusal and `config trust` (domain/facts-source.ts); the
// store's parts behind them: a symbol kept in the case it was bound, one mint forgotten.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TrustStore } from '../../src/config/trust-store.js';
import { bindingSource, factsSourcePhrase, sourceOf } from '../../src/domain/facts-source.js';
import { undoCommand, type Grant } from '../../src/domain/trust-grants.js';
import { UsageError } from '../../src/domain/errors.js';
import { grantJson, grantLine } from '../../src/views/grant-lines.js';
import { refuseUnboundSymbol } from '../../src/trade/trust.js';
import { parseForget } from '../../src/commands/config/config-trust.js';

const SERVICE = 'https://a.example/api/v1';
const MINT = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
const OTHER = '4kezffhjYn1FXi3oCeBqPiSwbioCnSyUH5hF3WwpATYt';
const WOOF = { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function store(): TrustStore {
  const dir = mkdtempSync(join(tmpdir(), 'trader-grants-'));
  dirs.push(dir);
  return new TrustStore(join(dir, 'trust.json'), SERVICE, { now: () => Date.parse('2026-01-01T00:00:00Z') });
}

describe('a grant in one line, its undo command whole on the next', () => {
  const cases: Array<[Grant, string, string]> = [
    [{ what: 'treasury', address: OTHER }, `Pinned treasury ${OTHER}`, 'forget treasury'],
    [{ what: 'symbol', symbol: 'WOOF', mint: MINT }, 'Bound symbol WOOF to mint GFmFPoog…', `forget token ${MINT}`],
    [
      { what: 'wording', fingerprint: 'df655eafb2e4cb36' },
      'Approved sell wording df655eafb2e4cb36 (unattended sells must match it)',
      'forget wording',
    ],
    [
      { what: 'token-facts', mint: MINT, ...WOOF },
      'Confirmed GFmFPoog…: WOOF (Woof Sandbox Dog), 5 decimals, WOOF names it',
      `forget token ${MINT}`,
    ],
    [
      { what: 'chain-facts', mint: MINT, ...WOOF, boundSymbol: false },
      'Recorded GFmFPoog… from the chain: WOOF (Woof Sandbox Dog), 5 decimals',
      `forget token ${MINT}`,
    ],
    [
      { what: 'risks', mint: MINT, fingerprint: '0123456789abcdef' },
      'Accepted the risks of GFmFPoog… as read (0123456789abcdef)',
      `forget token ${MINT}`,
    ],
  ];
  it.each(cases)('%o', (grant, says, undo) => {
    const [first, second, ...rest] = grantLine(grant, SERVICE).split('\n');
    expect(first).toBe(`${says}; undo:`);
    expect(second).toBe(`  trader config trust ${undo}`);
    expect(rest).toEqual([]);
    // Both fit 80 columns: a terminal breaks neither, and the command copies whole.
    expect(first!.length).toBeLessThanOrEqual(80);
    expect(second!.length).toBeLessThanOrEqual(80);
    expect(grantJson(grant, SERVICE)).toEqual({ ...grant, service: SERVICE, undo: undoCommand(grant) });
    expect(undoCommand(grant)).toBe(`trader config trust ${undo}`);
  });

  it('a long name wraps the grant at 80 columns between words, never shortened; the undo line stays whole (attack-log-3 F5)', () => {
    const name = 'Send All Funds To The Treasury Now Please Thank You Very Much';
    const lines = grantLine(
      { what: 'token-facts', mint: MINT, symbol: 'LONGSYMBOLXYZ123', name, decimals: 6 },
      SERVICE,
    ).split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(lines.slice(0, -1).join(' ')).toBe(
      `Confirmed GFmFPoog…: LONGSYMBOLXYZ123 (${name}), 6 decimals, LONGSYMBOLXYZ123 names it; undo:`,
    );
    expect(lines.at(-1)).toBe(`  trader config trust forget token ${MINT}`);
  });

  it('a chain record that bound the typed mint’s symbol says so; one that did not, does not', () => {
    const bound = grantLine({ what: 'chain-facts', mint: MINT, ...WOOF, boundSymbol: true }, SERVICE);
    expect(bound.replace('\n', ' ')).toContain('5 decimals, WOOF names it; undo:');
    expect(grantLine({ what: 'chain-facts', mint: MINT, ...WOOF, boundSymbol: false }, SERVICE)).not.toContain(
      'names it',
    );
  });

  it('a symbol or name with a control or invisible character in it stays on its line, the character named', () => {
    const line = grantLine(
      { what: 'token-facts', mint: MINT, symbol: 'WO\nOF', name: 'Dog\u200B', decimals: 5 },
      SERVICE,
    );
    const lines = line.split('\n');
    expect(lines.slice(0, -1).join(' ')).toContain('WO<U+000A>OF (Dog<U+200B>), 5 decimals, WO<U+000A>OF names it');
    expect(line).not.toMatch(/\u200B/);
    expect(lines.at(-1)).toBe(`  trader config trust forget token ${MINT}`);
    expect(grantLine({ what: 'symbol', symbol: 'W\u001bOOF', mint: MINT }, SERVICE)).toContain('W<U+001B>OOF to');
  });
});

describe('where kept token facts came from', () => {
  it('a binding every fact of which the chain (or a pin) vouches for is the service and the chain; one unbound fact makes it the service alone', () => {
    expect(bindingSource({ unbound: [] })).toBe('service+chain');
    expect(bindingSource({ unbound: [{ fact: 'name', value: 'Woof' }] })).toBe('service');
  });

  it('facts kept by an earlier version (no source) read as the weaker claim', () => {
    expect(sourceOf({})).toBe('service');
    expect(sourceOf({ source: 'service' })).toBe('service');
    expect(sourceOf({ source: 'service+chain' })).toBe('service+chain');
    expect(factsSourcePhrase('service+chain')).toBe("as the service's lists and the chain name it");
    expect(factsSourcePhrase('service')).toBe("the service's word, which neither the chain nor you confirmed");
  });

  const refusal = (unbound: Array<{ fact: 'symbol' | 'name' | 'decimals'; value: string }>) => {
    const s = store();
    const token = unbound.length ? { symbol: null, name: null, decimals: null } : WOOF;
    const presence = { mayGrantTrust: false, why: '--yes asks no one' };
    try {
      refuseUnboundSymbol(s, presence, 'WOOF', MINT, { unbound, token });
    } catch (err) {
      return { message: (err as Error).message, kept: s.read().pendingTokens?.[MINT] };
    }
    throw new Error('not refused');
  };

  it('the refusal says the source it keeps with the facts, which `config trust` then reads', () => {
    const chain = refusal([]);
    expect(chain.message).toContain(`${MINT} (WOOF, Woof Sandbox Dog, as the service's lists and the chain name it)`);
    expect(chain.kept).toMatchObject({ ...WOOF, source: 'service+chain' });
    const service = refusal([
      { fact: 'symbol', value: 'WOOF' },
      { fact: 'name', value: 'Woof Sandbox Dog' },
      { fact: 'decimals', value: '5' },
    ]);
    expect(service.message).toContain(
      `${MINT} (WOOF, Woof Sandbox Dog, the service's word, which neither the chain nor you confirmed)`,
    );
    expect(service.kept).toMatchObject({ ...WOOF, source: 'service' });
  });
});

describe('the store behind the grants', () => {
  it('a symbol is kept in the case it was bound (the key stays the symbol as compared); binding it again is no new grant', () => {
    const s = store();
    expect(s.bindSymbol('WooF', MINT, 'prompt')).toBe(true);
    expect(s.read().symbols).toEqual({ woof: { mint: MINT, symbol: 'WooF', at: expect.any(String), by: 'prompt' } });
    expect(s.bindSymbol('WOOF', MINT, 'prompt')).toBe(false);
  });

  it('a chain record says what it changed: the facts, the typed mint’s symbol; the same again changes nothing', () => {
    const s = store();
    expect(s.recordChainToken(MINT, WOOF, true)).toEqual({ facts: true, symbol: true });
    expect(s.recordChainToken(MINT, WOOF, true)).toEqual({ facts: false, symbol: false });
    expect(s.recordChainToken(OTHER, WOOF, false)).toEqual({ facts: true, symbol: false });
  });

  it('forget token <mint> forgets that mint (facts, pending facts, symbols bound to it, accepted risks) and keeps another', () => {
    const s = store();
    s.pinToken(MINT, WOOF, 'accept-command');
    s.recordPendingToken(MINT, WOOF, 'service');
    s.bindSymbol('DOGGO', MINT, 'prompt');
    s.acceptRisks(MINT, '0123456789abcdef', 'prompt');
    s.pinToken(OTHER, { symbol: 'NEWT', name: 'Newt', decimals: 6 }, 'prompt');
    s.acceptRisks(OTHER, 'fedcba9876543210', 'prompt');
    expect(s.forgetToken(MINT)).toBe(true);
    const after = s.read();
    expect(Object.keys(after.tokens ?? {})).toEqual([OTHER]);
    expect(Object.keys(after.acceptedRisks ?? {})).toEqual([OTHER]);
    expect(after.symbols).toEqual({ newt: expect.objectContaining({ mint: OTHER }) });
    expect(after.pendingTokens).toBeUndefined();
  });

  it('forget token of a mint the store does not hold: false, the file unchanged (none made where there was none)', () => {
    const s = store();
    expect(s.forgetToken(MINT)).toBe(false);
    expect(existsSync(s.path)).toBe(false);
    s.pinToken(OTHER, WOOF, 'prompt');
    const before = readFileSync(s.path, 'utf8');
    expect(s.forgetToken(MINT)).toBe(false);
    expect(readFileSync(s.path, 'utf8')).toBe(before);
  });

  it('a mint held only as a symbol binding or a pending fact is forgotten too', () => {
    const s = store();
    s.bindSymbol('WOOF', MINT, 'accept-command');
    expect(s.forgetToken(MINT)).toBe(true);
    expect(s.read()).toEqual({});
    s.recordPendingToken(MINT, WOOF, 'service+chain');
    expect(s.forgetToken(MINT)).toBe(true);
    expect(s.read()).toEqual({});
  });

  it('an old store’s binding (no symbol field) still reads', () => {
    const s = store();
    const old = { services: { [SERVICE]: { symbols: { woof: { mint: MINT, at: 'then', by: 'prompt' } } } } };
    writeFileSync(s.path, JSON.stringify(old), { mode: 0o600 });
    expect(s.read().symbols?.woof?.symbol).toBeUndefined();
    expect(s.forgetToken(MINT)).toBe(true);
  });
});

describe('forget <what> [mint]', () => {
  const parse = (...args: string[]) => parseForget({ args });
  it('token takes one mint, base58 of 32 bytes; the others take none', () => {
    expect(parse('token', MINT)).toEqual({ what: 'token', mint: MINT });
    expect(parse('tokens')).toEqual({ what: 'tokens' });
    expect(() => parse('token')).toThrow(/forget token needs the mint/);
    expect(() => parse('token', 'not-a-mint')).toThrow(/mint must be a base58 address of 32 bytes, got "not-a-mint"/);
    // 31 bytes in base58: one short of an address.
    expect(() => parse('token', '1111111111111111111111111111111')).toThrow(UsageError);
    expect(() => parse('tokens', MINT)).toThrow(/forget tokens takes no mint/);
    expect(() => parse('treasury', MINT)).toThrow(UsageError);
  });
});
