// 80×24 screens whose subject is the passing of time, on a sandbox of their own (its clock moves):
// a buy answered after its deposit's blockhash expired (a fresh deposit offered, reviewed, signed),
// a sell that fails after its signature (its summary never says Sold), and `trades --watch`
// followed to the end (its on-chain lines). On each screen nothing is broken by the terminal: every
// line, wrapped rows joined, is at most 80 columns, so no value (a mint, a signature, a time) is
// split across rows.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshHome } from '../helpers/cli.js';
import { hasTmux, shiftedClock, startInTmux, type PtySession } from '../helpers/pty.js';
import { completeBuy, newKey, signDeposit, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { displayWidth } from '../../src/io/display-width.js';
import { trustSandbox } from '../helpers/trust.js';

const TMUX = hasTmux();
if (!TMUX) console.warn('80×24 clock screen tests skipped: tmux is not installed');

let sb: TestSandbox;
const sessions: PtySession[] = [];
/** Seconds a test moved the sandbox's clock ahead: moved back after it, so the next test's authorizations are not created in the future. */
let moved = 0;
const SMALL = { width: 80, height: 24 };

beforeAll(async () => {
  if (!TMUX) return;
  sb = await startTestSandbox();
  await sb.setDelays({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0, refundSeconds: 0 });
  await completeBuy(sb, { mint: sb.tokens[0]!.mint, amountLamports: '500000000' });
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await sb?.close();
});

/** `trader …args` at 80×24 in a fresh home with the trust a person grants the sandbox (its treasury, its sell wording). */
async function onTerminal(clock: ReturnType<typeof shiftedClock> | null, ...args: string[]): Promise<PtySession> {
  const home = freshHome();
  trustSandbox(home, sb.url);
  const env = {
    ...home,
    NO_COLOR: '1',
    TRADER_BASE_URL: sb.url,
    TRADER_API_KEY: sb.apiKey,
    TRADER_KEYPAIR: sb.keypairPath,
    TRADER_RPC_URL: sb.rpcUrl,
    ...clock?.env,
  };
  const s = await startInTmux(args, env, { ...SMALL, ...(clock ? { entry: clock.entry } : {}) });
  sessions.push(s);
  return s;
}

/** Nothing the terminal had to wrap: every line, its wrapped rows joined, fits 80 columns. */
function nothingBroken(screen: string): void {
  for (const line of screen.split('\n'))
    expect(displayWidth(line), `a line the terminal wrapped:\n${line}`).toBeLessThanOrEqual(80);
}

const buyStatus = async (id: string) => (await sb.call('GET', `/trade/buys/${id}`)).body.data.intent.status;
const depositsOf = async (id: string) =>
  (await sb.requests()).filter((r) => r.method === 'POST' && r.path.endsWith(`/${id}/deposit`)).length;

describe.skipIf(!TMUX)('80×24, time passing', () => {
  afterEach(async () => {
    if (moved !== 0) await sb.advance(-moved);
    moved = 0;
  });

  it('a buy answered after its blockhash expired: nothing signed, the dead intent cancelled, a fresh deposit offered, reviewed and signed', async () => {
    const clock = shiftedClock();
    const s = await onTerminal(clock, 'buy', sb.tokens[1]!.mint, '0.05sol');
    const first = await s.waitFor('Sign and send this deposit? (y/N)');
    const firstId = /^Buy id\s+([0-9a-f-]{36})$/m.exec(first)![1]!;
    expect(first).toMatch(/^Time left\s+(1m )?\d+s, an estimate: \d+ blocks of its blockhash left, ~400 ms each$/m);
    // The person takes two minutes, on the tool's clock and on the chain's (300 blocks, twice the blockhash's life).
    clock.set(120_000);
    await sb.advance(120);
    moved += 120;
    // The question counted down to the end: it says what a yes now does.
    await s.waitFor('expired: a yes gets a fresh deposit · Sign and send this deposit? (y/N)');
    await s.keys('y', 'Enter');
    await s.waitFor('Get a fresh deposit? (Y/n)');
    expect(await buyStatus(firstId)).toBe('cancelled');
    await s.keys('Enter');
    const again = await s.waitFor(
      /Buy id\s+[0-9a-f-]{36}[\s\S]*Buy id\s+[0-9a-f-]{36}[\s\S]*Sign and send this deposit\? \(y\/N\)/,
    );
    const secondId = [...again.matchAll(/^Buy id\s+([0-9a-f-]{36})$/gm)]
      .map((m) => m[1]!)
      .find((id) => id !== firstId)!;
    await s.keys('y', 'Enter');
    expect(await s.exitCode()).toBe(0);
    const end = await s.screen();
    nothingBroken(end);
    expect(end).toMatch(/^Status\s+completed$/m);
    expect(end).not.toMatch(/may still go on|error:/);
    expect(await depositsOf(firstId)).toBe(0);
    expect(await depositsOf(secondId)).toBe(1);
    expect(await buyStatus(secondId)).toBe('completed');
  });

  it('a sell that fails after its signature (PRICE_MOVED): the summary says what was Offered, never Sold; every value whole', async () => {
    const mint = sb.tokens[0]!.mint;
    await sb.setDelays({ swapSeconds: 1_000 });
    try {
      const s = await onTerminal(null, 'sell', mint, '10%', '--yes');
      await s.waitFor('executing');
      await sb.control('/price', { mint, multiplier: 0.5 });
      await sb.advance(1_001);
      expect(await s.exitCode()).toBe(4);
      const end = await s.screen();
      nothingBroken(end);
      expect(end).toMatch(/^Status\s+failed$/m);
      expect(end).toMatch(/^Offered\s+[\d,.]+ WOOF$/m);
      expect(end).not.toMatch(/^Sold/m);
      expect(end).toMatch(/PRICE_MOVED/);
    } finally {
      await sb.advance(-1_001);
      await sb.control('/price', { mint, multiplier: 2 });
      await sb.setDelays({ swapSeconds: 0 });
    }
  });

  it('trades <id> --watch to completion ends with the on-chain lines; signatures shortened to fit, nothing broken', async () => {
    await sb.setDelays({ confirmSeconds: 30 });
    try {
      const created = (
        await sb.call('POST', '/trade/buys', {
          body: { mint: sb.tokens[2]!.mint, amountLamports: '20000000', idempotencyKey: newKey('watch') },
        })
      ).body.data;
      const id = created.intent.id as string;
      await sb.call('POST', `/trade/buys/${id}/deposit`, {
        body: { signedTransaction: signDeposit(created.deposit.transaction, sb.keypair) },
      });
      const s = await onTerminal(null, 'trades', id, '--watch', '--interval', '2');
      await s.waitFor('confirming deposit');
      await sb.advance(31);
      moved += 31;
      expect(await s.exitCode()).toBe(0);
      const end = await s.screen();
      nothingBroken(end);
      expect(end).toMatch(/^Stage\s+completed$/m);
      expect(end).toMatch(/^On chain \(127\.0\.0\.1:\d+\): every claim verified on chain$/m);
      expect(end).toMatch(/^ {2}deposit \w{8}…: verified: /m);
      // An 88-character signature does not fit 80 columns: it is shown by its start and end, whole on --json.
      expect(end).toMatch(/^Deposit sig\s+\w+…\w+$/m);
    } finally {
      await sb.setDelays({ confirmSeconds: 0 });
    }
  });
});
