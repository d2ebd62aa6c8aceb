// Fault injection through the sandbox's control surface: the built binary against a service
// that drops connections, answers 503/429 with Retry-After, hangs, or sends malformed bodies.
// What must hold: a retry never creates a second trade, a signed submission is never repeated
// blindly, every bad answer is exit 3 with one line, and waiting survives transient errors.
import { createServer } from 'node:http';
import { describe, expect, test, type TestContext } from 'vitest';
import { trusted } from '../helpers/trust.js';
import { expectErrorFields } from '../helpers/cli-assert.js';
import { freshHome, json, runCli, type CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { listenLocally } from '../helpers/local-server.js';
import { completeBuy, startTestSandbox, type RequestLogEntry, type TestSandbox } from '../helpers/sandbox.js';
import { startScriptedProxy, type Answer, type ProxiedRequest, type Script } from '../helpers/scripted-proxy.js';

const API = '/api/v1';

interface Fixture {
  sb: TestSandbox;
  env: Record<string, string>;
  fault(...faults: FaultSpec[]): Promise<unknown>;
  positions(): Promise<any[]>;
  activity(type: string): Promise<any[]>;
  buyArgs(): string[];
  /** Buy the first token to completion, then clear the log so it shows only what the sell sends. */
  holdToSell(): Promise<{ positionId: string }>;
  sellArgs(): string[];
}

/** A sandbox of its own per test (faults and logs are per sandbox), so tests run concurrently. */
async function setup(t: TestContext): Promise<Fixture> {
  const sb = await startTestSandbox();
  t.onTestFinished(() => sb.close());
  // Trades finish on the first reads, so the flows need no clock moves.
  await sb.setDelays({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0 });
  return {
    sb,
    env: trusted({
      ...freshHome(),
      TRADER_BASE_URL: sb.url,
      TRADER_API_KEY: sb.apiKey,
      TRADER_KEYPAIR: sb.keypairPath,
      TRADER_RPC_URL: sb.rpcUrl,
    }),
    fault: (...faults) => sb.control('/faults', faults),
    positions: async () => (await sb.call('GET', '/positions', { query: { limit: 100 } })).body.data,
    activity: async (type) => (await sb.call('GET', '/activity', { query: { type, limit: 100 } })).body.data,
    buyArgs: () => ['buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json'],
    holdToSell: async () => {
      const { positionId } = await completeBuy(sb);
      await sb.clearRequests();
      return { positionId };
    },
    sellArgs: () => ['sell', sb.tokens[0]!.mint, 'all', '--yes', '--json'],
  };
}

interface FaultSpec {
  match: { method: string; path: string; exact?: boolean };
  kind?: 'status' | 'truncated' | 'huge' | 'drop-before' | 'drop-after' | 'latency';
  count?: number;
  status?: number;
  retryAfter?: number;
  body?: string;
  contentType?: string;
  ms?: number;
  megabytes?: number;
}

/** Log entries for one method and path (a string is an exact path below /api/v1). */
function entries(log: RequestLogEntry[], method: string, path: string | RegExp): RequestLogEntry[] {
  return log.filter(
    (e) => e.method === method && (typeof path === 'string' ? e.path === API + path : path.test(e.path)),
  );
}

const DEPOSIT = /^\/api\/v1\/trade\/buys\/[^/]+\/deposit$/;
const AUTHORIZE = /^\/api\/v1\/trade\/sells\/[^/]+\/authorize$/;
const GET_BUY = /^\/api\/v1\/trade\/buys\/[^/]+$/;
const GET_SELL = /^\/api\/v1\/trade\/sells\/[^/]+$/;

/**
 * The script of a submission (deposit or authorize) processed late: the first is held and its
 * connection dropped unanswered; reads go through (the trade still waits for it); when the
 * resend comes, the held one reaches the service first and the resend is answered 409. With
 * `lagging`, the first read after the 409 is answered with the state read before it.
 */
function lateFirstSubmission(submit: RegExp, read: RegExp, lagging: boolean): Script {
  let held: ProxiedRequest | null = null;
  let lastRead: Answer | null = null;
  let staleNext = false;
  return async (req, forward) => {
    const path = req.path.split('?')[0]!;
    if (req.method === 'POST' && submit.test(path)) {
      if (held === null) {
        held = req;
        return 'drop';
      }
      await forward(held);
      const answer = await forward(req);
      staleNext = lagging;
      return answer;
    }
    if (req.method === 'GET' && read.test(path)) {
      if (staleNext && lastRead) {
        staleNext = false;
        return lastRead;
      }
      lastRead = await forward(req);
      return lastRead;
    }
    return forward(req);
  };
}

/** A signed submission processed but its answer lost: not sent again; the next request reads the trade at `readPath`. */
function expectReadNotResent(log: RequestLogEntry[], submission: RegExp, readPath: string): void {
  const submitted = entries(log, 'POST', submission);
  expect(submitted.map((e) => [e.status, e.fault])).toEqual([[200, 'drop-after']]);
  const next = log[log.indexOf(submitted[0]!) + 1]!;
  expect([next.method, next.path]).toEqual(['GET', readPath]);
}

/** A signed submission that never reached the service: one read of the trade at `readPath`, then the submission once more. */
function expectReadThenResent(log: RequestLogEntry[], submission: RegExp, readPath: string): void {
  const submitted = entries(log, 'POST', submission);
  expect(submitted.map((e) => [e.status, e.fault])).toEqual([
    [null, 'drop-before'], // never processed
    [200, null],
  ]);
  const between = log.slice(log.indexOf(submitted[0]!) + 1, log.indexOf(submitted[1]!));
  expect(between.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([`GET ${readPath} 200`]);
}

/** A submission overtaken by its resend: the same body twice, the first accepted and the resend refused with 409. */
function expectOneAccepted(log: RequestLogEntry[], submission: RegExp): void {
  const submitted = entries(log, 'POST', submission);
  expect(submitted.map((e) => e.status)).toEqual([200, 409]);
  expect(submitted[1]!.body).toEqual(submitted[0]!.body); // the same signed transaction or signature
}

/**
 * A signed submission (deposit or authorize) whose connection drops: processed with its answer
 * lost, it must not be sent again; never processed, it is sent once more after a read shows the
 * trade still waits for it.
 */
const DROPS = [
  {
    kind: 'drop-after',
    what: 'processed but its answer lost',
    then: 'nothing is resent',
    expectLog: expectReadNotResent,
  },
  {
    kind: 'drop-before',
    what: 'never reached the service',
    then: 'still awaits it, the same submission is sent once more',
    expectLog: expectReadThenResent,
  },
] as const;

/**
 * Exit 3, nothing on stdout, no stack trace, and one line: `error: …` (a second line may hold
 * only the hint and the request id), or in --json mode one `{"error":…}` line.
 */
function expectOneLineServiceError(r: CliResult, mode: 'human' | 'json'): string {
  const where = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
  expect(r.code, where).toBe(3);
  expect(r.stdout, where).toBe('');
  expect(r.stderr, where).not.toMatch(/\n\s+at |internal error/);
  const lines = r.stderr.trimEnd().split('\n');
  if (mode === 'json') {
    expect(lines, where).toHaveLength(1);
    const { error } = JSON.parse(lines[0]!);
    expectErrorFields(error, where);
    return error.message as string;
  }
  expect(lines[0], where).toMatch(/^error: /);
  expect(lines.length, where).toBeLessThanOrEqual(2);
  // The second line: a hint with the request id in brackets, or the request id alone; never glued by spaces.
  if (lines[1]) expect(lines[1], where).toMatch(/^(?!error)(?!.* {2})(.+ \(request id: \S+\)|request id: \S+|[^()]+)$/);
  return lines[0]!;
}

describe.concurrent('connection dropped after a create was processed', () => {
  test('buy: the create is resent with the same idempotencyKey, the command succeeds, one buy exists', async (t) => {
    const { sb, env, fault, positions, activity, buyArgs } = await setup(t);
    const before = (await positions()).length;
    await fault({ match: { method: 'POST', path: '/trade/buys', exact: true }, kind: 'drop-after' });

    const r = await runCli(buyArgs(), { env });
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(out.intent.status).toBe('completed');

    const creates = entries(await sb.requests(), 'POST', '/trade/buys');
    expect(creates.map((e) => [e.status, e.fault])).toEqual([
      [201, 'drop-after'], // processed, answer lost
      [200, null], // the replay returned the original intent
    ]);
    expect(creates[0]!.body.idempotencyKey).toBe(out.idempotencyKey);
    expect(creates[1]!.body).toEqual(creates[0]!.body);

    const after = await positions();
    expect(after).toHaveLength(before + 1);
    expect(after.filter((p) => p.buyTradeId === out.intent.id)).toHaveLength(1);
    expect(await activity('deposit')).toHaveLength(1);
  });

  test('sell: the create is resent with the same idempotencyKey, the command succeeds, one sell exists', async (t) => {
    const { sb, env, fault, activity, holdToSell, sellArgs } = await setup(t);
    const { positionId } = await holdToSell();
    await fault({ match: { method: 'POST', path: '/trade/sells', exact: true }, kind: 'drop-after' });

    const r = await runCli(sellArgs(), { env });
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(out.sell.status).toBe('completed');

    const log = await sb.requests();
    const creates = entries(log, 'POST', '/trade/sells');
    expect(creates.map((e) => [e.status, e.fault])).toEqual([
      [201, 'drop-after'],
      [200, null],
    ]);
    expect(creates[0]!.body.idempotencyKey).toBe(out.idempotencyKey);
    expect(creates[1]!.body).toEqual(creates[0]!.body);
    expect(entries(log, 'POST', AUTHORIZE).map((e) => e.path)).toEqual([
      `${API}/trade/sells/${out.authorization.id}/authorize`,
    ]);

    expect(await activity('sell')).toHaveLength(1);
    const position = (await sb.call('GET', `/positions/${positionId}`)).body.data;
    expect(position.soldAmount).toBe(out.authorization.amount);
  });

  test('a 503 burst on the create is retried with the same key and creates one buy', async (t) => {
    const { sb, env, fault, positions, buyArgs } = await setup(t);
    const before = (await positions()).length;
    await fault({ match: { method: 'POST', path: '/trade/buys', exact: true }, status: 503, retryAfter: 0, count: 2 });

    const r = await runCli(buyArgs(), { env });
    expect(r.code, r.stderr).toBe(0);
    const creates = entries(await sb.requests(), 'POST', '/trade/buys');
    expect(creates.map((e) => e.status)).toEqual([503, 503, 201]);
    expect(new Set(creates.map((e) => e.body.idempotencyKey))).toEqual(new Set([json(r).idempotencyKey]));
    expect(await positions()).toHaveLength(before + 1);
  });
});

describe.concurrent('signed submissions are never repeated blindly', () => {
  test('a 503 on the deposit is not retried blindly: one submission, then a read of the buy', async (t) => {
    const { sb, env, fault, buyArgs } = await setup(t);
    await fault({ match: { method: 'POST', path: `${API}/trade/buys/` }, status: 503, retryAfter: 0, count: 1 });

    const r = await runCli(buyArgs(), { env });
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    const log = await sb.requests();
    const deposits = entries(log, 'POST', DEPOSIT);
    // The 503 is followed by a read; only because the buy still awaited its deposit was the
    // same signed transaction sent again.
    expect(deposits.map((e) => e.status)).toEqual([503, 200]);
    const between = log.slice(log.indexOf(deposits[0]!) + 1, log.indexOf(deposits[1]!));
    expect(between.map((e) => `${e.method} ${e.path}`)).toEqual([`GET ${API}/trade/buys/${out.intent.id}`]);
    expect(deposits[1]!.body).toEqual(deposits[0]!.body);
  });

  test('a deposit refused outright (4xx) cancels the buy intent: exit 3, never "nothing was spent" while the signed deposit can still land; the follow command', async (t) => {
    const { sb, env, fault, buyArgs } = await setup(t);
    await fault({
      match: { method: 'POST', path: `${API}/trade/buys/` },
      status: 422,
      body: JSON.stringify({ error: { code: 'BLOCKHASH_EXPIRED', message: 'the transaction blockhash has expired' } }),
      contentType: 'application/json',
      count: 1,
    });

    const r = await runCli(buyArgs(), { env });
    const message = expectOneLineServiceError(r, 'json');
    expect(message).toMatch(
      /HTTP 422.*blockhash.*is cancelled and the service records no deposit signature; what is not known: the signed deposit stays valid until block height \d+ \(about 90 s\) and could still land until then, so do not buy again before it has expired/,
    );
    expect(message).not.toMatch(/nothing was spent/);
    expect(message).toMatch(/trader trades [0-9a-f-]{36} --watch/);
    const log = await sb.requests();
    expect(entries(log, 'POST', DEPOSIT)).toHaveLength(1);
    const cancels = log.filter((e) => e.method === 'POST' && e.path.endsWith('/cancel'));
    expect(cancels).toHaveLength(1);
    const id = cancels[0]!.path.split('/').at(-2)!;
    expect((await sb.call('GET', `/trade/buys/${id}`)).body.data.intent.status).toBe('cancelled');
  });

  test('a deposit answered 400 that the service then takes (cancel answered 409): exit 3, never "nothing was spent", the follow command; one intent, one deposit', async (t) => {
    const { sb, env, buyArgs } = await setup(t);
    // A service slow to take a deposit it answered with an error: it holds the deposit and
    // sends it on just before the client's cancel arrives, which therefore fails with 409.
    let held: { path: string; body: string } | null = null;
    const forward = async (method: string, path: string, body: string, key: string) => {
      const r = await fetch(sb.url + path, {
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: body || undefined,
      });
      return { status: r.status, text: await r.text() };
    };
    const server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const path = req.url ?? '/';
      const key = String(req.headers['x-api-key'] ?? '');
      if (req.method === 'POST' && DEPOSIT.test(path) && held === null) {
        held = { path, body };
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ error: { code: 'BROADCAST_FAILED', message: 'could not broadcast the deposit' } }),
        );
      }
      if (req.method === 'POST' && path.endsWith('/cancel') && held !== null)
        await forward('POST', held.path, held.body, key);
      const answer = await forward(req.method!, path, body, key);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.text);
    });
    const url = await listenLocally(server);
    t.onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const r = await runCli(buyArgs(), { env: trusted({ ...env, TRADER_BASE_URL: url }) });
    const message = expectOneLineServiceError(r, 'json');
    expect(message).not.toMatch(/nothing was spent/);
    const id = held!.path.split('/')[5]!;
    // The sandbox's chain has the deposit: the chain, not the service's word, says it was spent.
    expect(message).toMatch(
      new RegExp(
        `HTTP 400.*buy ${id} is [a-z_]+ \\(the cancel failed\\), but the chain shows the signed deposit landed: the SOL was spent; follow it with: trader trades ${id} --verify`,
      ),
    );
    expect(message).toContain(`trader trades ${id} --watch`);
    const log = await sb.requests();
    expect(entries(log, 'POST', '/trade/buys')).toHaveLength(1);
    expect(entries(log, 'POST', DEPOSIT).map((e) => e.status)).toEqual([200]);
    expect(entries(log, 'POST', /\/cancel$/).map((e) => e.status)).toEqual([409]);
  });

  test('a deposit that keeps failing: two submissions at most, each after a read, then exit 3; nothing accepted', async (t) => {
    const { sb, env, fault, buyArgs } = await setup(t);
    await fault({ match: { method: 'POST', path: `${API}/trade/buys/` }, status: 503, retryAfter: 0, count: 10 });

    const r = await runCli(buyArgs(), { env });
    const message = expectOneLineServiceError(r, 'json');
    expect(message).toMatch(/HTTP 503/);

    const log = await sb.requests();
    const deposits = entries(log, 'POST', DEPOSIT);
    expect(deposits.map((e) => e.status)).toEqual([503, 503]);
    const reads = entries(log, 'GET', GET_BUY);
    expect(reads).toHaveLength(2);
    expect(reads[0]!.seq).toBeGreaterThan(deposits[0]!.seq);
    expect(reads[0]!.seq).toBeLessThan(deposits[1]!.seq);
    const id = deposits[0]!.path.split('/')[5]!;
    expect((await sb.call('GET', `/trade/buys/${id}`)).body.data.intent.status).toBe('awaiting_deposit');
    // Retryable only with the buy's key, which the error line gives: a retry resumes this buy.
    const { error } = JSON.parse(r.stderr.trim());
    const creates = entries(log, 'POST', '/trade/buys');
    expect(error).toMatchObject({
      category: 'service',
      retryable: true,
      idempotencyKey: creates[0]!.body.idempotencyKey,
      tradeId: id,
    });
  });
});

