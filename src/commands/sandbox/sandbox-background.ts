// A sandbox in the background, in the manner of ssh-agent: `trader sandbox --background` starts
// one detached (its own session, stdio to a log file) and returns once it listens; `trader
// sandbox stop` ends it and removes what it made. What connects the two is a folder (beside the
// config file): the running sandbox's record (`sandbox.json`, written by the sandbox itself once
// it listens, removed when it stops) and its log. One background sandbox per folder.
// Nothing here prints: the command (src/commands/sandbox/sandbox.ts) says what happened.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { link, mkdir, readFile, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { dirname, join } from 'node:path';

/** Set in the environment of the detached sandbox: the folder its record goes in. */
export const BACKGROUND_DIR_ENV = 'TRADER_SANDBOX_BACKGROUND_DIR';

export const RECORD_FILE = 'sandbox.json';
export const LOG_FILE = 'sandbox.log';

/** What a running background sandbox left for `stop` and for a second `--background`. */
export interface BackgroundRecord {
  pid: number;
  startedAt: string;
  baseUrl: string;
  walletAddress: string;
  /** The export lines and # comments, exactly as the foreground sandbox prints them. */
  exports: string;
  /** What `trader sandbox --json` prints. */
  details: unknown;
  logPath: string;
  /** The folder of a keypair the sandbox generated (removed when it stops), or null. */
  generatedKeypairDir: string | null;
}

/** The folder of the background sandbox: `sandbox/` beside the config file. */
export function backgroundDir(configFilePath: string): string {
  return join(dirname(configFilePath), 'sandbox');
}

export async function readRecord(dir: string): Promise<BackgroundRecord | null> {
  try {
    return JSON.parse(await readFile(join(dir, RECORD_FILE), 'utf8')) as BackgroundRecord;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Writes the record whole (a reader never sees half of it) and only if none is there: false
 * when another sandbox already holds the folder.
 */
export async function claimRecord(dir: string, record: BackgroundRecord): Promise<boolean> {
  const temp = join(dir, `.${RECORD_FILE}.${record.pid}`);
  await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  try {
    await link(temp, join(dir, RECORD_FILE));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(temp).catch(() => {});
  }
}

/** Removes the record if it is this process's (a sandbox that lost the claim leaves the winner's alone). */
export async function releaseRecord(dir: string, pid: number): Promise<void> {
  const record = await readRecord(dir).catch(() => null);
  if (record?.pid === pid) await rm(join(dir, RECORD_FILE), { force: true });
}

/**
 * True while the process runs. A detached sandbox that has ended is its reaper's zombie until
 * reaped (init may take seconds), and a zombie has ended: on Linux its state in /proc says so.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // "pid (comm) S …": the state follows the last ')' (comm may hold spaces and parentheses).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS): the signal test is all there is
  }
}

/**
 * True when the sandbox of this record answers at its URL with its wallet: then the recorded
 * pid is that sandbox and not a process that took the number of a dead one.
 */
export function answers(record: BackgroundRecord, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(`${record.baseUrl}/_sandbox/`, { timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        try {
          resolve(
            (JSON.parse(body) as { data?: { walletAddress?: string } }).data?.walletAddress === record.walletAddress,
          );
        } catch {
          resolve(false);
        }
      });
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** Removes what a background sandbox made: its record, the keypair it generated, its log, and the folder if that leaves it empty. */
export async function removeLeftovers(dir: string, record: BackgroundRecord | null): Promise<void> {
  if (record?.generatedKeypairDir) await rm(record.generatedKeypairDir, { recursive: true, force: true });
  await rm(join(dir, RECORD_FILE), { force: true });
  await rm(join(dir, LOG_FILE), { force: true });
  await rmdir(dir).catch(() => {}); // something of the user's in it: left as it is
}

export type StartOutcome =
  | { started: BackgroundRecord }
  /** Another background sandbox holds the folder (it may have started meanwhile). */
  | { alreadyRunning: BackgroundRecord }
  /** The sandbox ended before it listened: its exit code and the last lines of its log. */
  | { failed: { code: number | null; log: string } };

/** What the detached sandbox tells the process that started it. */
export type ReadyMessage = { ready: true } | { alreadyRunning: true };

/**
 * Starts `node <bin> sandbox <args>` detached, its output appended to the folder's log, and
 * resolves once it listens and has written its record (or once it has ended).
 */
export async function startDetached(opts: {
  bin: string;
  args: string[];
  env: Record<string, string | undefined>;
  dir: string;
  readyTimeoutMs?: number;
}): Promise<StartOutcome> {
  await mkdir(opts.dir, { recursive: true, mode: 0o700 });
  const logPath = join(opts.dir, LOG_FILE);
  const logFd = openSync(logPath, 'a', 0o600);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...opts.env, [BACKGROUND_DIR_ENV]: opts.dir })) if (v !== undefined) env[k] = v;
  const child = spawn(process.execPath, [opts.bin, 'sandbox', ...opts.args], {
    detached: true, // its own session: a Ctrl-C or a closed terminal of the caller does not reach it
    stdio: ['ignore', logFd, logFd, 'ipc'],
    env,
  });
  closeSync(logFd);
  const outcome = await new Promise<'ready' | 'alreadyRunning' | { code: number | null }>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null });
    }, opts.readyTimeoutMs ?? 60_000);
    const done = (value: 'ready' | 'alreadyRunning' | { code: number | null }) => {
      clearTimeout(timer);
      resolve(value);
    };
    child.on('message', (message: ReadyMessage) => done('ready' in message ? 'ready' : 'alreadyRunning'));
    child.on('exit', (code) => done({ code }));
    child.on('error', () => done({ code: null }));
  });
  if (child.connected) child.disconnect();
  child.unref();
  if (typeof outcome === 'object') {
    const log = await readFile(logPath, 'utf8').catch(() => '');
    return { failed: { code: outcome.code, log: log.trim().split('\n').slice(-3).join('\n') } };
  }
  const record = await readRecord(opts.dir);
  if (!record)
    return { failed: { code: null, log: `the sandbox said it was ready but left no ${RECORD_FILE} in ${opts.dir}` } };
  return outcome === 'ready' ? { started: record } : { alreadyRunning: record };
}

/** Waits until the process has ended, checking every `everyMs`; false if it is still there after `withinMs`. */
export async function waitForExit(pid: number, withinMs: number, everyMs = 20): Promise<boolean> {
  for (let waited = 0; waited < withinMs; waited += everyMs) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return !isAlive(pid);
}

/** Ends a sandbox: SIGTERM (it closes, and removes its keypair and record), SIGKILL if it has not ended within 10 s. */
export async function stopProcess(pid: number): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      /* already gone */
    }
  };
  signal('SIGTERM');
  if (await waitForExit(pid, 10_000)) return;
  signal('SIGKILL');
  await waitForExit(pid, 5_000);
}

/** In the sandbox that `startDetached` started: where its record goes, and how to tell the starter it is ready. */
export function backgroundChild(
  env: Record<string, string | undefined>,
): { dir: string; pid: number; logPath: string; tell(message: ReadyMessage): void } | null {
  const dir = env[BACKGROUND_DIR_ENV];
  const send = process.send?.bind(process);
  if (!dir || !send) return null;
  return { dir, pid: process.pid, logPath: join(dir, LOG_FILE), tell: (message) => void send(message) };
}
