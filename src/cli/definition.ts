// What a command is: its arguments and options (help, units, defaults), a pure parse from the
// raw argv values to typed options, and run(ctx, options), all in the command's own module. The
// command table (src/command-table.ts) names and summarises each command; a command's module is
// imported only when it runs or its help is asked for, and what its run needs that is heavy
// (the trade flows, the sandbox) only when it runs.
import type { ProfileKey } from '../config/config-file.js';
import type { GlobalOptions } from '../config/settings.js';
import type { CapturedRun, Context, ProcessFacts } from './context.js';

/** A positional argument: `<token>` (required) or `[id]` (optional). */
export interface ArgumentSpec {
  name: string;
  help: string;
  /** The values shell completion offers for it, when they are a fixed list. */
  values?: readonly string[];
}

/** An option as the user types it. */
export interface OptionSpec {
  /** As commander reads them: `--slippage-bps <bps>`, `-y, --yes`, `--no-wait`. */
  flags: string;
  help: string;
  /** The environment variable that also sets it, shown in the help. */
  env?: string;
  /** The config key that sets it when neither the option nor the environment does, shown in the help. */
  configKey?: ProfileKey;
  /** What applies when none of those is set, shown in the help: always a constant parse or run applies too. */
  default?: string | number | bigint;
  /** The values shell completion offers for it, when they are a fixed list. */
  values?: readonly string[];
  /** Help heading (the global options are grouped). */
  group?: string;
  /**
   * One line where room is short (a global option in `trader --help` and after a command's own
   * options); the full help, with env, config key and default, is the catalog's (`trader commands`).
   */
  short?: string;
}

/** What commander hands a command, unparsed: its arguments, its own options, and the global options (already parsed). */
export interface RawInput {
  args: ReadonlyArray<string | undefined>;
  options: Readonly<Record<string, unknown>>;
  globals: GlobalOptions;
}

/** A command's work: options arrive typed, as its definition's parse returned them. */
export type RunFunction<O> = (ctx: Context, options: O, program: ProgramFacts) => Promise<void>;

/**
 * The program itself, handed to every run by the entry (program.ts, run.ts): the commands that
 * describe or serve the CLI (commands, completion, mcp) read it, so nothing below the entry
 * imports the entry and the context knows nothing of the commands.
 */
export interface ProgramFacts {
  /** The command table the program was built from (src/command-table.ts). */
  commands: readonly CommandEntry[];
  /** Runs `trader <argv>` in this process with these facts, stdin empty, and returns what it wrote. */
  runCaptured(argv: string[], facts: Omit<ProcessFacts, 'stdout' | 'stderr' | 'stdin'>): Promise<CapturedRun>;
}

/** What `--help` shows of a command besides its name and summary. */
export interface CommandHelp {
  arguments?: readonly ArgumentSpec[];
  options?: readonly OptionSpec[];
  /** Help after the options (before the examples). */
  helpAfter?: string;
  examples?: readonly string[];
  /** Commands under this one (`config set`, `config trust forget`). */
  subcommands?: readonly Subcommand[];
}

export interface CommandDefinition<O> extends CommandHelp {
  /** Config commands run when the profile holds a value they would refuse, or it could not be fixed. */
  lenient?: boolean;
  /** Raw argv values → typed options; throws a UsageError (exit 2) for what cannot be. Pure: no I/O, no clock. */
  parse(raw: RawInput): O;
  /** The work, with the options parse returned. */
  run: RunFunction<NoInfer<O>>;
}

/** A command that only groups others (`trader config`). */
export interface CommandGroup extends CommandHelp {
  subcommands: readonly Subcommand[];
}

/** A command whatever its options, or a group (for lists of commands). */
// The options type is each definition's own; a list of them cannot name one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table of commands whose options differ: each is checked at its own definition
export type AnyCommand = CommandDefinition<any> | CommandGroup;

/**
 * What a command may touch, said by every command (required, so a new one cannot leave it out):
 * the catalog (`trader commands`) and the MCP server read it.
 */
export interface CommandTraits {
  /** Can move money or change what the tool trusts or allows: a trade, a pin, a limit, the service. */
  dangerous: boolean;
  /** Sends the API key to the service. */
  needsApiKey: boolean;
  /** Reads the owner's keypair (to sign, or to check it is the account's wallet). */
  needsKeypair: boolean;
}

/**
 * A command as `trader --help` lists it: name, heading and one line, and where the rest of its
 * definition is, loaded only when it runs or its own help is asked for.
 */
export interface CommandEntry extends CommandTraits {
  name: string;
  group: string;
  summary: string;
  /** The global options that matter to it (and its subcommands), by long flag: its help ends with them. */
  globals: readonly GlobalFlag[];
  definition(): Promise<AnyCommand>;
}

/** A global option by its long flag. */
export type GlobalFlag =
  | '--base-url'
  | '--api-key'
  | '--api-key-file'
  | '--api-key-stdin'
  | '--profile'
  | '--request-timeout'
  | '--insecure'
  | '--keypair'
  | '--password-file'
  | '--rpc-url'
  | '--treasury'
  | '--json'
  | '--yes'
  | '--timeout'
  | '--no-color'
  | '--verbose';

/** A command under another, as its parent's help lists it. */
export interface Subcommand extends CommandTraits {
  name: string;
  summary: string;
  command: AnyCommand;
}

/** The options of a command that takes none but the global ones. */
export type NoOptions = Record<string, never>;

/** Declares a command whose parse returns O; its run must take O. */
export function defineCommand<O>(definition: CommandDefinition<O>): CommandDefinition<O> {
  return definition;
}

/** True for a command that does work (not only a group). */
export function runsWork(command: AnyCommand): command is CommandDefinition<unknown> {
  return 'parse' in command;
}

/** The help line of an option: its text, then where else it comes from and its default, in that order of precedence, generated. */
export function optionHelp(option: OptionSpec): string {
  const notes = [
    option.env && `env ${option.env}`,
    option.configKey && `config ${option.configKey}`,
    option.default !== undefined && `default ${String(option.default)}`,
  ].filter(Boolean);
  return notes.length === 0 ? option.help : `${option.help} (${notes.join(', ')})`;
}

/** The value of an option that takes one, as typed; undefined when it was not given. */
function optionText(raw: RawInput, key: string): string | undefined {
  const value = raw.options[key];
  return typeof value === 'string' ? value : undefined;
}

/** The value of an option through its parser; undefined when it was not given. */
export function parsedOption<T>(raw: RawInput, key: string, parse: (text: string) => T): T | undefined {
  const text = optionText(raw, key);
  return text === undefined ? undefined : parse(text);
}

/** A flag: true when given (`--no-x` flags are true unless given). */
export function optionFlag(raw: RawInput, key: string): boolean {
  return raw.options[key] === true;
}
