// Resuming and limits at the edges: a sell resumed by key after it already sold, a key reused
// for a different buy, --no-wait on a buy that is already over, the profile's slippage limit
// applied when no --slippage-bps is typed, a buy whose token facts cannot be read, and config
// values that do not parse. (A config folder that cannot be written now stops a trade before
// anything is created, at the journal: test/e2e/journal.test.ts; a treasury pin that cannot be
// stored is test/unit/buy-flow.test.ts.)
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trusted } from '../helpers/trust.js';
import { freshHome, json, runCli } from '../helpers/cli.js';
import { completeBuy, newKey, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTamperProxy } from '../helpers/tamper-proxy.js';

let sb: TestSandbox;
const API = '/api/v1';

beforeAll(async () => {
  sb = await startTestSandbox();
  await sb.setDelays({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0 });
});
afterAll(() => sb?.close());

const envFor = (over: Record<string, string> = {}) =>
  trusted({
    ...freshHome(),
    TRADER_BASE_URL: sb.url,
    TRADER_API_KEY: sb.apiKey,
    TRADER_KEYPAIR: sb.keypairPath,
    TRADER_RPC_URL: sb.rpcUrl,
    ...over,
  });
const posts = async (suffix: string) =>
  (await sb.requests()).filter((r) => r.method === 'POST' && r.path.endsWith(suffix));

describe('resuming by idempotency key', () => {
  it('a sell resumed after it sold everything reports the finished sell instead of "you hold none"', async () => {
    const token = sb.tokens[2]!;
    await completeBuy(sb, { mint: token.mint, amountLamports: '100000000' });
    const env = envFor();
    const first = await runCli(['sell', token.mint, 'all', '--yes', '--json', '--idempotency-key', 'sell-all-once'], {
      env,
    });
    expect(first.code, first.stderr).toBe(0);
    const { authorization } = json(first);
    await sb.clearRequests();
    const again = await runCli(
      ['sell', token.mint, authorization.amount, '--yes', '--json', '--idempotency-key', 'sell-all-once'],
      { env },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(json(again).authorization.id).toBe(authorization.id);
    expect(await posts('/authorize')).toHaveLength(0);
  });

  it('a reused key with other parameters: the sandbox answers 409 (exit 3) and the earlier buy is left alone', async () => {
    const key = newKey('reused');
    const other = await sb.call('POST', '/trade/buys', {
      body: { mint: sb.tokens[0]!.mint, amountLamports: '20000000', idempotencyKey: key },
    });
    expect(other.status).toBe(201);
    await sb.clearRequests();
    const r = await runCli(['buy', sb.tokens[0]!.mint, '30000000', '--yes', '--idempotency-key', key], {
      env: envFor(),
    });
    expect(r.code, r.stderr).toBe(3);
    expect(await posts('/cancel')).toHaveLength(0);
    expect((await sb.call('GET', `/trade/buys/${other.body.data.intent.id}`)).body.data.intent.status).toBe(
      'awaiting_deposit',
    );
  });

  it('a typed key answered with a buy of other parameters (a service that replays): exit 2, nothing cancelled or signed', async () => {
    // The API does not say how a reused key with other parameters is answered; a service may
    // replay the original buy, which the tool must take for the user's mistake, not sign or cancel.
    const proxy = await startTamperProxy(sb.url);
    try {
      proxy.rewrite('POST', /^\/api\/v1\/trade\/buys$/, (b) => ({
        ...b,
        data: { ...b.data, intent: { ...b.data.intent, amountLamports: '20000000' } },
      }));
      const r = await runCli(['buy', sb.tokens[0]!.mint, '30000000', '--yes', '--idempotency-key', newKey('typed')], {
        env: envFor({ TRADER_BASE_URL: proxy.url }),
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/belongs to another buy/);
      expect(proxy.seen.filter((q) => q.path.endsWith('/cancel') || q.path.endsWith('/deposit'))).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('--no-wait on a resumed buy that was cancelled is exit 4, not "deposit accepted"', async () => {
    const key = newKey('nowait');
    const created = await sb.call('POST', '/trade/buys', {
      body: { mint: sb.tokens[0]!.mint, amountLamports: '20000000', idempotencyKey: key },
    });
    await sb.call('POST', `/trade/buys/${created.body.data.intent.id}/cancel`, { body: {} });
    const r = await runCli(
      ['buy', sb.tokens[0]!.mint, '20000000', '--yes', '--no-wait', '--json', '--idempotency-key', key],
      { env: envFor() },
    );
    expect(r.code, r.stderr).toBe(4);
    expect(json(r).intent.status).toBe('cancelled');
  });
});

describe('limits and side facts', () => {
  it("the profile's maxSlippageBps is asked for when no --slippage-bps is typed", async () => {
    const env = envFor();
    writeFileSync(env.TRADER_CONFIG, JSON.stringify({ profiles: { default: { maxSlippageBps: 40 } } }), {
      mode: 0o600,
    });
    await sb.clearRequests();
    const r = await runCli(['buy', sb.tokens[1]!.mint, '0.01sol', '--yes', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const creates = await posts('/trade/buys');
    expect((creates[0]!.body as { slippageBps?: number }).slippageBps).toBe(40);
  });

  it('a buy goes on when holdings (read only for the token name) cannot be read', async () => {
    await sb.control('/faults', [{ match: { method: 'GET', path: `${API}/holdings` }, status: 403, count: 5 }]);
    try {
      const r = await runCli(['buy', sb.tokens[1]!.mint, '0.01sol', '--yes', '--json'], { env: envFor() });
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await sb.control('/faults', [], 'DELETE');
    }
  });
});

describe('config values', () => {
  it('config set refuses what the tool could not read back; a bad hand-edited value can still be fixed with config set', async () => {
    const env = envFor();
    const tooLong = await runCli(['config', 'set', 'timeout', '3000000'], { env });
    expect(tooLong.code).toBe(2);
    writeFileSync(
      env.TRADER_CONFIG,
      JSON.stringify({ profiles: { default: { timeout: 'soon', maxBuyLamports: '-5' } } }),
      { mode: 0o600 },
    );
    const broken = await runCli(['me'], { env });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/config key (timeout|maxBuyLamports)/);
    for (const [key, value] of [
      ['timeout', '60'],
      ['maxBuyLamports', '500000000'],
    ]) {
      const fixed = await runCli(['config', 'set', key!, value!], { env });
      expect(fixed.code, fixed.stderr).toBe(0);
    }
    expect((await runCli(['me'], { env })).code).toBe(0);
  });
});
