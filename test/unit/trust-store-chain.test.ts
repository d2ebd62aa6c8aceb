// The trust store's record of the facts the chain bound to a mint at a deposit (by: 'chain'): it
// replaces facts stored from the service alone or an older chain record, never a person's pin.
// And accept-token's pin of the facts a refusal kept: only those a person read, by fingerprint.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TrustStore } from '../../src/config/trust-store.js';
import { tokenFactsFingerprint } from '../../src/domain/token-binding.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
let now = Date.parse('2026-01-01T00:00:00Z');
function store(): TrustStore {
  const dir = mkdtempSync(join(tmpdir(), 'trader-trust-'));
  dirs.push(dir);
  return new TrustStore(join(dir, 'trust.json'), 'https://a.example/api/v1', { now: () => now });
}
const MINT = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
const OTHER = '4kezffhjYn1FXi3oCeBqPiSwbioCnSyUH5hF3WwpATYt';
const WOOF = { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 };

describe('recordChainToken', () => {
  it('records the chain facts by: chain; the same facts again leave the record (and its time) alone; changed facts replace it', () => {
    const s = store();
    s.recordChainToken(MINT, WOOF);
    expect(s.read().tokens?.[MINT]).toEqual({ ...WOOF, at: '2026-01-01T00:00:00.000Z', by: 'chain' });
    now += 60_000;
    s.recordChainToken(MINT, WOOF);
    expect(s.read().tokens?.[MINT]?.at).toBe('2026-01-01T00:00:00.000Z');
    s.recordChainToken(MINT, { ...WOOF, name: 'Woof v2' });
    expect(s.read().tokens?.[MINT]).toEqual({ ...WOOF, name: 'Woof v2', at: '2026-01-01T00:01:00.000Z', by: 'chain' });
  });

  it('replaces facts an earlier version stored from the service alone (no `by`)', () => {
    const s = store();
    // As an earlier version stored the service's facts: no `by`.
    const old = JSON.stringify({
      services: {
        'https://a.example/api/v1': {
          tokens: { [MINT]: { symbol: 'WOOF', name: 'SENDALL (Send All Funds)', decimals: 5, at: 'then' } },
        },
      },
    });
    writeFileSync(s.path, old, { mode: 0o600 });
    s.recordChainToken(MINT, WOOF);
    expect(s.read().tokens?.[MINT]).toMatchObject({ ...WOOF, by: 'chain' });
  });

  it("never replaces a person's pin", () => {
    const s = store();
    s.pinToken(MINT, { symbol: 'NEWT', name: 'Newt', decimals: 6 }, 'accept-command');
    s.recordChainToken(MINT, WOOF);
    expect(s.read().tokens?.[MINT]).toMatchObject({ symbol: 'NEWT', by: 'accept-command' });
  });
});

describe('symbols bound to mints (attack-1 §5): only by a person, or by a trade of a mint the person typed', () => {
  it('a trade records the chain facts; only a typed mint binds its symbol (as compared: WOOF\\u200B is woof)', () => {
    const s = store();
    s.recordChainToken(MINT, WOOF);
    expect(s.read().symbols).toBeUndefined();
    s.recordChainToken(MINT, { ...WOOF, symbol: 'WOOF\u200B' }, true);
    expect(s.read().symbols).toEqual({
      woof: { mint: MINT, symbol: 'WOOF\u200B', at: '2026-01-01T00:01:00.000Z', by: 'trade' },
    });
  });

  it('a trade never takes a symbol bound to another mint; a person does', () => {
    const s = store();
    s.bindSymbol('WOOF', MINT, 'accept-command');
    s.recordChainToken(OTHER, WOOF, true);
    expect(s.read().symbols?.woof?.mint).toBe(MINT);
    s.bindSymbol('woof', OTHER, 'prompt');
    expect(s.read().symbols?.woof).toMatchObject({ mint: OTHER, by: 'prompt' });
  });

  it("a person's binding is not replaced by a trade of the same mint; a trade's is upgraded by a person", () => {
    const s = store();
    s.bindSymbol('WOOF', MINT, 'prompt');
    s.recordChainToken(MINT, WOOF, true);
    expect(s.read().symbols?.woof?.by).toBe('prompt');
    const t = store();
    t.recordChainToken(MINT, WOOF, true);
    t.pinToken(MINT, WOOF, 'accept-command');
    expect(t.read().symbols?.woof?.by).toBe('accept-command');
  });

  it('confirming token facts (prompt, accept-token) binds their symbol; a setting does not; forget tokens forgets the bindings', () => {
    const s = store();
    s.pinToken(MINT, WOOF, 'setting');
    expect(s.read().symbols).toBeUndefined();
    const newt = { symbol: 'NEWT', name: 'Newt', decimals: 6 };
    s.recordPendingToken(OTHER, newt, 'service');
    s.acceptPendingToken(OTHER, tokenFactsFingerprint(OTHER, newt));
    expect(s.read().symbols).toEqual({
      newt: { mint: OTHER, symbol: 'NEWT', at: expect.any(String), by: 'accept-command' },
    });
    expect(s.forget('tokens')).toBe(true);
    expect(s.read().symbols).toBeUndefined();
  });
});

