// The one form of an error line a person reads: `error: <message>`, lower case, as commander
// writes its own. bin/trader.js loads this before the Node.js version check has passed, so it
// imports nothing and uses nothing newer than ES2020.

/** The prefix of every human error line. */
export const ERROR_PREFIX = 'error: ';

/** `error: <message>`: the first line of every error a person reads. */
export function errorLine(message: string): string {
  return `${ERROR_PREFIX}${message}`;
}

/** The message of an error line (a line without the prefix is returned as it is). */
export function errorMessage(line: string): string {
  return line.startsWith(ERROR_PREFIX) ? line.slice(ERROR_PREFIX.length).trimStart() : line;
}
