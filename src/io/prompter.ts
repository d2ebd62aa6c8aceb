// Questions to a person at the terminal, through @inquirer/prompts on stderr. Loaded only
// when a prompt is actually shown.
import type { Clock } from '../domain/clock.js';
import { timeLeft } from '../domain/answer-deadline.js';
import { InterruptedError, UsageError } from '../domain/errors.js';
import type { Terminal } from './terminal.js';

/** A deadline a question counts down to: its time (ms since the epoch), and what a yes after it does. */
export interface Countdown {
  atMs: number;
  expired: string;
}

export interface Prompter {
  /** Yes/no question; the default answer is No. With `countdown`, the time left stands before it, redrawn every second. */
  confirm(message: string, defaultYes?: boolean, countdown?: Countdown): Promise<boolean>;
  input(message: string, opts?: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  /** Hidden input for secrets: nothing echoes, not even one mask character per key (that would show its length). */
  secret(message: string, opts?: { validate?: (value: string) => true | string }): Promise<string>;
}

/** A prompter bound to this terminal; refuses when no person can answer. */
export function createPrompter(terminal: Terminal, signal: AbortSignal, clock: Clock): Prompter {
  const context = () => ({ input: terminal.stdin, output: terminal.stderr, signal, clearPromptOnDone: false });
  const ensureInteractive = () => {
    if (!terminal.interactive) {
      throw new UsageError(
        'confirmation needed but this is not an interactive terminal: pass --yes to proceed',
        'CONFIRMATION_REQUIRED',
      );
    }
  };
  const guard = async <T>(ask: () => Promise<T>): Promise<T> => {
    ensureInteractive();
    try {
      return await ask();
    } catch (err) {
      // Ctrl-C at a prompt, or the abort signal: nothing further happens.
      const name = (err as Error)?.name;
      if (name === 'ExitPromptError' || name === 'AbortPromptError' || signal.aborted)
        throw new InterruptedError('SIGINT');
      throw err;
    }
  };
  return {
    confirm: (message, defaultYes = false, countdown) =>
      guard(async () => {
        if (countdown) {
          const { countdownConfirm } = await import('./countdown-confirm.js');
          const before = () => {
            const left = timeLeft(countdown.atMs, clock.now());
            return left === 'expired' ? `expired: ${countdown.expired}` : `${left} left`;
          };
          return countdownConfirm({ message, default: defaultYes, before }, context() as never);
        }
        const { confirm } = await import('@inquirer/prompts');
        return confirm({ message, default: defaultYes }, context() as never);
      }),
    input: (message, opts = {}) =>
      guard(async () => {
        const { input } = await import('@inquirer/prompts');
        return input({ message, default: opts.default, validate: opts.validate }, context() as never);
      }),
    secret: (message, opts = {}) =>
      guard(async () => {
        const { password } = await import('@inquirer/prompts');
        // No `mask`: the prompt shows "[input is masked]" and echoes nothing as the key is typed.
        return password({ message, validate: opts.validate }, context() as never);
      }),
  };
}
