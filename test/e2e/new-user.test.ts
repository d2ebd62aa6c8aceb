// A new user's first session in a real terminal (tmux), as the README tells it: nothing
// configured, `trader config init`, then a buy and a sell answered at the prompt — the README
// lines the doc test (readme.test.ts) cannot run, since they ask. The screens are checked for
// the facts a person needs, and the key is never echoed.
import { statSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinsFor } from '../helpers/trust.js';
import { freshHome, runCli } from '../helpers/cli.js';
import { hasTmux, startInTmux, type PtySession } from '../helpers/pty.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const TMUX = hasTmux();
if (!TMUX) console.warn('new-user terminal test skipped: tmux is not installed');

let sb: TestSandbox;
const sessions: PtySession[] = [];
const home = freshHome();

beforeAll(async () => {
  if (!TMUX) return;
  sb = await startTestSandbox();
  await sb.setDelays({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0, refundSeconds: 0 });
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await sb?.close();
});

async function terminal(...args: string[]): Promise<PtySession> {
  // `config init` runs in a shell where the sandbox's eval set TRADER_RPC_URL (and saves it); the
  // trades after it read the sandbox's chain from the saved profile alone.
  const s = await startInTmux(args, {
    ...home,
    NO_COLOR: '1',
    ...(args[0] === 'config' ? { TRADER_RPC_URL: sb.rpcUrl } : {}),
  });
  sessions.push(s);
  return s;
}

describe.skipIf(!TMUX)('a new user at a terminal', () => {
  it('first run without configuration says how to configure and how to try the sandbox', async () => {
    const result = await runCli(['holdings'], { env: home });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    // The sandbox recipe as the README gives it, whole, so it can be copied.
    for (const hint of [
      'trader config init',
      'TRADER_BASE_URL',
      'TRADER_API_KEY',
      '`eval "$(trader sandbox --background)"`',
    ])
      expect(result.stderr).toContain(hint);
  });

  it('config init asks, checks the key with the service, and saves a 0600 profile without echoing the key', async () => {
    const s = await terminal('config', 'init');
    await s.waitFor('Service URL');
    await s.type(sb.url);
    await s.keys('Enter');
    await s.waitFor('API key');
    await s.type(sb.apiKey);
    await s.keys('Enter');
    await s.waitFor('Wallet keypair file');
    await s.type(sb.keypairPath);
    await s.keys('Enter');
    // The RPC URL is asked too, pre-filled from TRADER_RPC_URL (the sandbox's, as its eval exports it): Enter keeps it.
    await s.waitFor(`Solana RPC URL (the chain balances and checks are read from) (${sb.rpcUrl})`);
    await s.keys('Enter');
    const screen = await s.waitFor('Saved profile');
    expect(await s.exitCode()).toBe(0);
    expect(screen).toContain(sb.walletAddress);
    expect(screen).not.toContain(sb.apiKey);
    expect(screen).not.toContain('warning:');
    expect(statSync(home.TRADER_CONFIG).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(home.TRADER_CONFIG, 'utf8'));
    expect(saved.profiles.default).toMatchObject({
      baseUrl: sb.url,
      apiKey: sb.apiKey,
      keypair: sb.keypairPath,
      rpcUrl: sb.rpcUrl,
    });
  });

  it('config init with a sandbox URL and the public chain (no TRADER_RPC_URL): a warning that they do not match, saved as asked', async () => {
    const other = freshHome();
    const s = await startInTmux(['config', 'init'], { ...other, NO_COLOR: '1' }, { width: 160 });
    sessions.push(s);
    await s.waitFor('Service URL');
    await s.type(sb.url);
    await s.keys('Enter');
    await s.waitFor('API key');
    await s.type(sb.apiKey);
    await s.keys('Enter');
    await s.waitFor('Wallet keypair file');
    await s.type(sb.keypairPath);
    await s.keys('Enter');
    await s.waitFor('(https://api.mainnet-beta.solana.com)');
    await s.keys('Enter');
    const screen = await s.waitFor('Saved profile');
    expect(await s.exitCode()).toBe(0);
    expect(screen).toContain(
      `warning: the service ${sb.url} is on this machine (a sandbox?) but the RPC URL (host api.mainnet-beta.solana.com) is not`,
    );
    expect(JSON.parse(readFileSync(other.TRADER_CONFIG, 'utf8')).profiles.default.rpcUrl).toBe(
      'https://api.mainnet-beta.solana.com',
    );
  });

  it('buys at the prompt with the saved profile, then sells half by symbol', async () => {
    const token = sb.tokens[0]!;
    const buy = await terminal('buy', token.mint, '0.2sol');
    const review = await buy.waitFor('Sign and send this deposit? (y/N)');
    for (const fact of [
      '0.2 SOL',
      'Expected out',
      'Minimum out',
      'Platform fee',
      'Network fee',
      sb.treasury,
      'Time left',
    ])
      expect(review).toContain(fact);
    await buy.keys('y', 'Enter');
    const bought = await buy.waitFor(/^Status\s+completed$/m);
    expect(await buy.exitCode()).toBe(0);
    expect(bought).toMatch(/^Received\s+[0-9,.]+ /m);
    // Each grant at the prompt says what it did in one line on stderr (wrapped at 80 columns), its undo whole on the next.
    expect(bought).toContain(`Pinned treasury ${sb.treasury}; undo:\n  trader config trust forget treasury\n`);
    expect(bought.replace(/\n(?! )/g, ' ')).toMatch(
      new RegExp(
        `Recorded ${token.mint.slice(0, 8)}… from the chain: ${token.symbol} \\(.*; undo:\\n  trader config trust forget token ${token.mint} `,
      ),
    );

    const sell = await terminal('sell', token.symbol, '50%');
    const message = await sell.waitFor('Approve this wording and sign this sell? (y/N)');
    expect(message).toContain("Message to sign, this sell's values in ⟦…⟧ (each sell writes its own):");
    expect(message).toContain(`⟦${token.mint}⟧`);
    // The first sell with a service asks a person to approve its wording, each value marked where it stands.
    expect(message).toContain('First sell on this service: yes approves its wording');
    expect(message).toMatch(/Amount: ⟦[\d.]+⟧ ⟦WOOF⟧/);
    // A share of the holding says what it was taken of (newcomer trial 5), and is half of it.
    const [, held] = /^50% of the ([\d,.]+) WOOF held\.$/m.exec(message) ?? [];
    const [, selling] = /^Sell {8}([\d,.]+) WOOF \(\d+ raw\)$/m.exec(message) ?? [];
    expect(Number(selling!.replace(/,/g, '')) * 2, message).toBeCloseTo(Number(held!.replace(/,/g, '')), 4);
    await sell.keys('y', 'Enter');
    const sold = await sell.waitFor(/^SOL received\s+[0-9.]+ SOL$/m);
    expect(await sell.exitCode()).toBe(0);
    expect(sold).toMatch(/^Status\s+completed$/m);
    expect(sold).toMatch(
      /Approved sell wording [0-9a-f]{16} \(unattended sells must match it\); undo:\n {2}trader config trust forget wording\n/,
    );

    // The person pinned the treasury and the wording at the prompt.
    expect(pinsFor(home, sb.url).treasury).toMatchObject({ address: sb.treasury, by: 'prompt' });
    expect(pinsFor(home, sb.url).sellTemplate).toMatchObject({ by: 'prompt' });
  });
});
