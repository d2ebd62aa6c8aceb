// The command that follows a trade, printed in hints and errors.
import { shellQuote } from './shell-quote.js';

/** The command that follows a trade, with a service-given id quoted so a hostile id cannot run as shell code. */
export function followCommand(id: string): string {
  return `trader trades ${shellQuote(id)} --watch`;
}
