// Builds the commander program from the command table (src/command-table.ts). The table names
// and summarises each command; the command's module (its arguments and options with their help,
// the parse into typed options, and its run) is loaded once commander knows which command runs.
// So `trader --help` and `--version` load no command module, and a command loads only its own.
import { Command, CommanderError, Help, Option, type HelpContext } from 'commander';
import type { GlobalOptions } from './config/settings.js';
import type { ProcessFacts } from './cli/context.js';
import {
  optionHelp,
  runsWork,
  type ProgramFacts,
  type AnyCommand,
  type CommandDefinition,
  type CommandEntry,
  type GlobalFlag,
  type OptionSpec,
} from './cli/definition.js';
import { GLOBAL_OPTIONS, parseGlobalOptions } from './cli/global-options.js';
import { COMMANDS } from './command-table.js';
import { packWords, piecesOf, wrapWords } from './io/word-wrap.js';

export interface ProgramHooks {
  facts: ProcessFacts;
  /** Runs `trader` in this process on other argv (run.ts): handed to the commands through the context, for the MCP server. */
  runCaptured: ProgramFacts['runCaptured'];
  /** Says the output mode as soon as the flags are read, so errors are printed in it. */
  onFlags(mode: { json: boolean; verbose: boolean; profile?: string }): void;
  /**
   * Runs a parsed command: by default its run module with a context made from the global options.
   * Tests put their own here to see what argv was parsed into, with nothing run.
   */
  execute?(command: CommandDefinition<unknown>, options: unknown, globals: GlobalOptions): Promise<void>;
}

/**
 * Commander reads every argument that starts with "-" as an option, so `buy <mint> -1sol` was
 * "unknown option '-1sol'". No option of ours is a digit or a point, so an argument that starts
 * with a minus and one of those (and is not an option's value) stays an argument, for the
 * amount parsers to refuse with the amount error.
 */
class TraderCommand extends Command {
  override createCommand(name?: string): Command {
    return new TraderCommand(name);
  }

  /**
   * `trader` (or `trader config`) without a command asks for its help: on stdout with exit 0, so
   * `trader | less` works. With --json the help is no JSON document: that stays the usage error
   * (exit 2, a JSON error line, stdout empty), as for any run a script got wrong.
   */
  override help(context?: HelpContext | ((text: string) => string)): never {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the walk up commander's parents starts here
    let root: Command = this;
    while (root.parent) root = root.parent;
    const asked = typeof context === 'object' && context.error && root.opts().json !== true;
    return super.help((asked ? undefined : context) as HelpContext | undefined);
  }

  override parseOptions(args: string[]): { operands: string[]; unknown: string[] } {
    const takesValue = (arg: string | undefined) => {
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- the walk up commander's parents starts here
      for (let c: Command | null = this; c; c = c.parent)
        if (c.options.some((o) => (o.long === arg || o.short === arg) && (o.required || o.optional))) return true;
      return false;
    };
    const held = args.map((arg, i) => (/^-[0-9.]/.test(arg) && !takesValue(args[i - 1]) ? HELD + arg : arg));
    const { operands, unknown } = super.parseOptions(held);
    const release = (list: string[]) => list.map((arg) => (arg.startsWith(HELD) ? arg.slice(HELD.length) : arg));
    return { operands: release(operands), unknown: release(unknown) };
  }
}
/** Marks a held argument while commander parses (a character no typed argument can hold). */
const HELD = '\u0000';

