// A command printed for a person to run at their own terminal (accept-wording, a resume, a
// follow) reaches what this run reached only with what chose it there: a profile picked by
// --profile (or, under MCP, by the client's args or env, which the person's shell does not
// have), and, under MCP, a config file the client's env named.
import { shellQuote } from './shell-quote.js';

/** What a person's command needs before and after `trader`: `TRADER_CONFIG=… ` and `--profile … `; empty when nothing. */
export interface PersonPrefix {
  env: string;
  options: string;
}

/** The prefix for this run: `profile` as chosen, `agent` when an MCP client started it, `configPath` the file read. */
export function personPrefix(run: {
  profile: string;
  env: Record<string, string | undefined>;
  agent: boolean;
  configPath: string;
}): PersonPrefix {
  const { profile, env, agent } = run;
  const needsProfile = profile !== 'default' && (agent || profile !== env.TRADER_PROFILE);
  const namedConfig = agent && (env.TRADER_CONFIG || env.XDG_CONFIG_HOME);
  return {
    env: namedConfig ? `TRADER_CONFIG=${shellQuote(run.configPath)} ` : '',
    options: needsProfile ? `--profile ${shellQuote(profile)} ` : '',
  };
}

/** `text` with each `trader <command>` in it given the prefix (a command already given options, `trader sandbox` or `trader mcp`, is left as it is). */
export function forPerson(text: string, prefix: PersonPrefix): string {
  if (prefix.env === '' && prefix.options === '') return text;
  return text.replace(
    /(^|[\s`'"(])trader (?!-|sandbox\b|mcp\b)(?=[a-z])/g,
    (_, before: string) => `${before}${prefix.env}trader ${prefix.options}`,
  );
}
