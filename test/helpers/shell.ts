// A shell as a user has one: `trader` on PATH (the built binary), a fresh HOME, and scripts run
// through `bash -c` exactly as written. A background sandbox a test started is stopped by
// `stopBackgroundSandboxes` (the file's afterAll), since a detached process outlives its test.
import { spawn, spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from './cli.js';
import { tempDir, tempEnv } from './temp.js';

export interface ShellResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Shell {
  /** The environment of the shell: PATH with `trader` first, HOME, TMPDIR, NO_COLOR. */
  env: Record<string, string>;
  home: string;
  /** Where `trader sandbox --background` keeps its record and log (the default config folder's sandbox/). */
  sandboxDir: string;
  /** Runs `bash -c script` in `cwd` (default: a fresh folder of this shell). */
  run(script: string, opts?: { cwd?: string }): Promise<ShellResult>;
}

const homes: string[] = [];

/** A new shell with a fresh HOME and `trader` on its PATH. */
export function userShell(extraEnv: Record<string, string> = {}): Shell {
  const home = tempDir('trader-shell-home-');
  const bin = join(home, 'bin');
  const work = join(home, 'work');
  spawnSync('mkdir', ['-p', bin, work]);
  symlinkSync(BIN, join(bin, 'trader'));
  homes.push(home);
  const env = { PATH: `${bin}:${process.env.PATH!}`, HOME: home, NO_COLOR: '1', ...tempEnv(), ...extraEnv };
  return {
    env,
    home,
    sandboxDir: join(home, '.config', 'trader', 'sandbox'),
    run(script, opts = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn('bash', ['-c', script], { cwd: opts.cwd ?? work, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    },
  };
}

/** Stops the background sandbox of every shell this file made (a test that failed midway leaves one running). */
export function stopBackgroundSandboxes(): void {
  for (const home of homes.splice(0)) {
    spawnSync(process.execPath, [BIN, 'sandbox', 'stop'], {
      env: { PATH: process.env.PATH!, HOME: home, ...tempEnv() },
      stdio: 'ignore',
    });
  }
}