/** The signed submission of each side: how a test gets one sent, and where the trade is read. */
interface Submission {
  name: 'deposit' | 'authorize';
  side: 'buy' | 'sell';
  /** The trades of the side: `${API}/trade/buys` or `…/sells`. */
  trades: string;
  request: RegExp;
  read: RegExp;
  /** The ledger entry made once the submission is accepted. */
  activity: 'deposit' | 'sell';
  /** Makes ready what the trade needs; returns trader's arguments for it. */
  prepare(fx: Fixture): Promise<string[]>;
  /** The trade's id (a buy intent's, a sell authorization's) and final status in trader's --json output. */
  outcome(out: any): { id: string; status: string };
}

const SUBMISSIONS: Submission[] = [
  {
    name: 'deposit',
    side: 'buy',
    trades: `${API}/trade/buys`,
    request: DEPOSIT,
    read: GET_BUY,
    activity: 'deposit',
    prepare: async (fx) => fx.buyArgs(),
    outcome: (out) => ({ id: out.intent.id, status: out.intent.status }),
  },
  {
    name: 'authorize',
    side: 'sell',
    trades: `${API}/trade/sells`,
    request: AUTHORIZE,
    read: GET_SELL,
    activity: 'sell',
    prepare: async (fx) => (await fx.holdToSell(), fx.sellArgs()),
    outcome: (out) => ({ id: out.authorization.id, status: out.sell.status }),
  },
];

