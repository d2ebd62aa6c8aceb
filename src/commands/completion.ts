// `trader completion bash|zsh|fish`: a completion script for commands, options and the
// values of enumerated options and arguments, generated from the command definitions.
import { parseChoice } from '../cli/argument-parsers.js';
import type { Context } from '../cli/context.js';
import { defineCommand, type AnyCommand, type OptionSpec, type ProgramFacts } from '../cli/definition.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

export interface CompletionOptions {
  shell: (typeof SHELLS)[number];
}

export const completion = defineCommand<CompletionOptions>({
  arguments: [{ name: '<shell>', help: SHELLS.join(', ').replace(/, (\w+)$/, ' or $1'), values: SHELLS }],
  examples: [
    'eval "$(trader completion bash)"   # in ~/.bashrc',
    'trader completion fish > ~/.config/fish/completions/trader.fish',
  ],
  parse: (raw) => ({ shell: parseChoice(raw.args[0]!, SHELLS, 'shell') }),
  run,
});

interface CompletionSpec {
  globalOptions: string[];
  commands: Array<{ name: string; options: string[]; subcommands: string[] }>;
  /** Values offered after a word: an option (`--status open`) or a subcommand (`config get baseUrl`). */
  valuesAfter: Record<string, string[]>;
  /** Values offered for a command's first argument (e.g. completion bash). */
  argumentValues: Record<string, string[]>;
}

/** Prints the script for the shell. */
async function run(ctx: Context, { shell }: CompletionOptions, program: ProgramFacts): Promise<void> {
  // Every definition of the program's table (it lists this command too) is loaded only now.
  const { GLOBAL_OPTIONS } = await import('../cli/global-options.js');
  const commands = await Promise.all(
    program.commands.map(async (entry) => ({ name: entry.name, command: await entry.definition() })),
  );
  const spec = completionSpec(commands, GLOBAL_OPTIONS);
  const script = shell === 'bash' ? bash(spec) : shell === 'zsh' ? zsh(spec) : fish(spec);
  ctx.output.result({ shell, script }, () => script);
}

/** A command and its name, at the top level or under another. */
interface Named {
  name: string;
  command: AnyCommand;
}

/** What the scripts offer, read from the definitions: names, long options, and fixed lists of values. */
function completionSpec(commands: readonly Named[], globalOptions: readonly OptionSpec[]): CompletionSpec {
  const longNames = (options: readonly OptionSpec[] = []) =>
    options.map((o) => /--[\w-]+/.exec(o.flags)?.[0]).filter((l): l is string => l !== undefined);
  const valuesAfter: Record<string, string[]> = {};
  const argumentValues: Record<string, string[]> = {};
  const collect = ({ name, command }: Named, depth: number) => {
    for (const o of command.options ?? []) if (o.values) valuesAfter[longNames([o])[0]!] = [...o.values];
    const first = command.arguments?.[0]?.values;
    // A top-level command's argument is offered by position; a subcommand's after its name.
    if (first && depth === 0) argumentValues[name] = [...first];
    else if (first) valuesAfter[name] = [...first];
    for (const sub of command.subcommands ?? []) collect(sub, depth + 1);
  };
  for (const c of commands) collect(c, 0);
  return {
    // --version is commander's own option of the program.
    globalOptions: ['--version', ...longNames(globalOptions)],
    commands: commands.map(({ name, command }) => ({
      name,
      options: longNames(command.options),
      subcommands: (command.subcommands ?? []).map((s) => s.name),
    })),
    valuesAfter,
    argumentValues,
  };
}

const words = (list: string[]) => list.join(' ');

function bash(spec: CompletionSpec): string {
  const commandCases = spec.commands
    .map((c) => `    ${c.name}) opts="${words([...c.subcommands, ...c.options, ...spec.globalOptions])}" ;;`)
    .join('\n');
  const valueCases = Object.entries(spec.valuesAfter)
    .map(([opt, values]) => `    ${opt}) COMPREPLY=( $(compgen -W "${words(values)}" -- "$cur") ); return 0 ;;`)
    .join('\n');
  const argCases = Object.entries(spec.argumentValues)
    .map(
      ([cmd, values]) =>
        `    ${cmd}) if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=( $(compgen -W "${words(values)}" -- "$cur") ); return 0; fi ;;`,
    )
    .join('\n');
  return `# bash completion for trader: add to ~/.bashrc:  eval "$(trader completion bash)"
_trader() {
  local cur prev cmd opts
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  cmd="\${COMP_WORDS[1]}"
  case "$prev" in
${valueCases}
  esac
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${words(spec.commands.map((c) => c.name))} ${words(spec.globalOptions)}" -- "$cur") )
    return 0
  fi
  case "$cmd" in
${argCases}
  esac
  case "$cmd" in
${commandCases}
    *) opts="${words(spec.globalOptions)}" ;;
  esac
  COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
complete -o default -F _trader trader
`;
}

function zsh(spec: CompletionSpec): string {
  // zsh runs the bash function through bashcompinit: one definition to keep right.
  return `#compdef trader
# zsh completion for trader: add to ~/.zshrc:  eval "$(trader completion zsh)"
autoload -U +X bashcompinit && bashcompinit
${bash(spec).split('\n').slice(1).join('\n')}`;
}

function fish(spec: CompletionSpec): string {
  const lines = [
    '# fish completion for trader: trader completion fish > ~/.config/fish/completions/trader.fish',
    'complete -c trader -f',
  ];
  const names = spec.commands.map((c) => c.name);
  for (const c of spec.commands)
    lines.push(`complete -c trader -n "not __fish_seen_subcommand_from ${words(names)}" -a ${c.name}`);
  for (const opt of spec.globalOptions) lines.push(`complete -c trader -l ${opt.replace(/^--/, '')}`);
  for (const c of spec.commands) {
    for (const sub of c.subcommands)
      lines.push(`complete -c trader -n "__fish_seen_subcommand_from ${c.name}" -a ${sub}`);
    for (const opt of c.options) {
      const values = spec.valuesAfter[opt];
      lines.push(
        `complete -c trader -n "__fish_seen_subcommand_from ${c.name}" -l ${opt.replace(/^--/, '')}${values ? ` -x -a "${words(values)}"` : ''}`,
      );
    }
  }
  for (const [word, values] of Object.entries(spec.valuesAfter)) {
    if (!word.startsWith('-'))
      lines.push(`complete -c trader -n "__fish_seen_subcommand_from ${word}" -a "${words(values)}"`);
  }
  for (const [cmd, values] of Object.entries(spec.argumentValues))
    lines.push(`complete -c trader -n "__fish_seen_subcommand_from ${cmd}" -a "${words(values)}"`);
  return lines.join('\n') + '\n';
}
