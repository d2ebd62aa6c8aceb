// SIGINT and SIGTERM while waiting: the tool stops waiting, not the trade. Exit 130 / 143, the
// command to follow the trade is printed (also in the --json error line), and the trade goes on
// in the service and completes once its time comes.
import type { ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, test, type TestContext } from 'vitest';
import { trusted } from '../helpers/trust.js';
import { freshHome, json, runCli, type CliResult } from '../helpers/cli.js';
import { completeBuy, newKey, signDeposit, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startScriptedProxy } from '../helpers/scripted-proxy.js';

const API = '/api/v1';
// Seconds on the sandbox's clock: nothing finishes unless the test moves the clock (the sandbox's
// time also runs with real time, and no test runs for 5 minutes; a deposit waits 10 at most).
const SLOW = 300;

let sb: TestSandbox;
let env: Record<string, string>;

beforeEach(async () => {
  sb = await startTestSandbox();
  await sb.setDelays({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0 });
  env = trusted({
    ...freshHome(),
    TRADER_BASE_URL: sb.url,
    TRADER_API_KEY: sb.apiKey,
    TRADER_KEYPAIR: sb.keypairPath,
    TRADER_RPC_URL: sb.rpcUrl,
  });
});

afterEach(async () => {
  await sb.close();
});

/**
 * Sends `signal` to the run as soon as a request matching `seen` has reached the sandbox (for
 * --json runs, which print no progress): the run talks to the sandbox through a proxy that
 * watches its requests, so the signal follows the request itself, not a timer.
 */
async function signalOnRequest(
  t: TestContext,
  signal: NodeJS.Signals,
  seen: (method: string, path: string) => boolean,
) {
  let child: ChildProcess | undefined;
  const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
    const answer = await forward(req);
    if (seen(req.method, req.path.split('?')[0]!)) child?.kill(signal);
    return answer;
  });
  t.onTestFinished(() => proxy.close());
  return { env: trusted({ ...env, TRADER_BASE_URL: proxy.url }), onSpawn: (c: ChildProcess) => void (child = c) };
}

function lastJsonError(r: CliResult): { code: string; message: string } {
  return JSON.parse(r.stderr.trimEnd().split('\n').pop()!).error;
}

function expectNoStack(r: CliResult): void {
  expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
}

/** A buy created and deposited through the API, waiting for its deposit to confirm. */
async function depositedBuy(): Promise<string> {
  const created = await sb.call('POST', '/trade/buys', {
    body: { mint: sb.tokens[0]!.mint, amountLamports: '100000000', idempotencyKey: newKey('sig') },
  });
  const id = created.body.data.intent.id as string;
  const dep = await sb.call('POST', `/trade/buys/${id}/deposit`, {
    body: { signedTransaction: signDeposit(created.body.data.deposit.transaction, sb.keypair) },
  });
  expect(dep.status).toBe(200);
  return id;
}

/** Moves the clock past the slow step and reads the buy until it is final, as a later watcher would. */
async function buyCompletesLater(id: string): Promise<void> {
  await sb.advance(SLOW + 1);
  await sb.call('GET', `/trade/buys/${id}`); // notices the confirmed deposit
  const final = await sb.call('GET', `/trade/buys/${id}`);
  expect(final.body.data.intent.status).toBe('completed');
}

describe('interrupted while waiting for a buy', () => {
  test('SIGINT once the stage line shows: exit 130, the follow command, and the buy still completes', async () => {
    await sb.setDelays({ confirmSeconds: SLOW });
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.1sol', '--yes'], {
      env,
      whenStderr: { includes: 'confirming deposit', then: (child) => child.kill('SIGINT') },
    });
    expect(r.code, r.stderr).toBe(130);
    expect(r.signal).toBeNull();
    const id = /Buy ([0-9a-f-]{36}) created/.exec(r.stderr)![1]!;
    expect(r.stderr).toContain(`trader trades ${id} --watch`);
    expect(r.stdout).toBe('');
    expectNoStack(r);

    // Nothing was cancelled: one deposit reached the service, and the buy goes on.
    const deposits = (await sb.requests()).filter(
      (e) => e.method === 'POST' && e.path === `${API}/trade/buys/${id}/deposit`,
    );
    expect(deposits.map((e) => e.status)).toEqual([200]);
    await buyCompletesLater(id);
  });

  test('SIGTERM with --json: exit 143, and the error line names the follow command', async (t) => {
    await sb.setDelays({ confirmSeconds: SLOW });
    const r = await runCli(
      ['buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json'],
      await signalOnRequest(
        t,
        'SIGTERM',
        (method, path) => method === 'GET' && /^\/api\/v1\/trade\/buys\/[^/]+$/.test(path),
      ),
    );
    expect(r.code, r.stderr).toBe(143);
    expect(r.stdout).toBe('');
    const id = (await sb.requests()).find((e) => /\/deposit$/.test(e.path))!.path.split('/')[5]!;
    const error = lastJsonError(r);
    expect(error.code).toBe('INTERRUPTED');
    expect(error.message).toContain(`trader trades ${id} --watch`);
    await buyCompletesLater(id);
  });
});

describe('interrupted while waiting for a sell', () => {
  test('SIGINT: exit 130 with `trader trades sell_… --watch`, and the sell still completes', async () => {
    await completeBuy(sb);
    await sb.setDelays({ swapSeconds: SLOW });
    const r = await runCli(['sell', sb.tokens[0]!.mint, 'all', '--yes'], {
      env,
      whenStderr: { includes: 'executing', then: (child) => child.kill('SIGINT') },
    });
    expect(r.code, r.stderr).toBe(130);
    const id = /Sell (sell_\w+) quoted/.exec(r.stderr)![1]!;
    expect(r.stderr).toContain(`trader trades ${id} --watch`);
    expectNoStack(r);

    await sb.advance(SLOW + 1);
    const view = await sb.call('GET', `/trade/sells/${id}`);
    expect(view.body.data.authorization.status).toBe('authorized');
    expect(view.body.data.sell.status).toBe('completed');
  });
});

describe('interrupted during `trades <id> --watch`', () => {
  test('SIGINT: exit 130 with the follow command; the buy is untouched and completes', async () => {
    await sb.setDelays({ confirmSeconds: SLOW });
    const id = await depositedBuy();
    const r = await runCli(['trades', id, '--watch'], {
      env,
      whenStderr: { includes: `${id}: `, then: (child) => child.kill('SIGINT') },
    });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(`trader trades ${id} --watch`);
    expect(r.stdout).toBe('');
    expectNoStack(r);
    // Watching only reads.
    expect((await sb.requests()).filter((e) => e.method !== 'GET')).toHaveLength(2); // the test's own create and deposit
    await buyCompletesLater(id);
  });

  test('SIGTERM with --json: exit 143 and the follow command in the error line', async (t) => {
    await sb.setDelays({ confirmSeconds: SLOW });
    const id = await depositedBuy();
    const r = await runCli(
      ['trades', id, '--watch', '--json'],
      await signalOnRequest(t, 'SIGTERM', (_method, path) => path === `${API}/trades/${id}/status`),
    );
    expect(r.code, r.stderr).toBe(143);
    expect(r.stdout).toBe('');
    const error = lastJsonError(r);
    expect(error.code).toBe('INTERRUPTED');
    expect(error.message).toContain(`trader trades ${id} --watch`);
  });

  test('a watch that is not interrupted still finishes normally (control)', async () => {
    const id = await depositedBuy();
    const r = await runCli(['trades', id, '--watch', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).trade.stage).toBe('completed');
  });
});
