// A real pseudo-terminal for prompt tests, through tmux: start the built binary in a detached
// session, read the screen (capture-pane), type keys (send-keys), and get the exit code, which
// the session's shell writes to a file. Each session runs on its own tmux server socket with
// no user config, so tests never touch a user's tmux and never see each other.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BIN } from './cli.js';
import { tempDir, tempEnv } from './temp.js';

const exec = promisify(execFile);

/** Whether tmux can be run here (prompt tests skip with a reason when not). */
export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface PtySession {
  /** The visible screen plus scroll-back, as plain text (lines the terminal wrapped joined back). */
  screen(): Promise<string>;
  /** The visible screen alone, row by row as the terminal shows it (wrapped lines not joined). */
  visible(): Promise<string[]>;
  /** Polls the screen until it contains `text` (or matches it); throws with the screen after `timeoutMs` (a hang, not slowness: just under the test timeout). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  /** tmux send-keys: literal text or key names (`Enter`, `C-c`). */
  keys(...keys: string[]): Promise<void>;
  /** Types literal text (no key-name lookup). */
  type(text: string): Promise<void>;
  /** Waits for the command to end; its exit code. */
  exitCode(timeoutMs?: number): Promise<number>;
  /** Kills the session and its tmux server. */
  close(): Promise<void>;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
let sessions = 0;

/** A clock the test moves for a run started with `clock.entry` (shifted-clock-trader.mjs): real time plus `set(ms)`. */
export function shiftedClock(): { entry: string; env: { TRADER_TEST_CLOCK_SHIFT: string }; set(ms: number): void } {
  const file = join(tempDir('trader-clock-'), 'shift-ms');
  writeFileSync(file, '0');
  return {
    entry: fileURLToPath(new URL('./shifted-clock-trader.mjs', import.meta.url)),
    env: { TRADER_TEST_CLOCK_SHIFT: file },
    set: (ms) => writeFileSync(file, String(ms)),
  };
}

const openServers = new Set<number>();

/** Kills the tmux servers of sessions a timed-out test never closed (their binaries with them). */
export function killLeftoverTmuxServers(): void {
  for (const pid of openServers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  openServers.clear();
}

/**
 * Runs `node bin/trader.js ...args` (or `opts.entry`) in a fresh tmux session of `width`×`height` with exactly
 * `env` (plus PATH and TERM), keeping the pane after exit so its last screen can be read.
 */
export async function startInTmux(
  args: string[],
  env: Record<string, string>,
  opts: { width?: number; height?: number; entry?: string } = {},
): Promise<PtySession> {
  const dir = tempDir('trader-pty-');
  const socket = `trader-test-${process.pid}-${++sessions}`;
  const name = 'trader';
  const conf = join(dir, 'tmux.conf');
  writeFileSync(conf, 'set -g remain-on-exit on\nset -g history-limit 5000\nset -g status off\n');
  const exitFile = join(dir, 'exit-code');
  const fullEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', ...tempEnv(), ...env };
  const assignments = Object.entries(fullEnv).map(([k, v]) => `${k}=${quote(v)}`);
  const command = `env -i ${assignments.join(' ')} ${quote(process.execPath)} ${quote(opts.entry ?? BIN)} ${args.map(quote).join(' ')}; echo $? > ${quote(exitFile)}`;
  // The server's socket lives in the session's own folder, removed with it.
  const tmux = (...a: string[]) =>
    exec('tmux', ['-L', socket, '-f', conf, ...a], { env: { ...process.env, TMUX_TMPDIR: dir } });
  await tmux(
    'new-session',
    '-d',
    '-s',
    name,
    '-x',
    String(opts.width ?? 120),
    '-y',
    String(opts.height ?? 40),
    command,
  );

  // The server's pid, so a test that times out before close() still leaves no server behind.
  const serverPid = Number((await tmux('display-message', '-p', '#{pid}')).stdout.trim());
  if (serverPid > 0) openServers.add(serverPid);

  const screen = async () => (await tmux('capture-pane', '-p', '-J', '-S', '-5000', '-t', name)).stdout;
  const poll = async <T>(
    check: () => Promise<T | undefined>,
    timeoutMs: number,
    what: () => Promise<string>,
  ): Promise<T> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > until)
        throw new Error(`${await what()}\n--- screen ---\n${await screen().catch(() => '(gone)')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  return {
    screen,
    visible: async () => (await tmux('capture-pane', '-p', '-t', name)).stdout.replace(/\n$/, '').split('\n'),
    waitFor: (text, timeoutMs = 25_000) =>
      poll(
        async () => {
          const s = await screen();
          return (typeof text === 'string' ? s.includes(text) : text.test(s)) ? s : undefined;
        },
        timeoutMs,
        async () => `timed out after ${timeoutMs} ms waiting for ${String(text)} on the terminal`,
      ),
    keys: async (...keys) => void (await tmux('send-keys', '-t', name, ...keys)),
    type: async (text) => void (await tmux('send-keys', '-t', name, '-l', text)),
    exitCode: (timeoutMs = 25_000) =>
      poll(
        async () => {
          if (!existsSync(exitFile)) return undefined;
          const text = readFileSync(exitFile, 'utf8').trim();
          return text === '' ? undefined : Number(text);
        },
        timeoutMs,
        async () => `the command did not exit within ${timeoutMs} ms`,
      ),
    close: async () => {
      await tmux('kill-server').catch(() => {});
      openServers.delete(serverPid);
    },
  };
}
