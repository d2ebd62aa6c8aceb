// The command catalog: every command and option as data (types, defaults, env and config keys,
// which commands are dangerous), read from the same definitions commander builds the CLI from.
// `trader commands` prints it; the MCP server builds its tools' input schemas from it.
import type { AnyCommand, ArgumentSpec, CommandEntry, CommandTraits, OptionSpec } from './definition.js';
import { runsWork } from './definition.js';

export type ValueType = 'boolean' | 'string' | 'integer' | 'number';

export interface CatalogOption {
  /** The key commander reads it into (`--slippage-bps` → slippageBps, `--no-wait` → wait). */
  name: string;
  /** The long flag as typed (`--slippage-bps`, `--no-wait`). */
  flag: string;
  short?: string;
  type: ValueType;
  /** What the value is called in the help (`bps`), for an option that takes one. */
  valueName?: string;
  help: string;
  env?: string;
  configKey?: string;
  default?: string | number | boolean;
  /** A `--no-x` flag: giving it sets the option `x` to false (x is true otherwise). */
  negates?: true;
  /** The only values it takes, when they are a fixed list. */
  values?: string[];
}

export interface CatalogArgument {
  name: string;
  required: boolean;
  type: 'string';
  help: string;
  values?: string[];
}

export interface CatalogCommand extends CommandTraits {
  /** As typed after `trader`: `buy`, `config set`, `config trust forget`. */
  name: string;
  summary: string;
  /** The heading of `trader --help` it is listed under. */
  group: string;
  /** False for a command that only groups others. */
  runs: boolean;
  arguments: CatalogArgument[];
  options: CatalogOption[];
}

export interface Catalog {
  program: 'trader';
  version: string;
  /** Options every command takes, before or after it. */
  globalOptions: CatalogOption[];
  commands: CatalogCommand[];
}

/** The value type a placeholder names; anything else is a string. */
const PLACEHOLDER_TYPES: Record<string, ValueType> = {
  bps: 'integer',
  n: 'integer',
  lamports: 'integer',
  seconds: 'number',
};

/** One option as data. */
export function catalogOption(spec: OptionSpec): CatalogOption {
  const match = /^(?:(-\w),\s*)?(--([\w-]+))(?:\s+[<[]([\w-]+)[>\]])?/.exec(spec.flags);
  if (!match) throw new Error(`cannot read the option flags ${JSON.stringify(spec.flags)}`);
  const [, short, flag, long, valueName] = match as unknown as [
    string,
    string | undefined,
    string,
    string,
    string | undefined,
  ];
  const negated = valueName === undefined && long.startsWith('no-');
  const name = camel(negated ? long.slice(3) : long);
  const type: ValueType = valueName === undefined ? 'boolean' : (PLACEHOLDER_TYPES[valueName] ?? 'string');
  const option: CatalogOption = { name, flag, type, help: spec.help };
  if (short) option.short = short;
  if (valueName) option.valueName = valueName;
  if (spec.env) option.env = spec.env;
  if (spec.configKey) option.configKey = spec.configKey;
  // A `--no-x` flag's option is named x and is true unless the flag is given.
  const fallback = spec.default ?? (negated ? true : undefined);
  if (negated) option.negates = true;
  if (fallback !== undefined) option.default = typeof fallback === 'bigint' ? fallback.toString() : fallback;
  if (spec.values) option.values = [...spec.values];
  return option;
}

function catalogArgument(spec: ArgumentSpec): CatalogArgument {
  const argument: CatalogArgument = {
    name: spec.name.replace(/^[<[]|(?:\.\.\.)?[>\]]$/g, ''),
    required: spec.name.startsWith('<'),
    type: 'string',
    help: spec.help,
  };
  if (spec.values) argument.values = [...spec.values];
  return argument;
}

/** A command with its definition loaded, as the command table lists it. */
export interface LoadedEntry {
  entry: CommandEntry;
  command: AnyCommand;
}

/** The catalog of these commands and global options. */
export function buildCatalog(
  loaded: readonly LoadedEntry[],
  globalOptions: readonly OptionSpec[],
  version: string,
): Catalog {
  const commands: CatalogCommand[] = [];
  const add = (name: string, summary: string, group: string, traits: CommandTraits, command: AnyCommand) => {
    commands.push({
      name,
      summary,
      group,
      dangerous: traits.dangerous,
      needsApiKey: traits.needsApiKey,
      needsKeypair: traits.needsKeypair,
      runs: runsWork(command),
      arguments: (command.arguments ?? []).map(catalogArgument),
      options: (command.options ?? []).map(catalogOption),
    });
    for (const sub of command.subcommands ?? []) add(`${name} ${sub.name}`, sub.summary, group, sub, sub.command);
  };
  for (const { entry, command } of loaded)
    add(entry.name, entry.summary, entry.group.replace(/:$/, ''), entry, command);
  return { program: 'trader', version, globalOptions: globalOptions.map(catalogOption), commands };
}

/** Every command of the table with its definition (each command module is imported). */
export async function loadCatalog(table: readonly CommandEntry[], version: string): Promise<Catalog> {
  const { GLOBAL_OPTIONS } = await import('./global-options.js');
  const loaded = await Promise.all(table.map(async (entry) => ({ entry, command: await entry.definition() })));
  return buildCatalog(loaded, GLOBAL_OPTIONS, version);
}

function camel(kebab: string): string {
  return kebab.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}
