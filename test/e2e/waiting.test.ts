// How the tool waits: Retry-After on a retried request and on a poll, polling through a run of
// failures, --timeout while the service keeps failing, the 2 s floor between status reads.
// `trader` runs in-process (src/run.ts, as the binary does) on the sandbox's clock
// (helpers/sandbox-clock.ts): every pause it takes moves the sandbox's time instead of waiting,
// so these run in milliseconds and what they see cannot depend on how fast the machine is.
// The binary's own real-time waiting is covered by the --timeout tests of buy, sell and trades.
import { describe, expect, test, type TestContext } from 'vitest';
import { trusted } from '../helpers/trust.js';
import { stderrJson } from '../helpers/cli-assert.js';
import { freshHome, json } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { sandboxClock, type SandboxClock } from '../helpers/sandbox-clock.js';
import { signDeposit, newKey, startTestSandbox, type RequestLogEntry, type TestSandbox } from '../helpers/sandbox.js';

const API = '/api/v1';
const GET_BUY = /^\/api\/v1\/trade\/buys\/[^/]+$/;

interface Fixture {
  sb: TestSandbox;
  clock: SandboxClock;
  trader(...args: string[]): ReturnType<typeof runInProcess>;
  fault(...faults: object[]): Promise<unknown>;
  log(method: string, path: string | RegExp): Promise<RequestLogEntry[]>;
}

/** A sandbox and a clock of its own per test, so tests run concurrently. */
async function setup(t: TestContext): Promise<Fixture> {
  const sb = await startTestSandbox();
  t.onTestFinished(() => sb.close());
  await sb.setDelays({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0 });
  const clock = sandboxClock(sb);
  const env = trusted({
    ...freshHome(),
    TRADER_BASE_URL: sb.url,
    TRADER_API_KEY: sb.apiKey,
    TRADER_KEYPAIR: sb.keypairPath,
    TRADER_RPC_URL: sb.rpcUrl,
  });
  return {
    sb,
    clock,
    trader: (...args) => runInProcess(args, env, { clock, fetch: clock.fetch }),
    fault: (...faults) => sb.control('/faults', faults),
    log: async (method, path) =>
      (await sb.requests()).filter(
        (e) => e.method === method && (typeof path === 'string' ? e.path === API + path : path.test(e.path)),
      ),
  };
}

/** Gaps between log entries on the sandbox's clock, in ms. */
function gaps(log: RequestLogEntry[]): number[] {
  const times = log.map((e) => Date.parse(e.time));
  return times.slice(1).map((t, i) => t - times[i]!);
}

describe.concurrent('Retry-After', () => {
  test('a burst of 503 with Retry-After on a read: retried after what the service asked, then success', async (t) => {
    const { sb, clock, trader, fault, log } = await setup(t);
    await fault({ match: { method: 'GET', path: '/me' }, status: 503, retryAfter: 1, count: 3 });

    const r = await trader('me', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).walletAddress).toBe(sb.walletAddress);
    const reads = await log('GET', '/me');
    expect(reads.map((e) => e.status)).toEqual([503, 503, 503, 200]);
    expect(clock.sleeps).toEqual([1000, 1000, 1000]);
    for (const gap of gaps(reads)) expect(gap).toBeGreaterThanOrEqual(1000);
  });

  test('429 with Retry-After is honoured the same way', async (t) => {
    const { clock, trader, fault, log } = await setup(t);
    await fault({ match: { method: 'GET', path: '/holdings' }, status: 429, retryAfter: 2, count: 2 });

    const r = await trader('holdings', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(Array.isArray(json(r))).toBe(true);
    const reads = await log('GET', '/holdings');
    expect(reads.map((e) => e.status)).toEqual([429, 429, 200]);
    expect(clock.sleeps).toEqual([2000, 2000]);
    for (const gap of gaps(reads)) expect(gap).toBeGreaterThanOrEqual(2000);
  });

  test('the Retry-After of a poll read that gave up is waited for before the next poll, instead of the 2 s interval', async (t) => {
    const { sb, clock, trader, fault, log } = await setup(t);
    await fault(
      { match: { method: 'GET', path: `${API}/trade/buys/` }, status: 503, retryAfter: 0, count: 3 },
      { match: { method: 'GET', path: `${API}/trade/buys/` }, status: 503, retryAfter: 7, count: 1 },
    );

    const r = await trader('buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json');
    expect(r.code, r.stderr).toBe(0);
    const reads = await log('GET', GET_BUY);
    expect(reads.map((e) => e.status)).toEqual([503, 503, 503, 503, 200]);
    // The client's attempts were spent on the fourth 503 (three pauses of 0 s it asked for);
    // the poll waits the 7 s it asked for, not its 2 s.
    expect(clock.sleeps).toEqual([0, 0, 0, 7000]);
    expect(Date.parse(reads[4]!.time) - Date.parse(reads[3]!.time)).toBeGreaterThanOrEqual(7000);
  });
});

