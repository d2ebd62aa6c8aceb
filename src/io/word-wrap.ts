// The one wrapping rule of human text: lines break at spaces, never inside a value, so the
// terminal never breaks a word (`ne`/`eds`), a mint, a signature, a number or a time. A
// backquoted span (`trader sandbox stop`) and a time (`2026-11-24 05:14:03 UTC`) are one
// unbreakable piece each. A piece that does not fit after the words before it moves to its own
// line; one wider than the whole line stands alone on its line, whole (key–value views shorten it
// on a terminal: io/table.ts renderFields).
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
  return packWords(piecesOf(line.slice(indent.length)), { room: () => columns, first: indent, next: indent }).join(
    '\n',
  );
}

/**
 * Words joined by spaces into as few lines as fit, greedily: a word joins the line when the line
 * stays within `room(its index)`, else it starts the next line (`next` before it). A line's first
 * word always stays, however wide.
 */
export function packWords(
  words: readonly string[],
  opts: { room(wordIndex: number): number; first: string; next: string },
): string[] {
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

/** A date, a time of day and a zone name, as the people's notation writes them (domain/local-time.ts): one piece. */
const DATE = /^\d{4}-\d\d-\d\d$|^\d\d-\d\d$/;
const TIME = /^\d\d:\d\d(:\d\d)?[,.;:)]?$/;
const ZONE = /^(UTC|GMT([+-]\d{1,2}(:\d\d)?)?|[A-Z]{2,5})[,.;:)]?$/;

/** The pieces of `text` no line may break: words, backquoted spans and times whole, a shell continuation `\` with the word before it. */
export function piecesOf(text: string): string[] {
  const pieces = rawPieces(text);
  const out: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    let piece = pieces[i]!;
    if (DATE.test(piece) && TIME.test(pieces[i + 1] ?? '')) {
      piece = `${piece} ${pieces[++i]}`;
      if (!/[,.;:)]$/.test(piece) && ZONE.test(pieces[i + 1] ?? '')) piece = `${piece} ${pieces[++i]}`;
    }
    out.push(piece);
  }
  return out;
}

function rawPieces(text: string): string[] {
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
