// A token's symbol and name are anyone's text: whoever creates a token writes its metadata. Two
// of them are the same to a reader when they read the same, so they are compared as a reader
// sees them: compatibility forms folded (NFKD: fullwidth ＷＯＯＦ, math bold, circled and
// superscript letters are WOOF), combining marks gone (WOOF plus U+0332 COMBINING LOW LINE, or an
// accent, is WOOF), Latin small capitals and a few letters drawn as another (below) their ASCII
// letter, invisible and format characters gone (WOOF plus a zero-width space is WOOF),
// whitespace runs one space, case folded. Look-alike letters of other scripts (Cyrillic О for
// Latin O, Greek Α for A), letters with a stroke (ł) and digits for letters (D0g) are not
// folded (SECURITY.md).

/**
 * Characters a font draws as nothing that are neither whitespace nor default-ignorable, so the
 * Unicode classes below miss them: BRAILLE PATTERN BLANK (WOOF⠀ reads as WOOF), MUSICAL SYMBOL
 * NULL NOTEHEAD, KHITAN SMALL SCRIPT FILLER. The Hangul fillers are default-ignorable already.
 * Named in human output as what cannot be seen is (io/terminal-text.ts), and gone when compared.
 */
export const BLANK_GLYPHS = '\u2800\u{1D159}\u{16FE4}';

const HIDDEN = new RegExp(`[\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2028\\u2029${BLANK_GLYPHS}]`, 'gu');

/**
 * Latin letters that read as an ASCII letter but that no Unicode normalization folds: the small
 * capitals (each LATIN LETTER SMALL CAPITAL x, from IPA Extensions U+0250–U+02AF, Phonetic
 * Extensions U+1D00–U+1D2B and Latin Extended-D; their modifier forms, like U+1DA6 MODIFIER
 * LETTER SMALL CAPITAL I, decompose to them under NFKD), and LATIN SMALL LETTER ALPHA (U+0251)
 * and SCRIPT G (U+0261). Keys are lower case: the text is case-folded before the lookup, so
 * U+A7AE LATIN CAPITAL LETTER SMALL CAPITAL I is found as U+026A.
 */
const LATIN_LOOK_ALIKES: Record<string, string> = {
  '\u1D00': 'a', // ᴀ LATIN LETTER SMALL CAPITAL A
  '\u1D01': 'ae', // ᴁ LATIN LETTER SMALL CAPITAL AE
  '\u0299': 'b', // ʙ LATIN LETTER SMALL CAPITAL B
  '\u1D04': 'c', // ᴄ LATIN LETTER SMALL CAPITAL C
  '\u1D05': 'd', // ᴅ LATIN LETTER SMALL CAPITAL D
  '\u1D07': 'e', // ᴇ LATIN LETTER SMALL CAPITAL E
  '\uA730': 'f', // ꜰ LATIN LETTER SMALL CAPITAL F
  '\u0262': 'g', // ɢ LATIN LETTER SMALL CAPITAL G
  '\u029C': 'h', // ʜ LATIN LETTER SMALL CAPITAL H
  '\u026A': 'i', // ɪ LATIN LETTER SMALL CAPITAL I
  '\u1D0A': 'j', // ᴊ LATIN LETTER SMALL CAPITAL J
  '\u1D0B': 'k', // ᴋ LATIN LETTER SMALL CAPITAL K
  '\u029F': 'l', // ʟ LATIN LETTER SMALL CAPITAL L
  '\u1D0D': 'm', // ᴍ LATIN LETTER SMALL CAPITAL M
  '\u0274': 'n', // ɴ LATIN LETTER SMALL CAPITAL N
  '\u1D0F': 'o', // ᴏ LATIN LETTER SMALL CAPITAL O
  '\u0276': 'oe', // ɶ LATIN LETTER SMALL CAPITAL OE
  '\u1D18': 'p', // ᴘ LATIN LETTER SMALL CAPITAL P
  '\uA7AF': 'q', // ꞯ LATIN LETTER SMALL CAPITAL Q
  '\u0280': 'r', // ʀ LATIN LETTER SMALL CAPITAL R
  '\uA731': 's', // ꜱ LATIN LETTER SMALL CAPITAL S
  '\u1D1B': 't', // ᴛ LATIN LETTER SMALL CAPITAL T
  '\u1D1C': 'u', // ᴜ LATIN LETTER SMALL CAPITAL U
  '\u1D20': 'v', // ᴠ LATIN LETTER SMALL CAPITAL V
  '\u1D21': 'w', // ᴡ LATIN LETTER SMALL CAPITAL W
  '\u028F': 'y', // ʏ LATIN LETTER SMALL CAPITAL Y
  '\u1D22': 'z', // ᴢ LATIN LETTER SMALL CAPITAL Z
  '\u0251': 'a', // ɑ LATIN SMALL LETTER ALPHA
  '\u0261': 'g', // ɡ LATIN SMALL LETTER SCRIPT G
};
const LOOK_ALIKE = new RegExp(`[${Object.keys(LATIN_LOOK_ALIKES).join('')}]`, 'gu');

/** The form a token's symbol or name is compared in. */
export function tokenTextKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .toLowerCase()
    .replace(LOOK_ALIKE, (ch) => LATIN_LOOK_ALIKES[ch]!)
    .normalize('NFKC')
    .replace(HIDDEN, (ch) => (/\s/u.test(ch) ? ' ' : ''))
    .replace(/\s+/gu, ' ')
    .trim()
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKC');
}

/** Whether two symbols or names read the same (neither empty). */
export function sameTokenText(a: string | null | undefined, b: string | null | undefined): boolean {
  return (
    typeof a === 'string' && typeof b === 'string' && tokenTextKey(a) !== '' && tokenTextKey(a) === tokenTextKey(b)
  );
}
