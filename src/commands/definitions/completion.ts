// `trader completion <shell>`: what can be typed, and what it means.
import { parseChoice } from '../../argument-parsers.js';
import { defineCommand } from '../definition.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export interface CompletionOptions {
  shell: (typeof SHELLS)[number];
}

export const completion = defineCommand<CompletionOptions>({
  arguments: [{ name: '<shell>', help: SHELLS.join(', ').replace(/, (\w+)$/, ' or $1'), values: SHELLS }],
  examples: ['eval "$(trader completion bash)"   # in ~/.bashrc', 'trader completion fish > ~/.config/fish/completions/trader.fish'],
  parse: (raw) => ({ shell: parseChoice(raw.args[0]!, SHELLS, 'shell') }),
  load: () => import('../completion.js'),
});
