// A command the user may copy (resume, follow, accept) is never broken by the terminal inside
// an id: it shares its line with the words that lead to it only when the whole line fits the
// width; otherwise it stands alone on the next line, unindented. On a terminal, a command wider
// than the terminal is laid out as shell lines joined by ` \` and broken only between words, so
// no line wraps and pasting the lines into a shell runs the same command.
import { displayWidth } from './display-width.js';
import { packWords, wrapWords } from './word-wrap.js';

/** How continuation lines of a command are indented. */
const INDENT = '  ';
const CONTINUED = ' \\';

/**
 * `lead command` when it fits `columns`, else `lead` and the command on a line of its own. With
 * `onTerminal` (human text shown on a terminal `columns` wide), the lead is wrapped at spaces and a
 * command wider than the terminal is laid out as continuation lines; off a terminal it stays one line for scripts.
 */
export function withCommand(lead: string, command: string, columns: number, onTerminal = false): string {
  const one = `${lead} ${command}`;
  if (displayWidth(one) <= columns) return one;
  return onTerminal ? `${wrapWords(lead, columns)}\n${commandLines(command, columns)}` : `${lead}\n${command}`;
}

/**
 * The command as shell lines no wider than `columns`: itself when it fits, else words joined by
 * ` \` continuations, continuation lines indented. It breaks only where the shell splits words
 * (a space outside quotes); a word too wide for any line stands alone on its line, whole.
 */
export function commandLines(command: string, columns: number): string {
  if (displayWidth(command) <= columns) return command;
  const words = shellWords(command);
  // Every line but the last ends in ` \`, so a word joins a line only with room left for it.
  const room = (i: number) => (i === words.length - 1 ? columns : columns - CONTINUED.length);
  return packWords(words, { room, first: '', next: INDENT }).join(`${CONTINUED}\n`);
}

/** The command's words as the shell splits them: spaces inside '…' or "…" do not split. */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | null = null;
  for (const ch of command) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === ' ') {
      if (word) words.push(word);
      word = '';
      continue;
    }
    word += ch;
  }
  if (word) words.push(word);
  return words;
}