for (const sub of SUBMISSIONS) {
  describe.concurrent(`a signed ${sub.name} whose answer is lost or late is never repeated blindly`, () => {
    /** Exit 0, the trade completed as trader and the service see it, one ledger entry; returns the trade's id. */
    async function expectCompleted(fx: Fixture, r: CliResult): Promise<string> {
      expect(r.code, r.stderr).toBe(0);
      const { id, status } = sub.outcome(json(r));
      expect(status).toBe('completed');
      expect((await fx.sb.call('GET', `/trades/${id}`)).body.data.stage).toBe('completed');
      expect(await fx.activity(sub.activity)).toHaveLength(1);
      return id;
    }

    for (const drop of DROPS) {
      test(`${sub.name} ${drop.what}: the ${sub.side} is read, ${drop.then}, the ${sub.side} completes`, async (t) => {
        const fx = await setup(t);
        const args = await sub.prepare(fx);
        await fx.fault({ match: { method: 'POST', path: `${sub.trades}/` }, kind: drop.kind });

        const id = await expectCompleted(fx, await runCli(args, { env: fx.env }));
        drop.expectLog(await fx.sb.requests(), sub.request, `${sub.trades}/${id}`);
      });
    }

    // A submission processed late (after the client gave up on its answer and read the trade as
    // still waiting for it) lands just before its resend, which the service refuses with 409: the
    // tool reads the trade's real state and follows it (exit 0), and one submission is accepted.
    // A proxy plays the race in a fixed order (helpers/scripted-proxy.ts); with `lagging`, the read
    // right after the 409 still shows the trade waiting, as a service whose reads lag its writes
    // would: the 409 itself says the first one landed.
    for (const lagging of [false, true]) {
      const when = lagging ? ', even when the read after it lags' : '';

      test(`overtaken by its resend (409): the ${sub.side} is read and followed to completion, one ${sub.name} accepted${when}`, async (t) => {
        const fx = await setup(t);
        const args = await sub.prepare(fx);
        const proxy = await startScriptedProxy(fx.sb.url, lateFirstSubmission(sub.request, sub.read, lagging));
        t.onTestFinished(() => proxy.close());

        await expectCompleted(fx, await runCli(args, { env: trusted({ ...fx.env, TRADER_BASE_URL: proxy.url }) }));
        expectOneAccepted(await fx.sb.requests(), sub.request);
      });
    }
  });
}

