// Human text on a terminal is wrapped at spaces, so the terminal never breaks a word (`ne`/`eds`).
// A backquoted span (`trader sandbox stop`) is one unbreakable piece: a command to copy stays on
// one line. A piece wider than the line stands alone on its line, whole: the terminal may fold
// it, but no space is invented inside it.
import { displayWidth } from './display-width.js';

/** `text` with each line longer than `columns` broken at spaces into lines of at most `columns` (keeping its indentation). */
export function wrapWords(text: string, columns: number): string {
  return text
    .split('\n')
    .map((line) => wrapLine(line, columns))
    .join('\n');
}

function wrapLine(line: string, columns: number): string {
  if (displayWidth(line) <= columns) return line;
  const indent = /^ */.exec(line)![0];
  return packWords(piecesOf(line.slice(indent.length)), { room: () => columns, first: indent, next: indent }).join('\n');
}

/**
 * Words joined by spaces into as few lines as fit, greedily: a word joins the line when the line
 * stays within `room(its index)`, else it starts the next line (`next` before it). A line's first
 * word always stays, however wide.
 */
export function packWords(words: readonly string[], opts: { room(wordIndex: number): number; first: string; next: string }): string[] {
  const lines: string[] = [];
  let line = '';
  words.forEach((word, i) => {
    const candidate = line === '' ? `${opts.first}${word}` : `${line} ${word}`;
    if (line === '' || displayWidth(candidate) <= opts.room(i)) line = candidate;
    else {
      lines.push(line);
      line = `${opts.next}${word}`;
    }
  });
  lines.push(line);
  return lines;
}

/** The line's unbreakable pieces: words, backquoted spans whole, and a shell continuation `\` kept with the word before it. */
function piecesOf(text: string): string[] {
  const pieces: string[] = [];
  let piece = '';
  let inQuote = false;
  for (const ch of text) {
    if (ch === '`') inQuote = !inQuote;
    if (ch === ' ' && !inQuote) {
      if (piece) pieces.push(piece);
      piece = '';
    } else piece += ch;
  }
  if (piece) pieces.push(piece);
  if (pieces.length > 1 && pieces[pieces.length - 1] === '\\') pieces.splice(-2, 2, `${pieces[pieces.length - 2]} \\`);
  return pieces;
}