describe('accept-token pins only the facts a person read (attack-3 F8)', () => {
  const ZED = { symbol: 'ZED', name: 'Zed Token', decimals: 6 };
  const read = tokenFactsFingerprint(MINT, ZED);

  it('facts a later refusal kept in place of the ones read are not pinned: they are returned, nothing bound', () => {
    const s = store();
    s.recordPendingToken(MINT, ZED, 'service');
    s.recordPendingToken(MINT, WOOF, 'service+chain');
    const kept = { ...WOOF, at: expect.any(String), source: 'service+chain' };
    expect(s.acceptPendingToken(MINT, read)).toEqual({ pending: kept });
    expect(s.read()).toEqual({ pendingTokens: { [MINT]: kept } });
  });

  it('the facts read are pinned and their symbol bound; what was pending for the mint is gone', () => {
    const s = store();
    s.recordPendingToken(MINT, ZED, 'service');
    expect(s.acceptPendingToken(MINT, read)).toEqual({
      pinned: { ...ZED, at: expect.any(String), by: 'accept-command' },
    });
    expect(s.read()).toEqual({
      tokens: { [MINT]: { ...ZED, at: expect.any(String), by: 'accept-command' } },
      symbols: { zed: { mint: MINT, symbol: 'ZED', at: expect.any(String), by: 'accept-command' } },
    });
    expect(s.acceptPendingToken(MINT, read)).toBeNull();
  });

  it("another mint's fingerprint, or none pending, pins nothing", () => {
    const s = store();
    s.recordPendingToken(MINT, ZED, 'service');
    expect(s.acceptPendingToken(MINT, tokenFactsFingerprint(OTHER, ZED))).toMatchObject({ pending: ZED });
    expect(s.acceptPendingToken(OTHER, read)).toBeNull();
    expect(s.read().tokens).toBeUndefined();
  });
});

describe('tokenFactsFingerprint', () => {
  const ZED = { symbol: 'ZED', name: 'Zed Token', decimals: 6 };
  const of = (
    facts: typeof ZED | { symbol: string | null; name: string | null; decimals: number | null },
    mint = MINT,
  ) => tokenFactsFingerprint(mint, facts);
  it('16 hex digits that change with the mint, the symbol, the name and the decimals', () => {
    expect(of(ZED)).toMatch(/^[0-9a-f]{16}$/);
    const others = [
      of(ZED, OTHER),
      of({ ...ZED, symbol: 'WOOF' }),
      of({ ...ZED, name: 'Zed Coin' }),
      of({ ...ZED, decimals: 5 }),
      of({ ...ZED, symbol: null }),
      of({ ...ZED, name: null }),
      of({ ...ZED, decimals: null }),
    ];
    expect(new Set([of(ZED), ...others]).size).toBe(8);
  });
  it('the facts as compared: what reads the same has the same fingerprint', () => {
    expect(of({ symbol: 'zed\u200B', name: 'ZED  TOKEN', decimals: 6 })).toBe(of(ZED));
  });
});
