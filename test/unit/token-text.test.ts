// Token symbols and names are compared as a reader sees them (attack-1 §7): an impostor whose
// symbol is WOOF plus an invisible character, in fullwidth letters, or in other case, reads as
// WOOF and is WOOF.
import { describe, expect, it } from 'vitest';
import { sameTokenText, tokenTextKey } from '../../src/domain/token-text.js';
import { bindToken } from '../../src/domain/token-binding.js';
import type { ChainTokenFacts } from '../../src/domain/token-meta.js';

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
    // attack-3 F9: the same script, not folded by NFKC
    ['Latin small capitals', '\u1D21\u1D0F\u1D0F\uA730'],
    ['a combining low line', 'WOOF\u0332'],
    ['a combining mark on each letter', 'W\u0301O\u0308O\u0303F\u0332'],
    ['modifier letters (superscripts)', '\u1D42\u1D3C\u1D3C\u1DA0'],
    ['small capitals under a combining mark', '\u1D21\u1D0F\u0332\u1D0F\uA730'],
  ])('%s reads as WOOF', (_name, text) => {
    expect(tokenTextKey(text)).toBe('woof');
    expect(sameTokenText(text, 'WOOF')).toBe(true);
  });

  it('whitespace runs of any kind are one space; case folds fully (ß is ss)', () => {
    expect(sameTokenText('Woof\u00A0\u2003Sandbox\n Dog', 'woof sandbox dog')).toBe(true);
    expect(sameTokenText('STRASSE', 'straße')).toBe(true);
  });

  it.each([
    ['\u1D00\u0299\u1D04\u1D05\u1D07\uA730\u0262\u029C\u026A\u1D0A\u1D0B\u029F\u1D0D', 'abcdefghijklm'],
    ['\u0274\u1D0F\u1D18\uA7AF\u0280\uA731\u1D1B\u1D1C\u1D20\u1D21\u028F\u1D22', 'nopqrstuvwyz'],
    ['\u1D01 \u0276', 'ae oe'],
    ['\uA7AE\u0274\u1D1C', 'inu'], // LATIN CAPITAL LETTER SMALL CAPITAL I, case-folded first
    ['\u1DA6\u1DAB\u1DB0\u1DB8', 'ilnu'], // MODIFIER LETTER SMALL CAPITAL I, L, N, U
    ['\u0251\u0261', 'ag'], // LATIN SMALL LETTER ALPHA, SCRIPT G
    ['Br\u00EFx', 'brix'],
  ])('the small capitals and look-alike Latin letters of %j read as %j', (text, ascii) => {
    expect(tokenTextKey(text)).toBe(ascii);
  });

  it('letters of other scripts, letters with a stroke and digits for letters stay apart (the residual SECURITY.md names)', () => {
    expect(sameTokenText('W\u041E\u041EF', 'WOOF')).toBe(false); // Cyrillic О
    expect(sameTokenText('\u0392RIX', 'BRIX')).toBe(false); // Greek Β
    expect(sameTokenText('\u0141OOF', 'LOOF')).toBe(false); // Ł
    expect(sameTokenText('Woof Sandbox D0g', 'Woof Sandbox Dog')).toBe(false);
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
  const chain = (symbol: string, name: string): ChainTokenFacts => ({
    mint: IMPOSTOR,
    program: 'spl-token',
    decimals: 5,
    symbol,
    name,
    metadataSource: 'metaplex',
  });
  it.each([
    ['WOOF\u200B', 'Woof Sandbox Dog\u{E0020}'],
    ['ＷＯＯＦ', 'Woof  Sandbox Dog'],
    ['woof\uFE0F', 'WOOF SANDBOX DOG'],
    ['WOOF\u2800', 'Woof Sandbox Dog\u2800'],
    ['\u1D21\u1D0F\u1D0F\uA730', 'Woof Sandbox Dog\u0332'],
  ])('%j / %j passes for the pinned WOOF: refused', (symbol, name) => {
    const binding = bindToken(IMPOSTOR, null, chain(symbol, name), null, {
      [WOOF]: { symbol: 'WOOF', name: 'Woof Sandbox Dog' },
    });
    expect(binding.problems).toEqual([
      expect.stringContaining(`which is pinned for token ${WOOF}: it would pass for that token`),
      expect.stringContaining(`which is pinned for token ${WOOF}: it would pass for that token`),
    ]);
  });
});