const examples = (lines: readonly string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;

/** Where a command's help names the global options that matter to it; their help is the program's. */
const GLOBALS_HEADING = 'Global options:';
/** What a command's help says when no global option matters to it in particular. */
const GLOBALS_POINTER = '\nGlobal options: see trader --help\n';

/**
 * The line a command's help ends its options with: the global options that matter to it
 * (`globals`, by long flag, of the command or the nearest command above it), named in one line
 * so the help fits a screen; the program's own help says what each does.
 */
function globalsLine(program: Command, command: Command, globals: Map<Command, readonly GlobalFlag[]>): string {
  let flags: readonly GlobalFlag[] = [];
  for (let c: Command | null = command; c && c !== program; c = c.parent) {
    const own = globals.get(c);
    if (own) {
      flags = own;
      break;
    }
  }
  // A command's own option of the same name (sandbox's --keypair) is the one that applies there.
  const shown = flags.flatMap((flag) =>
    program.options
      .filter((o) => o.long === flag && !command.options.some((own) => own.long === flag))
      .map((o) => (o.short ? `${o.short}/${o.long}` : o.long!)),
  );
  return shown.length === 0
    ? GLOBALS_POINTER
    : `\n${packWords(piecesOf(`${GLOBALS_HEADING} ${shown.join(', ')}`), { room: () => ROOT_WIDTH, first: '', next: '  ' }).join('\n')}\n`;
}

/** The program's own help is one screen of its own making (rootHelp); a command's, commander's. */
function helpLayout(program: Command): Partial<Help> {
  return {
    formatHelp: (cmd, helper) =>
      cmd === program ? rootHelp(program) : Help.prototype.formatHelp.call(helper, cmd, helper),
    // -h is the same everywhere and named in `trader --help`: a command's screen keeps its line.
    visibleOptions: (cmd) => Help.prototype.visibleOptions.call(new Help(), cmd).filter((o) => o.long !== '--help'),
  };
}

/**
 * Help prose written with line breaks of its own is one paragraph per run of lines, so that the
 * one wrapping rule lays it out (a break kept only before an indented, listed or `$` line, after a
 * line ending in a colon, and around blank lines).
 */
function joinProse(text: string): string {
  const kept = (before: string, line: string) =>
    before === '' || line === '' || before.endsWith(':') || /^(\s|[-*•$])/.test(line);
  return text
    .split('\n')
    .reduce((out, line, i, all) => (i === 0 ? line : `${out}${kept(all[i - 1]!, line) ? '\n' : ' '}${line}`), '');
}

/** What building the program shares: the program, the run's hooks, and each command's entry until its definition is loaded. */
interface Build {
  program: Command;
  hooks: ProgramHooks;
  execute: NonNullable<ProgramHooks['execute']>;
  globals: Map<Command, readonly GlobalFlag[]>;
  entries: Map<Command, CommandEntry>;
}

/** Builds the commander program. */
export function buildProgram(hooks: ProgramHooks): Command {
  const program = programShell(hooks);
  for (const option of GLOBAL_OPTIONS) program.addOption(commanderOption(option));
  program.optionsGroup('Options:');
  // Set before the commands are added: each copies its parent's help configuration.
  program.configureHelp(helpLayout(program));
  const execute = hooks.execute ?? ((command, options, globals) => runCommand(command, options, globals, hooks));
  const b: Build = { program, hooks, execute, globals: new Map(), entries: new Map() };
  for (const entry of COMMANDS) {
    const command = program.command(entry.name).description(entry.summary).helpGroup(entry.group);
    b.entries.set(command, entry);
    b.globals.set(command, entry.globals);
  }
  // Commander calls this once it knows which command runs (or whose help is asked for), before
  // that command reads its own arguments and options.
  program.hook('preSubcommand', (_program, command) => loadDefinition(b, command));
  addHelpCommand(b);
  return program;
}

/** The program itself: its description, version, errors in one line and output through the run's streams. */
function programShell(hooks: ProgramHooks): Command {
  const program = new TraderCommand('trader');
  return (
    program
      .description('Trade Solana tokens through a trading service; nothing is signed unchecked.')
      .version(hooks.facts.version, '-V, --version', 'print the version')
      .helpOption('-h, --help', 'show help')
      .showSuggestionAfterError(true)
      // Not showHelpAfterError: it writes its line to stderr before the error, which breaks the
      // one-line error and, with --json, the promise that stderr holds only JSON lines.
      .exitOverride((err) => {
        if (err.exitCode === 0) throw err; // --help, --version
        // One line: commander puts "(Did you mean buy?)" on a line of its own.
        // `trader --json` alone exits with "(outputHelp)" (its help suppressed): say what is wrong instead.
        const message =
          err.code === 'commander.help' ? 'no command given' : err.message.replace(/\s*\n\s*/g, ' ').trim();
        throw new CommanderError(err.exitCode, err.code, `${message} (run with --help for usage)`);
      })
      .configureOutput({
        writeOut: (s) => hooks.facts.stdout.write(s),
        // Commander writes to stderr only the help shown when a command is missing; with --json,
        // stderr holds JSON lines only (main.ts prints the error as one).
        writeErr: (s) => {
          if (!program.opts().json) hooks.facts.stderr.write(s);
        },
        outputError: () => {
          /* main.ts prints usage errors in the run's format (one line, or JSON) */
        },
      })
  );
}

/** Adds the command's definition to its commander command, once. */
async function loadDefinition(b: Build, command: Command): Promise<void> {
  const entry = b.entries.get(command);
  b.entries.delete(command);
  if (entry) configure(b, command, await entry.definition());
}

/** A command's arguments, options, help text and action, and its subcommands' in turn. */
function configure(b: Build, command: Command, definition: AnyCommand): void {
  for (const argument of definition.arguments ?? []) command.argument(argument.name, argument.help);
  for (const option of definition.options ?? []) command.addOption(commanderOption(option));
  // Help text after the options follows the one wrapping rule at 80 columns, as the rest of the help.
  const after = `${globalsLine(b.program, command, b.globals)}${wrapWords(joinProse(definition.helpAfter ?? ''), ROOT_WIDTH)}${definition.examples ? examples(definition.examples) : ''}`;
  if (after) command.addHelpText('after', after);
  if (runsWork(definition)) command.action(() => act(b, command, definition));
  for (const sub of definition.subcommands ?? [])
    configure(b, command.command(sub.name).description(sub.summary), sub.command);
}

/** A command's run: the global flags told to the hooks first, then parsed, then the command's own parse and run. */
async function act(b: Build, command: Command, definition: CommandDefinition<unknown>): Promise<void> {
  const raw = b.program.opts();
  b.hooks.onFlags({
    json: raw.json === true,
    verbose: raw.verbose === true,
    profile: typeof raw.profile === 'string' ? raw.profile : undefined,
  });
  const globals = await parseGlobalOptions(raw);
  const args = command.args.slice(0, command.registeredArguments.length);
  const options = definition.parse({ args, options: command.opts(), globals });
  await b.execute(definition, options, globals);
}

/**
 * Commander's own `help <command>` prints the command's help without the preSubcommand hook,
 * before its definition is loaded: this one loads it first.
 */
function addHelpCommand(b: Build): void {
  const { program } = b;
  program.helpCommand(false);
  program
    .command('help')
    .argument('[command...]')
    .description('display help for command')
    .helpOption(false)
    .action(async (path: string[]) => {
      // `help config trust` walks down: each level's definition is loaded before its subcommands are looked up.
      let command: Command = program;
      for (const name of path) {
        const sub = command.commands.find((c) => c.name() === name);
        if (!sub) return program.error(`unknown command '${path.join(' ')}'`);
        await loadDefinition(b, sub);
        command = sub;
      }
      command.help();
    });
}

/** The width `trader --help` is laid out to: an 80-column terminal. */
const ROOT_WIDTH = 80;

/** The global options `trader --help` lists; the rest are in each command's help that uses them, and in `trader commands`. */
// Two commands (lock, unlock) took the lines of --api-key (discouraged: the process list shows it) and --verbose, named on the "also" line.
const ROOT_OPTIONS = ['--base-url', '--keypair', '--rpc-url', '--profile', '--json', '--yes', '--timeout'];

/**
 * `trader --help` in one screen (under 40 lines at 80 columns): the commands by group, one line
 * each, and the global options most runs need, one line each; every detail is in a command's own
 * help and in the catalog.
 */
function rootHelp(program: Command): string {
  const commands = program.commands.filter((c) => c.name() !== 'help');
  const width = Math.max(...commands.map((c) => c.name().length)) + 2;
  const groups = new Map<string, string[]>();
  for (const c of commands) {
    const group = (c as Command & { _helpGroupHeading?: string })._helpGroupHeading ?? 'Commands:';
    // A summary too long for its line goes on under itself (the one wrapping rule).
    const line = packWords(piecesOf(c.description()), {
      room: () => ROOT_WIDTH,
      first: `  ${c.name().padEnd(width)}`,
      next: ' '.repeat(2 + width),
    });
    groups.set(group, [...(groups.get(group) ?? []), ...line]);
  }
  const shown = GLOBAL_OPTIONS.filter((o) =>
    ROOT_OPTIONS.includes(
      o.flags
        .split(' ')
        .find((w) => w.startsWith('--'))!
        .replace(/,$/, ''),
    ),
  );
  const flags = Math.max(...shown.map((o) => o.flags.length)) + 2;
  const others = GLOBAL_OPTIONS.filter((o) => !shown.includes(o)).map((o) => o.flags.split(' ')[0]!.replace(/,$/, ''));
  return [
    'Usage: trader [options] <command>',
    '',
    wrapWords(program.description(), ROOT_WIDTH),
    '',
    ...[...groups].flatMap(([heading, lines]) => [heading, ...lines]),
    '',
    "Options (before or after the command; a command's --help lists those it uses):",
    ...shown.map((o) => `  ${o.flags.padEnd(flags)}${o.short ?? o.help}`),
    ...packWords(piecesOf(`also ${others.join(', ')}, -V, -h`), { room: () => ROOT_WIDTH, first: '  ', next: '  ' }),
    '',
    'Options and examples: trader <command> --help; every option: trader commands.',
    '',
  ].join('\n');
}

function commanderOption(spec: OptionSpec): Option {
  // Where room is short (after a command's own options), the one-line form.
  const option = new Option(spec.flags, spec.short ?? optionHelp(spec));
  if (spec.group) option.helpGroup(spec.group);
  return option;
}

/** Runs the command with a context. */
async function runCommand(
  definition: CommandDefinition<unknown>,
  options: unknown,
  globals: GlobalOptions,
  hooks: ProgramHooks,
): Promise<void> {
  const { createContext } = await import('./cli/context.js');
  const ctx = await createContext(globals, hooks.facts, { lenient: definition.lenient });
  await definition.run(ctx, options, { commands: COMMANDS, runCaptured: hooks.runCaptured });
}
