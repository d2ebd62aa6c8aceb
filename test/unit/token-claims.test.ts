import { describe, expect, it } from 'vitest';
import { symbolPinnedElsewhere } from '../../src/domain/token-claims.js';
import { knownTokens, mintForSymbol, resolveTokenMint } from '../../src/trade/token-lookup.js';
import { UsageError } from '../../src/errors.js';
import type { Holding } from '../../src/api/types.js';

// The red team's mints (round 2): WOOF pinned by an honest sell, then SGLD's mint relabelled.
const WOOF_MINT = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
const SGLD_MINT = 'F9EMmE5iFqHwzksCWVoGG21SuqD9iFXtkRdKG9ENeRwo';
const PINNED = { [WOOF_MINT]: { symbol: 'WOOF', name: 'Woof Sandbox Dog' }, [SGLD_MINT]: { symbol: 'SGLD', name: 'Sandbox Gold' } };
const ONLY_WOOF = { [WOOF_MINT]: PINNED[WOOF_MINT]! };

const holding = (mint: string, symbol: string, name: string): Holding => ({ mint, symbol, name, decimals: 6, amount: '854547' }) as unknown as Holding;

describe('a pinned symbol belongs to its mint (red team round 2, class A; a chain symbol on another mint: token-binding)', () => {
  it('a typed symbol pinned for another mint: the mint it resolves to must be the pinned one', () => {
    expect(symbolPinnedElsewhere('WOOF', WOOF_MINT, PINNED)).toBeNull();
    expect(symbolPinnedElsewhere('NEWT', SGLD_MINT, PINNED)).toBeNull();
    const line = symbolPinnedElsewhere('$woof', SGLD_MINT, PINNED);
    expect(line).toContain(`pinned for token ${WOOF_MINT}`);
    expect(line).toContain(`gives that symbol to token ${SGLD_MINT}`);
    expect(line).toContain('trader config trust forget tokens');
  });

  it('`sell WOOF` with WOOF left out of holdings and the SGLD mint relabelled WOOF: exit 2, not resolved to SGLD', () => {
    const holdings = [holding(SGLD_MINT, 'WOOF', 'Woof Sandbox Dog')];
    expect(mintForSymbol(holdings, 'WOOF')).toBe(SGLD_MINT); // without the pins, the old behaviour
    for (const typed of ['WOOF', 'woof', '$WOOF']) {
      let err: unknown;
      try {
        mintForSymbol(holdings, typed, PINNED);
      } catch (e) {
        err = e;
      }
      expect(err, typed).toBeInstanceOf(UsageError);
      expect((err as UsageError).exitCode).toBe(2);
      expect((err as UsageError).message).toContain(WOOF_MINT);
      expect((err as UsageError).message).toContain(SGLD_MINT);
    }
  });

  it('`buy WOOF` with the real WOOF relabelled and SGLD claiming WOOF: exit 2; honest symbols and mint prefixes still resolve', () => {
    const known = knownTokens({ holdings: [holding(WOOF_MINT, 'DOGE2', 'Something Else'), holding(SGLD_MINT, 'WOOF', 'Woof Sandbox Dog')] });
    expect(() => resolveTokenMint('WOOF', known, 'you have held or traded', 'hint', PINNED)).toThrow(UsageError);
    const honest = knownTokens({ holdings: [holding(WOOF_MINT, 'WOOF', 'Woof Sandbox Dog'), holding(SGLD_MINT, 'SGLD', 'Sandbox Gold')] });
    expect(resolveTokenMint('woof', honest, 'you hold', 'hint', PINNED)).toBe(WOOF_MINT);
    expect(resolveTokenMint('SGLD', honest, 'you hold', 'hint', PINNED)).toBe(SGLD_MINT);
    // A mint prefix is the mint itself: no symbol is read from it.
    expect(resolveTokenMint(SGLD_MINT.slice(0, 8), known, 'you hold', 'hint', PINNED)).toBe(SGLD_MINT);
  });

  it('two tokens under the pinned symbol: the pinned mint is the one meant; without a pin, or for an unpinned symbol, still ambiguous (exit 2)', () => {
    const known = knownTokens({ holdings: [holding(SGLD_MINT, 'WOOF', 'Woof Sandbox Dog'), holding(WOOF_MINT, 'WOOF', 'Woof Sandbox Dog')] });
    expect(resolveTokenMint('WOOF', known, 'you hold', 'hint', PINNED)).toBe(WOOF_MINT);
    expect(resolveTokenMint('$woof', known, 'you hold', 'hint', ONLY_WOOF)).toBe(WOOF_MINT);
    expect(() => resolveTokenMint('WOOF', known, 'you hold', 'hint')).toThrow(/could be any of 2 tokens/);
    const twoSgld = knownTokens({ holdings: [holding(SGLD_MINT, 'SGLD', 'a'), holding(WOOF_MINT, 'SGLD', 'b')] });
    expect(() => resolveTokenMint('SGLD', twoSgld, 'you hold', 'hint', ONLY_WOOF)).toThrow(/could be any of 2 tokens/);
  });
});
