import { describe, expect, it } from 'vitest';
import { symbolPinnedElsewhere } from '../../src/domain/pinned-names.js';
import { boundMints, chooseToken, holdingOf, knownTokens, resolveTokenMint } from '../../src/trade/token-lookup.js';
import { UsageError } from '../../src/domain/errors.js';
import type { Holding } from '../../src/api/types.js';

// The red team's mints (round 2): WOOF pinned by an honest sell, then SGLD's mint relabelled.
const WOOF_MINT = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
const SGLD_MINT = 'F9EMmE5iFqHwzksCWVoGG21SuqD9iFXtkRdKG9ENeRwo';
const PINNED = {
  [WOOF_MINT]: { symbol: 'WOOF', name: 'Woof Sandbox Dog' },
  [SGLD_MINT]: { symbol: 'SGLD', name: 'Sandbox Gold' },
};

const holding = (mint: string, symbol: string, name: string): Holding =>
  ({ mint, symbol, name, decimals: 6, amount: '854547' }) as unknown as Holding;

describe('a pinned symbol belongs to its mint (red team round 2, class A; a chain symbol on another mint: token-binding)', () => {
  it('a typed symbol pinned for another mint: the mint it resolves to must be the pinned one', () => {
    expect(symbolPinnedElsewhere('WOOF', WOOF_MINT, PINNED)).toBeNull();
    expect(symbolPinnedElsewhere('NEWT', SGLD_MINT, PINNED)).toBeNull();
    const line = symbolPinnedElsewhere('$woof', SGLD_MINT, PINNED);
    expect(line).toContain(`pinned for token ${WOOF_MINT}`);
    expect(line).toContain(`gives that symbol to token ${SGLD_MINT}`);
    expect(line).toContain('trader config trust forget tokens');
  });

  it("`sell WOOF` with WOOF left out of holdings and the SGLD mint relabelled WOOF: a bound WOOF names its own mint; a WOOF the chain recorded for another mint is exit 2; with neither it is only the service's word", () => {
    const known = knownTokens({ holdings: [holding(SGLD_MINT, 'WOOF', 'Woof Sandbox Dog')] });
    const bound = { symbols: { woof: { mint: WOOF_MINT } } };
    for (const typed of ['WOOF', 'woof', '$WOOF', 'ＷＯＯＦ', 'WOOF\u200B'])
      expect(chooseToken(typed, known, 'you hold', 'hint', bound), typed).toEqual({ mint: WOOF_MINT, tie: 'bound' });
    const recorded = { tokens: { [WOOF_MINT]: { symbol: 'WOOF', name: 'Woof Sandbox Dog', by: 'chain' as const } } };
    for (const typed of ['WOOF', 'woof', '$WOOF']) {
      let err: unknown;
      try {
        chooseToken(typed, known, 'you hold', 'hint', recorded);
      } catch (e) {
        err = e;
      }
      expect(err, typed).toBeInstanceOf(UsageError);
      expect((err as UsageError).exitCode).toBe(2);
      expect((err as UsageError).message).toContain(WOOF_MINT);
      expect((err as UsageError).message).toContain(SGLD_MINT);
    }
    // attack-1 §5: a fresh config, the lists naming an impostor WOOF: the service's word, not a binding.
    expect(chooseToken('WOOF', known, 'you hold', 'hint', {})).toEqual({ mint: SGLD_MINT, tie: 'service' });
  });

  it("what binds a symbol: the store's symbol bindings, and token facts a person confirmed; never facts the chain recorded, nor the lists", () => {
    expect(boundMints('woof', { symbols: { woof: { mint: WOOF_MINT } } })).toEqual([WOOF_MINT]);
    for (const by of ['prompt', 'accept-command'] as const)
      expect(boundMints('WOOF', { tokens: { [WOOF_MINT]: { symbol: 'Woof', name: null, by } } })).toEqual([WOOF_MINT]);
    expect(boundMints('WOOF', { tokens: { [WOOF_MINT]: { symbol: 'WOOF', name: null, by: 'chain' } } })).toEqual([]);
    expect(boundMints('WOOF', { tokens: { [WOOF_MINT]: { symbol: 'WOOF', name: null } } })).toEqual([]);
    expect(boundMints('SGLD', { symbols: { woof: { mint: WOOF_MINT } } })).toEqual([]);
    // A mint prefix is the person's own typing; a listed symbol only the service's word.
    const known = knownTokens({ holdings: [holding(SGLD_MINT, 'SGLD', 'Sandbox Gold')] });
    expect(chooseToken(SGLD_MINT.slice(0, 8), known, 'you hold', 'hint', {})).toEqual({ mint: SGLD_MINT, tie: 'mint' });
    expect(chooseToken('sgld', known, 'you hold', 'hint', {})).toEqual({ mint: SGLD_MINT, tie: 'service' });
  });

  it('`buy WOOF` with the real WOOF relabelled and SGLD claiming WOOF: exit 2; honest symbols and mint prefixes still resolve', () => {
    const known = knownTokens({
      holdings: [holding(WOOF_MINT, 'DOGE2', 'Something Else'), holding(SGLD_MINT, 'WOOF', 'Woof Sandbox Dog')],
    });
    expect(() => resolveTokenMint('WOOF', known, 'you have held or traded', 'hint', PINNED)).toThrow(UsageError);
    const honest = knownTokens({
      holdings: [holding(WOOF_MINT, 'WOOF', 'Woof Sandbox Dog'), holding(SGLD_MINT, 'SGLD', 'Sandbox Gold')],
    });
    expect(resolveTokenMint('woof', honest, 'you hold', 'hint', PINNED)).toBe(WOOF_MINT);
    expect(resolveTokenMint('SGLD', honest, 'you hold', 'hint', PINNED)).toBe(SGLD_MINT);
    // A mint prefix is the mint itself: no symbol is read from it.
    expect(resolveTokenMint(SGLD_MINT.slice(0, 8), known, 'you hold', 'hint', PINNED)).toBe(SGLD_MINT);
  });

  it('two tokens under one symbol: the bound mint is the one meant; with no binding (a chain record is none), ambiguous (exit 2); bound to two mints, ambiguous too', () => {
    const known = knownTokens({
      holdings: [holding(SGLD_MINT, 'WOOF', 'Woof Sandbox Dog'), holding(WOOF_MINT, 'WOOF', 'Woof Sandbox Dog')],
    });
    expect(chooseToken('WOOF', known, 'you hold', 'hint', { symbols: { woof: { mint: WOOF_MINT } } })).toEqual({
      mint: WOOF_MINT,
      tie: 'bound',
    });
    expect(() =>
      chooseToken('WOOF', known, 'you hold', 'hint', {
        tokens: { [WOOF_MINT]: { symbol: 'WOOF', name: null, by: 'chain' } },
      }),
    ).toThrow(/could be any of 2 tokens/);
    expect(() => resolveTokenMint('WOOF', known, 'you hold', 'hint')).toThrow(/could be any of 2 tokens/);
    const twice = {
      symbols: { woof: { mint: WOOF_MINT } },
      tokens: { [SGLD_MINT]: { symbol: 'WOOF', name: null, by: 'prompt' as const } },
    };
    expect(() => chooseToken('WOOF', known, 'you hold', 'hint', twice)).toThrow(/is bound to 2 tokens/);
  });
});

describe('holdings are one row per token (attack-log-4 R4-6)', () => {
  it('one row is the holding; none is none; two rows of one mint are the service contradicting itself (exit 3), never one picked', () => {
    const one = holding(WOOF_MINT, 'WOOF', 'Woof');
    expect(holdingOf([one, holding(SGLD_MINT, 'SGLD', 'Gold')], WOOF_MINT)).toBe(one);
    expect(holdingOf([one], SGLD_MINT)).toBeUndefined();
    expect(() => holdingOf([one, { ...one, amount: '1' } as Holding], WOOF_MINT)).toThrow(
      expect.objectContaining({ code: 'SERVICE_CONTRADICTION', exitCode: 3 }),
    );
  });
});
