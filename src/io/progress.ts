// Progress while waiting: an ora spinner on a terminal, plain status-change lines otherwise,
// nothing at all in --json mode. Always on stderr, so stdout stays data only.
import type { Clock } from '../domain/clock.js';
import { safeForTerminal } from './terminal-text.js';
import type { Terminal } from './terminal.js';

export interface Progress {
  /** Shows the current stage; plain mode prints a line only when the text changes. */
  update(text: string): void;
  /** Stops the spinner (if any) leaving the terminal clean. */
  stop(): void;
}

/** A spinner shows only once a wait has lasted this long, so quick reads do not flash one. */
export const SPINNER_DELAY_MS = 300;

const silent: Progress = { update: () => {}, stop: () => {} };

/** Creates the progress display this terminal allows. ora loads only for a spinner. */
export async function createProgress(terminal: Terminal, json: boolean, clock: Clock): Promise<Progress> {
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
  const spinner = ora({
    stream: terminal.stderr as NodeJS.WriteStream,
    color: terminal.color ? 'cyan' : false,
    discardStdin: false,
  });
  let state: 'idle' | 'waiting' | 'spinning' = 'idle';
  let waiting: AbortController | null = null;
  return {
    update(text) {
      spinner.text = safeForTerminal(text);
      if (state !== 'idle') return;
      state = 'waiting';
      const wait = (waiting = new AbortController());
      clock.sleep(SPINNER_DELAY_MS, wait.signal).then(
        () => {
          if (state !== 'waiting' || wait.signal.aborted) return;
          state = 'spinning';
          spinner.start();
        },
        () => {
          /* stopped before it showed */
        },
      );
    },
    stop() {
      waiting?.abort();
      waiting = null;
      if (state === 'spinning') spinner.stop();
      state = 'idle';
    },
  };
}
