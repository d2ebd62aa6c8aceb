// Text from the service reaches a person's terminal only after this: a hostile token name or
// key name must not clear the screen, retitle the window, move the cursor or reorder text.
// Our own colours (a few SGR codes) survive; every other escape and invisible control goes.

// SGR parameters the theme uses (chalk: bold, dim, colours and their resets). A service string
// carrying other SGR codes, such as conceal (8), loses them.
const ALLOWED_SGR = new Set(['0', '1', '2', '22', '31', '32', '33', '36', '39']);

// ESC-introduced sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), and two-byte escapes.
// eslint-disable-next-line no-control-regex
const ESCAPE = /\u001b\[([0-?]*)[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]?/g;
// C0 controls but tab and newline, DEL, C1 controls, bidi and zero-width format characters.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** The text with every escape but our colours, and every invisible control, removed. */
export function safeForTerminal(text: string): string {
  return text
    .replace(ESCAPE, (seq, params: string | undefined) => {
      const isSgr = seq.startsWith('\u001b[') && seq.endsWith('m') && params !== undefined;
      return isSgr && params.split(';').every((p) => ALLOWED_SGR.has(p || '0')) ? seq : '';
    })
    .replace(INVISIBLE, '');
}

/**
 * A service string shown inside a line (a token's symbol or name): also on one line, so that it
 * cannot add lines that pass for the review's own.
 */
export function oneLine(text: string): string {
  return safeForTerminal(text).replace(/[\t\n\u0085\u2028\u2029]+/g, ' ');
}
