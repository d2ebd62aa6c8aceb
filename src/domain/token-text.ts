// A token's symbol and name are anyone's text: whoever creates a token writes its metadata. Two
// of them are the same to a reader when they read the same, so they are compared as a reader
// sees them: compatibility forms folded (NFKC: fullwidth ＷＯＯＦ is WOOF), invisible and format
// characters gone (WOOF plus a zero-width space is WOOF), whitespace runs one space, case folded.
// Look-alike letters of other scripts (Cyrillic О for Latin O) are not folded (SECURITY.md).

const HIDDEN = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2028\u2029]/gu;

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
