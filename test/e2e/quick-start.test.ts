// The README's Quick start leaves a newcomer one copy-paste from trading: the demo runs from the
// clone, and its last line, run as printed in a fresh shell from the clone, starts a sandbox
// (and that sandbox, stopped, leaves no private key behind).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lines } from '../helpers/cli-assert.js';
import { freshHome } from '../helpers/cli.js';
import { tempEnv } from '../helpers/temp.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('quick start', () => {
  it("the demo's last line, run as printed in a fresh shell from the clone, starts the sandbox", async () => {
    const env = { PATH: process.env.PATH!, ...freshHome(), ...tempEnv(), NO_COLOR: '1' };
    // What `npm run demo` runs once it has built (the test run has built already).
    const demo = spawnSync(process.execPath, ['scripts/demo.js'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(demo.status, demo.stderr).toBe(0);
    const last = lines(demo.stdout).at(-1)!;
    expect(last).toBe('node bin/trader.js sandbox');

    const shell = spawn('bash', ['-c', last], { cwd: ROOT, env: { ...env, ...freshHome() }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    shell.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => shell.on('close', resolve));
    await new Promise<void>((resolve, reject) => {
      shell.stdout.on('data', (d) => {
        out += d;
        if (/^export TRADER_KEYPAIR=/m.test(out)) resolve();
      });
      shell.on('close', () => reject(new Error(`the shell ended before the sandbox printed its exports:\n${out}\n${err}`)));
    });
    expect(out).toMatch(/^export TRADER_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/m);
    expect(out).toMatch(/^export TRADER_API_KEY=sk_sandbox_\w+$/m);
    const keypair = /^export TRADER_KEYPAIR=(\S+)$/m.exec(out)![1]!;
    expect(existsSync(keypair)).toBe(true);

    process.kill(-shell.pid!, 'SIGINT'); // Ctrl-C, as at the terminal: the whole process group
    await exited;
    expect(err).toContain('trader sandbox stopped');
    expect(existsSync(keypair)).toBe(false);
  });
});