describe.concurrent('polling through failures', () => {
  test('survives a run of 503s on the buy read mid-poll and completes', async (t) => {
    const { sb, clock, trader, fault, log } = await setup(t);
    await fault({ match: { method: 'GET', path: `${API}/trade/buys/` }, status: 503, retryAfter: 0, count: 6 });

    const r = await trader('buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).intent.status).toBe('completed');
    expect((await log('GET', GET_BUY)).map((e) => e.status)).toEqual([503, 503, 503, 503, 503, 503, 200]);
    // Four attempts of one read (no pause asked for), the poll's 2 s, two more attempts.
    expect(clock.sleeps).toEqual([0, 0, 0, 2000, 0, 0]);
  });

  test('a service that keeps failing while the buy is followed: exit 5 at --timeout with the follow command, human and --json', async (t) => {
    const { sb, clock, trader, fault, log } = await setup(t);
    await fault({ match: { method: 'GET', path: `${API}/trade/buys/` }, status: 503, retryAfter: 0, count: 1000 });

    const human = await trader('buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--timeout', '5');
    expect(human.code, human.stderr).toBe(5);
    const id = (await log('POST', /\/deposit$/))[0]!.path.split('/')[5]!;
    expect(human.stderr).toContain(`trader trades ${id} --watch`);
    expect(human.stderr).not.toMatch(/\n\s+at /);
    // Polls every 2 s, the last pause cut to the deadline (less the time the reads took): the
    // wait is the --timeout, on the sandbox's clock.
    const pauses = clock.sleeps.filter((ms) => ms > 0);
    expect(pauses.slice(0, 2)).toEqual([2000, 2000]);
    expect(pauses).toHaveLength(3);
    expect(pauses[2]).toBeGreaterThan(0);
    expect(pauses[2]).toBeLessThanOrEqual(1000);

    const machine = await trader('buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json', '--timeout', '5');
    expect(machine.code, machine.stderr).toBe(5);
    const out = json(machine);
    const { error } = JSON.parse(machine.stderr.trimEnd().split('\n').pop()!);
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain(`trader trades ${out.intent.id} --watch`);
  });
});

describe.concurrent('trades --watch', () => {
  test('follows a buy to completed (reading the buy, which advances it), never reading its status twice within 2 s: exit 0, the full trade printed', async (t) => {
    const { sb, clock, trader, log } = await setup(t);
    await sb.setDelays({ confirmSeconds: 3, swapSeconds: 5 });
    const created = await sb.call('POST', '/trade/buys', {
      body: { mint: sb.tokens[0]!.mint, amountLamports: '20000000', idempotencyKey: newKey('w') },
    });
    const id = created.body.data.intent.id as string;
    const deposit = await sb.call('POST', `/trade/buys/${id}/deposit`, {
      body: { signedTransaction: signDeposit(created.body.data.deposit.transaction, sb.keypair) },
    });
    expect(deposit.status).toBe(200);
    await sb.clearRequests();

    const r = await trader('trades', id, '--watch', '--json');
    expect(r.code, r.stderr).toBe(0);
    const api = (await sb.call('GET', `/trades/${id}`)).body;
    expect(api.data.stage).toBe('completed');
    expect(json(r)).toEqual({ trade: api.data });
    stderrJson(r); // only JSON lines on stderr
    const status = await log('GET', `/trades/${id}/status`);
    expect(status.length).toBeGreaterThanOrEqual(3);
    for (const gap of gaps(status)) expect(gap).toBeGreaterThanOrEqual(2000);
    expect(clock.sleeps.every((ms) => ms >= 2000)).toBe(true);
    const seen = (await sb.requests()).map((q) => `${q.method} ${q.path}`);
    expect(seen).toContain(`GET ${API}/trade/buys/${id}`);
    expect(seen.at(-1)).toBe(`GET ${API}/trades/${id}`);
  });
});