// Retry-After and polling through failures are timing logic: test/e2e/waiting.test.ts runs them
// in-process on the sandbox's clock. What stays here needs no wait.
describe.concurrent('retries', () => {
  test('a read that stays unavailable gives up after a bounded number of attempts: exit 3, one line', async (t) => {
    const { sb, env, fault } = await setup(t);
    await fault({ match: { method: 'GET', path: '/me' }, status: 503, retryAfter: 0, count: 50 });

    const r = await runCli(['me'], { env });
    const line = expectOneLineServiceError(r, 'human');
    expect(line).toMatch(/HTTP 503.*after 4 attempts/);
    expect(entries(await sb.requests(), 'GET', '/me')).toHaveLength(4);
  });
});

describe.concurrent('a service slower than --request-timeout', () => {
  test('a read that never answers in time: exit 3 "did not answer within N s"', async (t) => {
    const { env, fault } = await setup(t);
    await fault({ match: { method: 'GET', path: '/me' }, kind: 'latency', ms: 3000, count: 10 });

    const r = await runCli(['me', '--request-timeout', '0.2'], { env });
    const line = expectOneLineServiceError(r, 'human');
    expect(line).toMatch(/did not answer within 0\.2 s \(after 4 attempts\)/);
  });

  test('a body dripped a byte at a time never holds the tool: exit 3, each attempt cut at --request-timeout', async (t) => {
    // A purpose-built server (the sandbox has no such fault): headers at once, then one byte
    // every 20 ms, for ever, so the idle timer alone would never fire. (The timers themselves
    // are tested on fake time in test/unit/api-transport.test.ts.)
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":');
      const drip = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(drip));
    });
    const url = await listenLocally(server);
    t.onTestFinished(
      () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    );

    const r = await runCli(['me', '--request-timeout', '0.5'], {
      env: { ...freshHome(), TRADER_BASE_URL: url, TRADER_API_KEY: 'sk_drip_test' },
    });
    const line = expectOneLineServiceError(r, 'human');
    expect(line).toMatch(/took more than 0\.5 s to send its answer \(after 4 attempts\)/);
  });

  test('a create that timed out is retried with the same key: one buy, though the first arrives after its retry', async (t) => {
    const { sb, env, positions, buyArgs } = await setup(t);
    const before = (await positions()).length;
    // The first create gets no answer until the client has given up on it and sent it again;
    // it reaches the service only after its retry.
    let release!: () => void;
    const retried = new Promise<void>((resolve) => (release = resolve));
    let landed!: Promise<Answer>;
    let creates = 0;
    const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
      if (req.method !== 'POST' || req.path !== `${API}/trade/buys`) return forward(req);
      if (++creates === 1) {
        landed = retried.then(() => forward(req));
        return landed;
      }
      const answer = await forward(req);
      release();
      return answer;
    });
    t.onTestFinished(() => proxy.close());

    const r = await runCli([...buyArgs(), '--request-timeout', '1'], {
      env: trusted({ ...env, TRADER_BASE_URL: proxy.url }),
    });
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    await landed;
    const log = entries(await sb.requests(), 'POST', '/trade/buys');
    // The retry created the buy (201); the first, processed late, was given the same buy back
    // (200), as is any further retry (on a machine so slow the retry timed out too).
    expect(log.length).toBeGreaterThanOrEqual(2);
    expect(log.map((e) => e.status)).toEqual([201, ...log.slice(1).map(() => 200)]);
    for (const e of log) expect(e.body.idempotencyKey).toBe(out.idempotencyKey);
    expect(await positions()).toHaveLength(before + 1);
  });
});

