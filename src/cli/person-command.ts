// A command printed for a person, as they run it at their own terminal to reach what this run
// reached (domain/person-prefix.ts): with this run's profile and, under MCP, its config file.
import type { Context } from './context.js';
import { forPerson, personPrefix } from '../domain/person-prefix.js';

/** `command` as a person runs it at their own terminal to reach what this run reached. */
export function personCommand(ctx: Context, command: string): string {
  const profile = ctx.settings?.profileName ?? 'default';
  return forPerson(
    command,
    personPrefix({ profile, env: ctx.env ?? {}, agent: ctx.facts?.agent === true, configPath: ctx.config?.path ?? '' }),
  );
}
