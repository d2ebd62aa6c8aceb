// Runs the built `trader` binary as a user or a script would, in a throw-away HOME.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir, tempEnv } from './temp.js';

export const BIN = fileURLToPath(new URL('../../bin/trader.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** Called once the process started (e.g. to send it a signal later). */
  onSpawn?(child: import('node:child_process').ChildProcess): void;
  /** Resolve when stderr contains this text, calling `then` (used to interrupt at a point). */
  whenStderr?: { includes: string; then(child: import('node:child_process').ChildProcess): void };
}

/** A fresh HOME and config path, so runs never touch the real user's files (removed after the file). */
export function freshHome(): { HOME: string; TRADER_CONFIG: string } {
  const home = tempDir('trader-home-');
  return { HOME: home, TRADER_CONFIG: join(home, 'config.json') };
}

/** Runs still going (a test that timed out leaves its children behind). */
const running = new Set<import('node:child_process').ChildProcess>();

/** Kills what a test file left running (the file's last afterAll). */
export function killLeftoverProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Runs `trader ...args`; never throws on a non-zero exit. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ PATH: process.env.PATH, NO_COLOR: '1', ...tempEnv(), ...opts.env })) {
      if (v !== undefined) env[k] = v;
    }
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let stderr = '';
    let triggered = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (opts.whenStderr && !triggered && stderr.includes(opts.whenStderr.includes)) {
        triggered = true;
        opts.whenStderr.then(child);
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      running.delete(child);
      resolvePromise({ code, signal, stdout, stderr });
    });
    opts.onSpawn?.(child);
    child.stdin.end(opts.input ?? '');
  });
}

/** Parses stdout as the one JSON document --json promises. */
export function json<T = any>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`stdout is not one JSON document:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}