describe.concurrent('malformed answers: exit 3, one line, in human and --json mode', () => {
  const cases: Array<[string, FaultSpec, RegExp]> = [
    [
      'malformed JSON with 200',
      {
        match: { method: 'GET', path: '/me' },
        status: 200,
        body: '{"data": {"walletAddress": ',
        contentType: 'application/json',
      },
      /not valid JSON/,
    ],
    ['a truncated body', { match: { method: 'GET', path: '/me' }, kind: 'truncated', count: 10 }, /cut off/],
    [
      'an HTML page from a proxy with 502',
      {
        match: { method: 'GET', path: '/me' },
        status: 502,
        retryAfter: 0,
        body: '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>',
        contentType: 'text/html',
        count: 10,
      },
      /502.*HTML/,
    ],
    [
      'an HTML page with 200',
      {
        match: { method: 'GET', path: '/me' },
        status: 200,
        body: '<html><head><title>Sign in to the Wi-Fi</title></head></html>',
        contentType: 'text/html',
      },
      /HTML page instead of JSON/,
    ],
    [
      'a wrong content type',
      {
        match: { method: 'GET', path: '/me' },
        status: 200,
        body: '{"data":{},"requestId":"r"}',
        contentType: 'text/plain',
      },
      /content-type text\/plain/,
    ],
    ['a body over the size limit', { match: { method: 'GET', path: '/me' }, kind: 'huge', megabytes: 6 }, /too large/],
    [
      'an empty 200',
      { match: { method: 'GET', path: '/me' }, status: 200, body: '', contentType: 'application/json' },
      /empty body/,
    ],
  ];

  // Every other case runs in-process (src/run.ts, the code the binary runs), the rest through the built binary.
  for (const [i, [name, spec, expected]] of cases.entries()) {
    test(name, async (t) => {
      const { sb, env, fault } = await setup(t);
      const trader = (args: string[]) => (i % 2 === 0 ? runCli(args, { env }) : runInProcess(args, env));
      await fault(spec);
      const human = await trader(['me']);
      expect(expectOneLineServiceError(human, 'human')).toMatch(expected);

      await sb.control('/faults', undefined, 'DELETE');
      await fault(spec);
      const machine = await trader(['me', '--json']);
      expect(expectOneLineServiceError(machine, 'json')).toMatch(expected);
    });
  }
});

describe.concurrent('polling', () => {
  test('a malformed answer mid-poll is exit 3 with one line, not a crash', async (t) => {
    const { env, fault, buyArgs } = await setup(t);
    await fault({
      match: { method: 'GET', path: `${API}/trade/buys/` },
      status: 200,
      body: '<html>login</html>',
      contentType: 'text/html',
    });

    const r = await runCli(buyArgs(), { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const { error } = JSON.parse(r.stderr.trimEnd().split('\n').pop()!);
    expect(error.message).toMatch(/HTML/);
    // The deposit was signed and accepted: the failure says how to follow the trade.
    expect(error.message).toMatch(/trader trades [0-9a-f-]{36} --watch/);
  });
});
