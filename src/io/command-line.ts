// A command the user may copy (resume, follow, accept) is never broken by the terminal inside
// an id: it shares its line with the words that lead to it only when the whole line fits the
// width; otherwise it stands alone on the next line, unindented, so a wrapped command is still
// one line that copies whole.
import { displayWidth } from './display-width.js';

/** `lead command` when it fits `columns`, else `lead` and the command on a line of its own. */
export function withCommand(lead: string, command: string, columns: number): string {
  const one = `${lead} ${command}`;
  return displayWidth(one) <= columns ? one : `${lead}\n${command}`;
}
