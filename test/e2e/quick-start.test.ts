// The README's Quick start leaves a newcomer one copy-paste from trading: `npm run demo` runs
// from the clone, and its last line, run as printed in a fresh shell from the clone, starts a
// sandbox in the background with its variables set; `sandbox stop` then leaves nothing behind.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lines } from '../helpers/cli-assert.js';
import { stopBackgroundSandboxes, userShell } from '../helpers/shell.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

afterAll(() => stopBackgroundSandboxes());

describe('quick start', () => {
  it("the demo's last line, run as printed in a fresh shell from the clone, starts the sandbox and sets its variables", async () => {
    const shell = userShell();
    // What `npm run demo` runs once it has built (the test run has built already).
    const demo = spawnSync(process.execPath, ['scripts/demo.js'], { cwd: ROOT, env: shell.env, encoding: 'utf8' });
    expect(demo.status, demo.stderr).toBe(0);
    const last = lines(demo.stdout).at(-1)!;
    expect(last).toBe('eval "$(node bin/trader.js sandbox --background)"');

    const run = await shell.run(`${last}\nprintf '%s\\n' "$TRADER_KEYPAIR"\nnode bin/trader.js me --json`, {
      cwd: ROOT,
    });
    expect(run.code, run.stderr).toBe(0);
    const [keypair, ...me] = run.stdout.split('\n');
    expect(existsSync(keypair!)).toBe(true);
    expect(JSON.parse(me.join('\n')).walletAddress).toMatch(/^\w{32,44}$/);

    const stop = await shell.run('node bin/trader.js sandbox stop', { cwd: ROOT });
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toMatch(/^stopped the background sandbox \(pid \d+\)/);
    expect(existsSync(keypair!)).toBe(false);
    expect(existsSync(shell.sandboxDir)).toBe(false);
  });
});
