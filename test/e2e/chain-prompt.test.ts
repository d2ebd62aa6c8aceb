// At the prompt, in a real terminal (tmux): the review shows the wallet on chain, and a yes that
// came after the deposit's blockhash expired (the chain's block height, read again, past its last
// valid block) signs nothing: the dead intent is cancelled and a fresh deposit is offered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshHome } from '../helpers/cli.js';
import { hasTmux, startInTmux, type PtySession } from '../helpers/pty.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const TMUX = hasTmux();
if (!TMUX) console.warn('chain prompt tests skipped: tmux is not installed');

let sb: TestSandbox;
const sessions: PtySession[] = [];

beforeAll(async () => {
  if (!TMUX) return;
  sb = await startTestSandbox();
  await sb.setDelays({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0, refundSeconds: 0 });
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await sb?.close();
});

describe.skipIf(!TMUX)("a yes after the deposit's blockhash expired", () => {
  it('the review shows the wallet; the chain, read again after the yes, shows the blockhash dead: nothing is signed, a fresh deposit is offered; "n": exit 4, the intent cancelled', async () => {
    const env = {
      ...freshHome(),
      NO_COLOR: '1',
      TRADER_BASE_URL: sb.url,
      TRADER_API_KEY: sb.apiKey,
      TRADER_KEYPAIR: sb.keypairPath,
      TRADER_RPC_URL: sb.rpcUrl,
    };
    const s = await startInTmux(['buy', sb.tokens[0]!.mint, '0.1sol'], env, { width: 220, height: 60 });
    sessions.push(s);
    const review = await s.waitFor('Sign and send this deposit? (y/N)');
    expect(review).toMatch(/^Wallet\s+100 SOL now, at least 99\.8999945 SOL after \(on chain\)$/m);
    const id = /^Buy id\s+([0-9a-f-]{36})$/m.exec(review)![1]!;
    const before = sb.walletLamports;
    // The user takes two minutes on the chain's clock: 300 blocks, twice the blockhash's life of 150
    // (the tool's own clock does not move: only the chain, read again, can tell).
    await sb.advance(120);
    await s.keys('y', 'Enter');
    await s.waitFor(
      "The deposit's blockhash expired while you were deciding: it could no longer land, so it was not signed.",
    );
    await s.waitFor('Get a fresh deposit? (Y/n)');
    await s.keys('n', 'Enter');
    expect(await s.exitCode()).toBe(4);
    const screen = await s.screen();
    expect(screen).toMatch(
      /^Declined; nothing was signed; the deposit expired unsigned; the buy intent was cancelled\.$/m,
    );
    expect(screen).not.toMatch(/may still go on|error:/);
    expect((await sb.call('GET', `/trade/buys/${id}`)).body.data.intent.status).toBe('cancelled');
    expect((await sb.requests()).some((r) => r.path.endsWith(`/${id}/deposit`))).toBe(false);
    expect(sb.walletLamports).toBe(before);
  });
});
