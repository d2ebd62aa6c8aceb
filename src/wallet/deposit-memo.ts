// The text of an SPL Memo beside a deposit's transfer. A service may tag its deposits with a
// memo (it moves nothing and touches no account); the person sees its text in the review before
// signing, so the text must read as what it is: printable, on one line, nothing hidden.
//
// The rule (docs/checks.md): UTF-8 (the Memo program fails a transaction whose memo is not,
// after the fee is taken); no control, format, invisible, private-use or unassigned character,
// and no space but U+0020 (each named in the refusal); at most MEMO_MAX_COLUMNS columns, an ASCII
// character counting one and any other two (wide CJK and emoji take two; a combining mark counts
// two too, so stacked marks cannot spill over the lines around it). 60 columns plus the review's
// label column and the quotes fit an 80-column terminal on one line.
import { codePoint } from '../domain/printable.js';

/** The SPL Memo programs: v1 and v3 (the current one). */
export const MEMO_PROGRAMS: Record<string, string> = {
  Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo: 'SPL Memo v1',
  MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr: 'SPL Memo',
};

/** The most columns a memo's text may take in the review. */
export const MEMO_MAX_COLUMNS = 60;

// Not printable: controls, format characters (zero-width, bidi), surrogates, private use,
// unassigned; every default-ignorable; line and paragraph separators; spaces other than U+0020;
// the glyphs a font draws blank (as domain/token-text.ts lists them).
const NOT_PRINTABLE = /[\p{C}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\u2800\u{1D159}\u{16FE4}]|(?! )\p{Zs}/gu;

const C0_NAMES = [
  'NUL',
  'SOH',
  'STX',
  'ETX',
  'EOT',
  'ENQ',
  'ACK',
  'BEL',
  'BS',
  'TAB',
  'LF',
  'VT',
  'FF',
  'CR',
  'SO',
  'SI',
  'DLE',
  'DC1',
  'DC2',
  'DC3',
  'DC4',
  'NAK',
  'SYN',
  'ETB',
  'CAN',
  'EM',
  'SUB',
  'ESC',
  'FS',
  'GS',
  'RS',
  'US',
];

/** `U+001B ESC`: a character a person could not see, named. */
function named(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const name = cp < 0x20 ? C0_NAMES[cp] : cp === 0x7f ? 'DEL' : null;
  return `${codePoint(ch)}${name ? ` ${name}` : ''}`;
}

/** Columns the text takes, counted as the rule says: ASCII one, anything else two. */
export function memoColumns(text: string): number {
  let columns = 0;
  for (const ch of text) columns += ch.codePointAt(0)! < 0x80 ? 1 : 2;
  return columns;
}

/** The memo's text when it may be shown and signed, else why not (one line, ending in what the service should change). */
export function memoText(data: Uint8Array): { text: string } | { problem: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    return {
      problem:
        'its memo is not UTF-8 text (the Memo program would fail the transaction, the fee still taken); tell the operator of the service to write memos as plain text',
    };
  }
  const hidden = [...new Set(text.match(NOT_PRINTABLE) ?? [])];
  if (hidden.length > 0) {
    const shown =
      hidden.slice(0, 5).map(named).join(', ') + (hidden.length > 5 ? ` and ${hidden.length - 5} more` : '');
    return {
      problem: `its memo holds characters that are not printable text (${shown}); tell the operator of the service to write memos as plain text on one line`,
    };
  }
  const columns = memoColumns(text);
  if (columns > MEMO_MAX_COLUMNS) {
    return {
      problem: `its memo takes ${columns} columns, more than the ${MEMO_MAX_COLUMNS} the review shows on one line (ASCII counts one, any other character two); tell the operator of the service to shorten it`,
    };
  }
  return { text };
}
