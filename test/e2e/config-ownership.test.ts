// A config folder or trust store that another user owns, or that others can write, is refused:
// exit 2, one line saying which and how to fix it, before any request (their pins would be
// someone else's: a treasury, a sell wording). The pure rule is unit-tested with injected stat
// facts (test/unit/locked-file.test.ts); another owner is played here only when run as root.
import { chmodSync, chownSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectHumanError } from '../helpers/cli-assert.js';
import { freshHome, runCli } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { trustPath, trusted } from '../helpers/trust.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
  await sb.setDelays({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0 });
});
afterAll(() => sb?.close());

const envIn = (home: { HOME: string; TRADER_CONFIG: string }) => ({
  ...home,
  TRADER_BASE_URL: sb.url,
  TRADER_API_KEY: sb.apiKey,
  TRADER_KEYPAIR: sb.keypairPath,
  // The chain the token's risks are read from: an unattended buy with risks unread is refused.
  TRADER_RPC_URL: sb.rpcUrl,
});
/** A home whose trust store already holds what a person grants the sandbox. */
const trustedHome = () => {
  const home = freshHome();
  trusted(envIn(home));
  return home;
};
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('config folder and trust store ownership', () => {
  it('a config folder others can write: config set and a buy are refused (exit 2, one line), nothing sent', async () => {
    const home = trustedHome();
    const dir = dirname(home.TRADER_CONFIG);
    chmodSync(dir, 0o770);
    await sb.clearRequests();
    const [set, buy] = await Promise.all([
      runCli(['config', 'set', 'timeout', '60'], { env: envIn(home) }),
      runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes'], { env: envIn(home) }),
    ]);
    const says = new RegExp(
      `config folder ${dir} can be changed by other users \\(mode 770\\); run: chmod go-w ${dir}`,
    );
    expectHumanError(set, 2, says);
    expectHumanError(buy, 2, says);
    expect(await sb.requests()).toEqual([]);
    // Fixed as told, the same buy goes through.
    chmodSync(dir, 0o700);
    const again = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: envIn(home) });
    expect(again.code, again.stderr).toBe(0);
  });

  it('a trust store others can write: refused before any request', async () => {
    const home = trustedHome();
    const first = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: envIn(home) });
    expect(first.code, first.stderr).toBe(0);
    const store = trustPath(home);
    chmodSync(store, 0o620);
    await sb.clearRequests();
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes'], { env: envIn(home) });
    expectHumanError(
      r,
      2,
      new RegExp(`trust store ${store} can be changed by other users \\(mode 620\\); run: chmod go-w ${store}`),
    );
    expect(await sb.requests()).toEqual([]);
  });

  it.runIf(isRoot)('a trust store owned by another user: refused (run as root, which can chown)', async () => {
    const home = trustedHome();
    const first = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: envIn(home) });
    expect(first.code, first.stderr).toBe(0);
    const store = trustPath(home);
    chownSync(store, 4242, 4242);
    const r = await runCli(['sell', sb.tokens[0]!.mint, '10%', '--yes'], { env: envIn(home) });
    expectHumanError(r, 2, new RegExp(`trust store ${store} belongs to another user \\(uid 4242; you are uid 0\\)`));
  });
});
