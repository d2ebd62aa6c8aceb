// Progress while waiting: an ora spinner on a terminal, plain status-change lines otherwise,
// nothing at all in --json mode. Always on stderr, so stdout stays data only.
import { safeForTerminal } from './terminal-text.js';
import type { Terminal } from './terminal.js';

export interface Progress {
  /** Shows the current stage; plain mode prints a line only when the text changes. */
  update(text: string): void;
  /** Stops the spinner (if any) leaving the terminal clean. */
  stop(): void;
}

const silent: Progress = { update: () => {}, stop: () => {} };

/** Creates the progress display this terminal allows. ora loads only for a spinner. */
export async function createProgress(terminal: Terminal, json: boolean): Promise<Progress> {
  if (json) return silent;
  if (!terminal.spinners) {
    let last = '';
    return {
      update(text) {
        if (text !== last) terminal.stderr.write(`${safeForTerminal(text)}\n`);
        last = text;
      },
      stop() {},
    };
  }
  const { default: ora } = await import('ora');
  const spinner = ora({ stream: terminal.stderr as NodeJS.WriteStream, color: terminal.color ? 'cyan' : false, discardStdin: false });
  let started = false;
  return {
    update(text) {
      spinner.text = safeForTerminal(text);
      if (!started) {
        spinner.start();
        started = true;
      }
    },
    stop() {
      if (started) spinner.stop();
      started = false;
    },
  };
}
