// At the prompt, in a real terminal (tmux): the review shows the wallet on chain, and a deposit
// whose blockhash expired while the user decided is refused by the service — the one case where the
// chain proves "nothing was spent": not on chain, and the block height past its last valid block.
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

describe.skipIf(!TMUX)('a deposit signed after its blockhash expired', () => {
  it('the review shows the wallet; the service refuses the deposit; the chain proves nothing was spent', async () => {
    const env = { ...freshHome(), NO_COLOR: '1', TRADER_BASE_URL: sb.url, TRADER_API_KEY: sb.apiKey, TRADER_KEYPAIR: sb.keypairPath, TRADER_RPC_URL: sb.rpcUrl };
    const s = await startInTmux(['buy', sb.tokens[0]!.mint, '0.1sol'], env, { width: 220, height: 60 });
    sessions.push(s);
    const review = await s.waitFor('Sign and send this deposit? (y/N)');
    expect(review).toMatch(/^Wallet\s+100 SOL now, at least 99\.8999945 SOL after \(on chain\)$/m);
    const id = /^Buy id\s+([0-9a-f-]{36})$/m.exec(review)![1]!;
    const before = sb.walletLamports;
    // The user takes two minutes: 300 blocks, twice the blockhash's life of 150.
    await sb.advance(120);
    await s.keys('y', 'Enter');
    expect(await s.exitCode()).toBe(3);
    const screen = (await s.screen()).replace(/\n(?!\S)|\n(?=[a-z(])/g, ' ');
    expect(screen).toMatch(/BLOCKHASH_EXPIRED|blockhash expired/);
    expect(screen).toMatch(/is cancelled, and the chain shows the signed deposit expired unused \(after block height \d+\): nothing was spent; you may buy again/);
    expect((await sb.call('GET', `/trade/buys/${id}`)).body.data.intent.status).toBe('cancelled');
    expect(sb.walletLamports).toBe(before);
  });
});
