// Token symbols and names are compared as a reader sees them (attack-1 §7): an impostor whose
// symbol is WOOF plus an invisible character, in fullwidth letters, or in other case, reads as
// WOOF and is WOOF.
import { describe, expect, it } from 'vitest';
import { sameTokenText, tokenTextKey } from '../../src/domain/token-text.js';
import { bindToken } from '../../src/domain/token-binding.js';
import type { ChainTokenFacts } from '../../src/domain/token.js';

describe('tokenTextKey', () => {
  it.each([
    ['a trailing zero-width space', 'WOOF\u200B'],
    ['a zero-width joiner inside', 'WO\u200DOF'],
    ['a BOM and a word joiner', '\uFEFFWOOF\u2060'],
    ['tag characters', 'WOOF\u{E0020}\u{E0041}'],
    ['a variation selector', 'WOOF\uFE0F'],
    ['a soft hyphen', 'WO\u00ADOF'],
    ['fullwidth letters', 'ＷＯＯＦ'],
    ['lower case', 'woof'],
    ['spaces around', '  WOOF '],
    ['a bidi mark', '\u200EWOOF'],
    ['a trailing BRAILLE PATTERN BLANK (attack-3 F9)', 'WOOF\u2800'],
    ['a Braille blank inside', 'WO\u2800OF'],
    ['a null notehead and a Khitan filler', '\u{1D159}WOOF\u{16FE4}'],
    ['Hangul fillers', 'W\u3164OO\uFFA0F\u115F\u1160'],
    ['an ideographic space after it', 'WOOF\u3000'],
  ])('%s reads as WOOF', (_name, text) => {
    expect(tokenTextKey(text)).toBe('woof');
    expect(sameTokenText(text, 'WOOF')).toBe(true);
  });

  it('whitespace runs of any kind are one space; case folds fully (ß is ss)', () => {
    expect(sameTokenText('Woof\u00A0\u2003Sandbox\n Dog', 'woof sandbox dog')).toBe(true);
    expect(sameTokenText('STRASSE', 'straße')).toBe(true);
  });

  it('different text, or empty, is not the same', () => {
    expect(sameTokenText('WOOF', 'WOOF2')).toBe(false);
    expect(sameTokenText('WO OF', 'WOOF')).toBe(false);
    expect(sameTokenText('\u200B', '')).toBe(false);
    expect(sameTokenText('\u2800', '\u2800')).toBe(false);
    expect(sameTokenText('WOOF\u2801', 'WOOF')).toBe(false); // a Braille dot is seen
    expect(sameTokenText(null, null)).toBe(false);
  });
});

describe('an impostor whose chain symbol reads as a pinned one', () => {
  const WOOF = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
  const IMPOSTOR = '4kezffhjYn1FXi3oCeBqPiSwbioCnSyUH5hF3WwpATYt';
  const chain = (symbol: string, name: string): ChainTokenFacts => ({ mint: IMPOSTOR, program: 'spl-token', decimals: 5, symbol, name, metadataSource: 'metaplex' });
  it.each([
    ['WOOF\u200B', 'Woof Sandbox Dog\u{E0020}'],
    ['ＷＯＯＦ', 'Woof  Sandbox Dog'],
    ['woof\uFE0F', 'WOOF SANDBOX DOG'],
    ['WOOF\u2800', 'Woof Sandbox Dog\u2800'],
  ])('%j / %j passes for the pinned WOOF: refused', (symbol, name) => {
    const binding = bindToken(IMPOSTOR, null, chain(symbol, name), null, { [WOOF]: { symbol: 'WOOF', name: 'Woof Sandbox Dog' } });
    expect(binding.problems).toEqual([
      expect.stringContaining(`which is pinned for token ${WOOF}: it would pass for that token`),
      expect.stringContaining(`which is pinned for token ${WOOF}: it would pass for that token`),
    ]);
  });
});
