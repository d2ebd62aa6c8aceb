// A command printed for a person to run at their own terminal (accept-wording, a resume, a
// follow) reaches what this run reached only with what chose it there: a profile picked by
// --profile (or, under MCP, by the client's args or env, which the person's shell does not
// have), and, under MCP, a config file the client's env named.
import { shellQuote } from './shell-quote.js';

/** What a person's command needs before and after `trader`: `TRADER_CONFIG=… ` and `--profile … `; empty when nothing. */
export interface PersonPrefix {
  env: string;
  options: string;
  /** The profile `options` names, if it names one. */
  profile?: string;
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
    ...(needsProfile ? { profile } : {}),
  };
}

/** The sandbox recipe, as every hint that names it writes it (forPerson finds it by this text). */
export const SANDBOX_RECIPE = 'eval "$(trader sandbox --background)"';

/**
 * `text` with each `trader <command>` in it given the prefix (a command already given options,
 * `trader sandbox` or `trader mcp`, is left as it is). With a profile, the sandbox recipe is
 * followed by the command that refreshes a profile a sandbox saved: the variables `eval` sets do
 * not reach a run that reads the profile (an MCP client's, or `--profile`). Only offered, never in
 * its place: it overwrites the profile's service, key and keypair, which a profile of a real
 * service behind a local tunnel must keep.
 */
export function forPerson(text: string, prefix: PersonPrefix): string {
  if (prefix.env === '' && prefix.options === '') return text;
  if (prefix.profile)
    text = text.replaceAll(
      `\`${SANDBOX_RECIPE}\``,
      `\`${SANDBOX_RECIPE}\` (if profile "${prefix.profile}" was saved by a sandbox: \`${prefix.env}trader sandbox --background --write-profile ${shellQuote(prefix.profile)}\`)`,
    );
  return text.replace(
    /(^|[\s`'"(])trader (?!-|sandbox\b|mcp\b)(?=[a-z])/g,
    (_, before: string) => `${before}${prefix.env}trader ${prefix.options}`,
  );
}
