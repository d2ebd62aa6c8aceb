// A token's symbol and name are anyone's text: whoever creates a token writes its metadata. Two
// of them are the same to a reader when they read the same, so they are compared as a reader
// sees them: compatibility forms folded (NFKC: fullwidth ＷＯＯＦ is WOOF), invisible and format
// characters gone (WOOF plus a zero-width space is WOOF), whitespace runs one space, case folded.
// Look-alike letters of other scripts (Cyrillic О for Latin O) are not folded (SECURITY.md).

/**
 * Characters a font draws as nothing that are neither whitespace nor default-ignorable, so the
 * Unicode classes below miss them: BRAILLE PATTERN BLANK (WOOF⠀ reads as WOOF), MUSICAL SYMBOL
 * NULL NOTEHEAD, KHITAN SMALL SCRIPT FILLER. The Hangul fillers are default-ignorable already.
 * Named in human output as what cannot be seen is (io/terminal-text.ts), and gone when compared.
 */
export const BLANK_GLYPHS = '\u2800\u{1D159}\u{16FE4}';

const HIDDEN = new RegExp(`[\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2028\\u2029${BLANK_GLYPHS}]`, 'gu');

/** The form a token's symbol or name is compared in. */
export function tokenTextKey(text: string): string {
  return text
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
  return typeof a === 'string' && typeof b === 'string' && tokenTextKey(a) !== '' && tokenTextKey(a) === tokenTextKey(b);
}
