// Text from the service reaches a person's terminal only after this: a hostile token name or
// key name must not clear the screen, retitle the window, move the cursor or reorder text.
// Our own colours (a few SGR codes) survive; every other escape goes, and what cannot be seen is named.
import { BLANK_GLYPHS } from '../domain/token-text.js';
import { codePoint } from '../domain/printable.js';

// SGR parameters the theme uses (chalk: bold, dim, colours and their resets). A service string
// carrying other SGR codes, such as conceal (8), loses them.
const ALLOWED_SGR = new Set(['0', '1', '2', '22', '31', '32', '33', '36', '39']);

// ESC-introduced sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), and two-byte escapes.

const ESCAPE = /\u001b\[([0-?]*)[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]?/g;
// What a person cannot see: controls but tab, newline (a CSV's CR LF line end too: that CR
// hides nothing) and ESC (escape sequences are dealt with above), format characters (zero-width,
// bidi controls, tag characters), variation selectors and every other default-ignorable code
// point, line and paragraph separators, and the characters a font draws blank (BRAILLE PATTERN BLANK and the few like it). Shown as <U+200B>, never
// raw (a name "WOOF" with an invisible character in it must not read as "WOOF", and tag
// characters must not carry hidden text to the screen) and never dropped without a trace.
const HIDDEN = new RegExp(
  `(?![\\t\\n\\u001b]|\\r\\n)[\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2028\\u2029${BLANK_GLYPHS}]`,
  'gu',
);

/** `<U+200B>`: a character that cannot be seen, named. */
const named = (ch: string) => `<${codePoint(ch)}>`;

/** The text with every escape but our colours removed, and every invisible character named where it stood. */
export function safeForTerminal(text: string): string {
  return text
    .replace(ESCAPE, (seq, params: string | undefined) => {
      const isSgr = seq.startsWith('\u001b[') && seq.endsWith('m') && params !== undefined;
      return isSgr && params.split(';').every((p) => ALLOWED_SGR.has(p || '0')) ? seq : '';
    })
    .replace(HIDDEN, named);
}

/**
 * A service string shown inside a line (a token's symbol or name, wherever it is shown: reviews,
 * lists, `config trust`): every control character in it is named where it stood (a newline is
 * `<U+000A>`, an escape `<U+001B>` followed by the rest of its sequence as text, a tab
 * `<U+0009>`), as is everything else that cannot be seen, so it stays on its line, moves nothing
 * on the screen and hides nothing of what the service sent.
 */
export function oneLine(text: string): string {
  return text.replace(SHOWN_NAMED, named);
}
// Controls (all of them here), format characters, default-ignorables, line and paragraph separators, blank glyphs.
const SHOWN_NAMED = new RegExp(`[\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2028\\u2029${BLANK_GLYPHS}]`, 'gu');

/**
 * A token's symbol or name, or a sell message's slot value, where the screen marks values ⟦…⟧
 * (the sell's review, `config trust`, the MCP elicitation text): as oneLine, and the markers
 * themselves and combining marks (which stack onto the characters around them) named, so a
 * value cannot draw a slot's edge or bury its neighbours under marks.
 */
export function markedValue(text: string): string {
  return oneLine(text).replace(/[\u27e6\u27e7\p{Mn}\p{Me}]/gu, named);
}
