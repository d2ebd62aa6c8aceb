// The command that follows a trade, printed in hints and errors.
import { shellQuote } from '../domain/shell-quote.js';
import type { Context } from './context.js';
import { forPerson, personPrefix } from '../domain/person-command.js';

/** The command that follows a trade, with a service-given id quoted so a hostile id cannot run as shell code. */
export function followCommand(id: string): string {
  return `trader trades ${shellQuote(id)} --watch`;
}

/** `command` as a person runs it at their own terminal to reach what this run reached (domain/person-command.ts). */
export function personCommand(ctx: Context, command: string): string {
  const profile = ctx.settings?.profileName ?? 'default';
  return forPerson(command, personPrefix({ profile, env: ctx.env ?? {}, agent: ctx.facts?.agent === true, configPath: ctx.config?.path ?? '' }));
}
