// The read commands end to end: trader (in-process, and a sample through the built binary)
// against an in-process sandbox. State is set up through the API directly (faster than trading
// through the CLI); the sandbox's request log and clock control show what the CLI sent and make
// waiting deterministic.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectHumanError, expectJsonError, lines, maxWidth, stderrJson } from '../helpers/cli-assert.js';
import { freshHome, json, runCli, type CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { HOSTILE_SUFFIX, startCursorProxy, type CursorProxy } from '../helpers/cursor-proxy.js';
import {
  completeBuy,
  newKey,
  signDeposit,
  signMessage,
  startTestSandbox,
  type TestSandbox,
} from '../helpers/sandbox.js';
import { startTamperProxy, type TamperProxy } from '../helpers/tamper-proxy.js';

let sb: TestSandbox;
let env: Record<string, string>;
let buyIds: string[];
let positionIds: string[];
let sellId: string;
const SEEDED = 23;

/**
 * `trader …args` against the sandbox (or `over` a proxy's URL), in-process: the code the binary
 * runs (src/run.ts), without a process start per run. `bin` is the same through the built
 * binary, for what only a process shows (its streams piped, its own real-time waits) and a
 * sample of the rest.
 */
const cli = (args: string[], over: Record<string, string | undefined> = {}): Promise<CliResult> =>
  runInProcess(args, { ...env, ...over });
const bin = (args: string[], over: Record<string, string | undefined> = {}): Promise<CliResult> =>
  runCli(args, { env: { ...env, ...over } });
/** Lines holding an 88-character transaction signature are meant to be copied whole, not fitted. */
const withoutSignatures = (text: string) =>
  text
    .split('\n')
    .filter((l) => !/ [1-9A-HJ-NP-Za-km-z]{86,88}$/.test(l))
    .join('\n');
const apiData = async (path: string, query?: Record<string, string | number>) => {
  const r = await sb.call('GET', path, { query });
  expect(r.status, r.text).toBe(200);
  return r.body;
};

beforeAll(async () => {
  sb = await startTestSandbox();
  env = { ...freshHome(), TRADER_BASE_URL: sb.url, TRADER_API_KEY: sb.apiKey };
  const buys = [
    await completeBuy(sb, { mint: sb.tokens[0]!.mint, amountLamports: '100000000' }),
    await completeBuy(sb, { mint: sb.tokens[1]!.mint, amountLamports: '300000000' }),
    await completeBuy(sb, { mint: sb.tokens[2]!.mint, amountLamports: '200000000' }),
  ];
  buyIds = buys.map((b) => b.intent.id);
  positionIds = buys.map((b) => b.positionId);
  await sb.control('/seed', { activity: SEEDED, positions: SEEDED, positionStatus: 'closed' });
  const held = BigInt((await apiData(`/positions/${positionIds[0]}`)).data.remainingAmount);
  const sell = await sb.call('POST', '/trade/sells', {
    body: { mint: sb.tokens[0]!.mint, amount: (held / 10n).toString(), idempotencyKey: newKey('sell') },
  });
  expect(sell.status, sell.text).toBe(201);
  sellId = sell.body.data.authorization.id;
});
afterAll(async () => {
  await sb?.close();
});

describe('single objects: human and --json', () => {
  it('me: key facts in human mode; --json is exactly the API data', async () => {
    const [human, machine, api] = await Promise.all([bin(['me']), bin(['me', '--json']), apiData('/me')]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toBe('');
    expect(human.stdout).toContain(sb.walletAddress);
    expect(human.stdout).toContain(api.data.accountId);
    // The sandbox's display prefix is the key's first 16 characters: only 4 of them are shown.
    const hidden = { ...api.data, apiKey: { ...api.data.apiKey, prefix: `${api.data.apiKey.prefix.slice(0, 4)}…` } };
    expect(human.stdout).toContain(hidden.apiKey.prefix);
    expect(human.stdout).not.toContain(api.data.apiKey.prefix.slice(0, 8));
    expect(human.stdout).toContain('trade:intents');
    expect(maxWidth(human.stdout)).toBeLessThanOrEqual(80);
    expect(machine.code, machine.stderr).toBe(0);
    expect(machine.stderr).toBe('');
    // The API's data unchanged but for pieces of the key, which are never printed.
    expect(json(machine)).toEqual(hidden);
  });

  it('options before or after the command mean the same; piped output has no colour even without NO_COLOR', async () => {
    const noColorUnset = { NO_COLOR: undefined };
    const [before, after, mixed, piped, pipedError] = await Promise.all([
      bin(['--json', 'positions', '--limit', '3']),
      bin(['positions', '--limit', '3', '--json']),
      bin(['--limit', '3', 'positions', '--json']).then(() => bin(['positions', '--json', '--limit', '3'])),
      bin(['holdings'], noColorUnset),
      bin(['positions', randomUUID()], noColorUnset),
    ]);
    expect(before.code, before.stderr).toBe(0);
    expect(json(before)).toHaveLength(3);
    expect(json(after)).toEqual(json(before));
    expect(json(mixed)).toEqual(json(before));
    expect(piped.code).toBe(0);
    expect(piped.stdout + piped.stderr).not.toMatch(/\u001b\[/);
    expect(pipedError.stderr).not.toMatch(/\u001b\[/);
  });

  it('points: human summary and --json equal to the API', async () => {
    const [human, machine, api] = await Promise.all([cli(['points']), cli(['points', '--json']), apiData('/points')]);
    expect(human.code, human.stderr).toBe(0);
    expect(api.data.totalPoints).toBeGreaterThan(0);
    expect(human.stdout).toMatch(/Points\s+[\d,.]+/);
    expect(human.stdout).toContain(`of ${api.data.participants.toLocaleString('en-US')}`);
    expect(human.stdout).toContain(`${api.data.completedSwaps}`);
    expect(maxWidth(human.stdout)).toBeLessThanOrEqual(80);
    expect(machine.code, machine.stderr).toBe(0);
    expect(json(machine)).toEqual(api.data);
  });

  it('positions <id>: the one position, human and --json', async () => {
    const id = positionIds[1]!;
    const [human, machine, upper, api] = await Promise.all([
      cli(['positions', id]),
      cli(['positions', id, '--json']),
      cli(['positions', id.toUpperCase(), '--json']),
      apiData(`/positions/${id}`),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(id);
    expect(human.stdout).toContain(sb.tokens[1]!.symbol);
    expect(human.stdout).toContain(api.data.status);
    expect(human.stdout).toContain('0.3 SOL'); // principal, as a decimal with its unit
    expect(maxWidth(withoutSignatures(human.stdout))).toBeLessThanOrEqual(80);
    expect(json(machine)).toEqual(api.data);
    expect(json(upper)).toEqual(api.data);
  });

  it('positions <id> of another account: exit 3, a clear not-found', async () => {
    const created = await sb.call('POST', '/trade/buys', {
      key: sb.otherApiKey,
      body: { mint: sb.tokens[0]!.mint, amountLamports: '50000000', idempotencyKey: newKey('other') },
    });
    expect(created.status, created.text).toBe(201);
    const others = await sb.call('GET', '/positions', { key: sb.otherApiKey });
    const otherId = others.body.data[0].id as string;
    const [human, machine] = await Promise.all([cli(['positions', otherId]), cli(['positions', otherId, '--json'])]);
    expectHumanError(human, 3, /not found/i);
    expect(human.stdout).toBe('');
    const err = expectJsonError(machine, 3);
    expect(err.status).toBe(404);
    expect(err.message).toMatch(/not found/i);
    expect(err.requestId).toMatch(/\S/);
  });

  it('trades <buyId>: the full trade, human and --json', async () => {
    const id = buyIds[0]!;
    const [human, machine, api] = await Promise.all([
      cli(['trades', id]),
      cli(['trades', id, '--json']),
      apiData(`/trades/${id}`),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(id);
    expect(human.stdout).toMatch(/Stage\s+completed/);
    expect(human.stdout).toContain(api.data.signatures.deposit);
    expect(maxWidth(withoutSignatures(human.stdout))).toBeLessThanOrEqual(80);
    expect(machine.code, machine.stderr).toBe(0);
    expect(json(machine)).toEqual({ trade: api.data });
  });

  it('trades sell_…: read through /trade/sells/{id}, human and --json', async () => {
    await sb.clearRequests();
    const [human, machine, api] = await Promise.all([
      cli(['trades', sellId]),
      cli(['trades', sellId, '--json']),
      apiData(`/trade/sells/${sellId}`),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(sellId);
    expect(human.stdout).toContain(sb.tokens[0]!.mint);
    expect(human.stdout).toMatch(/Authorization\s+awaiting_signature/);
    expect(maxWidth(human.stdout)).toBeLessThanOrEqual(80);
    expect(json(machine)).toEqual(api.data);
    const paths = (await sb.requests()).map((r) => `${r.method} ${r.path}`);
    expect(paths.filter((p) => p === `GET /api/v1/trade/sells/${sellId}`)).toHaveLength(3);
    expect(paths.some((p) => p.startsWith('GET /api/v1/trades/'))).toBe(false);
  });

  it('cancel <buyId>: cancels (human and --json), the --json document is the API data', async () => {
    const make = async () => {
      const r = await sb.call('POST', '/trade/buys', {
        body: { mint: sb.tokens[3]!.mint, amountLamports: '10000000', idempotencyKey: newKey('c') },
      });
      expect(r.status, r.text).toBe(201);
      return r.body.data.intent.id as string;
    };
    const [a, b] = await Promise.all([make(), make()]);
    const [human, machine] = await Promise.all([cli(['cancel', a]), cli(['cancel', b, '--json'])]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(a);
    expect(human.stdout).toMatch(/Status\s+cancelled/);
    expect(machine.code, machine.stderr).toBe(0);
    const after = await apiData(`/trade/buys/${b}`);
    expect(json(machine)).toEqual(after.data);
    expect(after.data.intent.status).toBe('cancelled');
    // Twice: the service refuses (409 here), the buy is read, and it already was cancelled: exit 0.
    const [again, againJson] = await Promise.all([cli(['cancel', a]), cli(['cancel', b, '--json'])]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^Status\s+cancelled \(it already was; nothing to do\)$/m);
    expect(againJson.code, againJson.stderr).toBe(0);
    expect(json(againJson)).toEqual(after.data);
    // A buy in any other state says which (exit 3).
    expectHumanError(
      await cli(['cancel', buyIds[0]!]),
      3,
      new RegExp(`^error: buy ${buyIds[0]} is completed; only a buy awaiting its deposit can be cancelled$`),
    );
  });
});

describe('ids typed shortened, as tables show them', () => {
  it('a unique prefix of 8+ characters works for positions, trades and cancel; too short or unknown is exit 2', async () => {
    const created = await sb.call('POST', '/trade/buys', {
      body: { mint: sb.tokens[3]!.mint, amountLamports: '10000000', idempotencyKey: newKey('p') },
    });
    const pending = created.body.data.intent.id as string;
    const [position, trade, cancel, short, unknown] = await Promise.all([
      cli(['positions', positionIds[1]!.slice(0, 8)]),
      cli(['trades', `${buyIds[1]!.slice(0, 10)}…`]), // copied from a table, ellipsis and all
      cli(['cancel', pending.slice(0, 13)]),
      cli(['positions', positionIds[1]!.slice(0, 7)]),
      cli(['trades', '00000000-0000', '--json']),
    ]);
    expect(position.code, position.stderr).toBe(0);
    expect(position.stdout).toMatch(new RegExp(`^Position\\s+${positionIds[1]}$`, 'm'));
    expect(trade.code, trade.stderr).toBe(0);
    expect(trade.stdout).toMatch(new RegExp(`^Trade\\s+${buyIds[1]}$`, 'm'));
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toMatch(new RegExp(`^Buy\\s+${pending}\nStatus\\s+cancelled$`, 'm'));
    expectHumanError(
      short,
      2,
      /position id "[0-9a-f]{7}" is too short: type at least 8 characters of it, or the whole id/,
    );
    expect(expectJsonError(unknown, 2).message).toBe(
      'no buy or position of this account starts with 00000000-0000 (see `trader trades`)',
    );
  });

  it('trades <position id>, whole or a prefix: the buy that opened it (what the hints and `positions` name can be followed)', async () => {
    const [whole, prefix, machine] = await Promise.all([
      cli(['trades', positionIds[2]!]),
      cli(['trades', positionIds[2]!.slice(0, 8)]),
      cli(['trades', positionIds[2]!, '--json']),
    ]);
    for (const r of [whole, prefix]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Trade\\s+${buyIds[2]}$`, 'm'));
    }
    expect(whole.stderr).toBe(`${positionIds[2]} is a position, opened by buy ${buyIds[2]}: showing that buy\n`);
    expect(json(machine).trade.id).toBe(buyIds[2]);
  });
});

describe('lists', () => {
  it('positions and activity: first page in human (≤ 80 columns) and --json equal to the API page', async () => {
    const [ph, pj, ah, aj, pApi, aApi] = await Promise.all([
      cli(['positions']),
      cli(['positions', '--json']),
      cli(['activity']),
      cli(['activity', '--json']),
      apiData('/positions'),
      apiData('/activity'),
    ]);
    for (const r of [ph, pj, ah, aj]) expect(r.code, r.stderr).toBe(0);
    expect(json(pj)).toEqual(pApi.data);
    expect(json(aj)).toEqual(aApi.data);
    expect(pApi.data).toHaveLength(25);
    expect(lines(ph.stdout)).toHaveLength(26); // header + 25 rows
    expect(lines(ah.stdout)).toHaveLength(26);
    expect(maxWidth(ph.stdout)).toBeLessThanOrEqual(80);
    expect(maxWidth(ah.stdout)).toBeLessThanOrEqual(80);
    // Ids show as prefixes that can be typed back (8 characters or more).
    expect(ph.stdout).toMatch(new RegExp(`^${pApi.data[0].id.slice(0, 8)}[0-9a-f-]*… `, 'm'));
    expect(ah.stdout.split('\n')[0]).toMatch(/Time \(UTC\)\s+Type\s+Status/);
  });

  it('tables fit $COLUMNS when stdout is not a terminal (60 here); --wide shows every column in full', async () => {
    const [narrow, wide] = await Promise.all([
      cli(['activity'], { COLUMNS: '60' }),
      cli(['positions', '--wide'], { COLUMNS: '60' }),
    ]);
    expect(narrow.code, narrow.stderr).toBe(0);
    expect(maxWidth(narrow.stdout), narrow.stdout).toBeLessThanOrEqual(60);
    expect(narrow.stdout).toMatch(/^(Time \(UTC\)\s+)?Type\s+Status\s+Token\s+Amount\s+SOL$/m); // USD went first
    expect(narrow.stdout).not.toMatch(/completed?…|confirm…/);
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.stdout.split('\n')[0]).toMatch(/^ID\s+Status\s+Token\s+Remaining\s+Cost SOL\s+Opened \(UTC\)$/);
    expect(wide.stdout).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} {2}/m); // whole ids
  });

  it('without --all: a {"pagination"} line on stderr (--json), a --cursor line (human); that cursor fetches the next page', async () => {
    const [machine, human, api1] = await Promise.all([
      cli(['activity', '--limit', '5', '--json']),
      cli(['activity', '--limit', '5']),
      apiData('/activity', { limit: 5 }),
    ]);
    expect(machine.code, machine.stderr).toBe(0);
    expect(json(machine)).toEqual(api1.data);
    expect(stderrJson(machine)).toEqual([{ pagination: api1.pagination }]);
    expect(api1.pagination.hasMore).toBe(true);
    expect(human.code).toBe(0);
    expect(human.stderr).toContain(`--cursor ${api1.pagination.nextCursor}`);
    expect(human.stderr).toContain('--limit 5');

    const cursor = stderrJson(machine)[0].pagination.nextCursor as string;
    const [next, api2] = await Promise.all([
      cli(['activity', '--limit', '5', '--cursor', cursor, '--json']),
      apiData('/activity', { limit: 5, cursor }),
    ]);
    expect(next.code, next.stderr).toBe(0);
    expect(json(next)).toEqual(api2.data);
    expect(json(next)[0].id).not.toBe(api1.data[0].id);
  });

  it('a last page says nothing about more pages', async () => {
    const all = await apiData('/positions', { limit: 100 });
    const r = await cli(['positions', '--limit', '100', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toEqual(all.data);
    expect(r.stderr).toBe('');
  });

  describe('--all through a proxy whose cursors need URL-encoding', () => {
    let proxy: CursorProxy;
    beforeAll(async () => {
      proxy = await startCursorProxy(sb.url);
    });
    afterAll(async () => {
      await proxy?.close();
    });

    it('positions --all --limit 5: every item exactly once, in order; cursors sent URL-encoded', async () => {
      const expected = (await apiData('/positions', { limit: 100 })).data as Array<{ id: string }>;
      expect(expected.length).toBeGreaterThan(15); // more than three pages of 5
      proxy.rawUrls.length = 0;
      const r = await cli(['positions', '--all', '--limit', '5', '--json'], { TRADER_BASE_URL: proxy.url });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      const got = json<Array<{ id: string }>>(r);
      expect(got).toEqual(expected);
      expect(new Set(got.map((p) => p.id)).size).toBe(got.length);
      const pages = Math.ceil(expected.length / 5);
      expect(proxy.rawUrls).toHaveLength(pages);
      expect(proxy.rawUrls[0]).toBe('/api/v1/positions?limit=5');
      for (const raw of proxy.rawUrls.slice(1)) {
        const query = raw.split('?')[1]!;
        expect(query).not.toMatch(/[ #é]/); // would be cut or mangled if sent raw
        const cursorParam = query.split('&').find((p) => p.startsWith('cursor='))!;
        expect(cursorParam).toContain('%2B'); // `+` encoded, not left to decode as a space
        expect(cursorParam).toContain('%26'); // `&` encoded, not splitting the query
        expect(cursorParam.endsWith(encodeURIComponent(HOSTILE_SUFFIX))).toBe(true);
      }
    });

    it('--all --json with a page failing midway: the array stays unterminated, exit 3', async () => {
      proxy.rawUrls.length = 0;
      proxy.failRequest = 3;
      try {
        const r = await cli(['positions', '--all', '--limit', '5', '--json'], { TRADER_BASE_URL: proxy.url });
        const err = expectJsonError(r, 3);
        expect(err).toMatchObject({ code: 'PAGE_FAILED', status: 500, requestId: 'req_proxy_fail' });
        expect(r.stdout.startsWith('[')).toBe(true);
        expect(lines(r.stdout)).toHaveLength(1 + 10); // two pages of five were written as they came
        expect(() => JSON.parse(r.stdout)).toThrow();
      } finally {
        proxy.failRequest = null;
      }
    });

    it('activity --all in human mode: one table of every entry; the --cursor hint is shell-quoted', async () => {
      const expected = (await apiData('/activity', { limit: 100 })).data as Array<{ id: string }>;
      const [all, one] = await Promise.all([
        cli(['activity', '--all', '--limit', '7'], { TRADER_BASE_URL: proxy.url }),
        cli(['activity', '--limit', '7'], { TRADER_BASE_URL: proxy.url }),
      ]);
      expect(all.code, all.stderr).toBe(0);
      expect(lines(all.stdout)).toHaveLength(expected.length + 1);
      expect(all.stderr).toBe('');
      expect(one.code, one.stderr).toBe(0);
      const hint = lines(one.stderr).find((l) => l.includes('--cursor'))!;
      expect(hint).toBeDefined();
      // The cursor, quoted for a shell: `'…+/= &?#%é'`.
      const quoted = /--cursor '([^']+)'/.exec(hint);
      expect(quoted?.[1]?.endsWith(HOSTILE_SUFFIX)).toBe(true);
      const next = await cli(['activity', '--limit', '7', '--cursor', quoted![1]!, '--json'], {
        TRADER_BASE_URL: proxy.url,
      });
      expect(next.code, next.stderr).toBe(0);
      expect(json(next)).toEqual(expected.slice(7, 14));
    });
  });

  it('activity --type buy,sell: the filter is sent and honoured', async () => {
    await sb.clearRequests();
    const [r, api] = await Promise.all([
      cli(['activity', '--type', 'buy,sell', '--all', '--json']),
      apiData('/activity', { type: 'buy,sell', limit: 100 }),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const got = json<Array<{ type: string }>>(r);
    expect(got).toEqual(api.data);
    expect(got.length).toBeGreaterThan(5);
    expect(new Set(got.map((e) => e.type))).toEqual(new Set(['buy', 'sell']));
    const sent = (await sb.requests()).filter((q) => q.path === '/api/v1/activity' && q.query.limit === undefined);
    expect(sent.length).toBeGreaterThan(0);
    for (const q of sent) expect(q.query.type).toBe('buy,sell');
  });

  it('holdings: largest value first, a Total line; --json is the API array', async () => {
    const [human, machine, api] = await Promise.all([
      cli(['holdings']),
      cli(['holdings', '--json']),
      apiData('/holdings'),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(json(machine)).toEqual(api.data);
    const holdings = api.data as Array<{ symbol: string; usdValue: number }>;
    expect(holdings.length).toBeGreaterThanOrEqual(3);
    const rows = lines(human.stdout);
    const bySymbol = [...holdings].sort((a, b) => b.usdValue - a.usdValue).map((h) => h.symbol);
    const shownOrder = bySymbol.map((s) => rows.findIndex((l) => l.startsWith(`${s} `)));
    expect(shownOrder.every((i) => i > 0)).toBe(true);
    expect([...shownOrder].sort((x, y) => x - y)).toEqual(shownOrder);
    const total = holdings.reduce((sum, h) => sum + h.usdValue, 0);
    expect(rows[rows.length - 1]).toBe(
      `Total ${total.toLocaleString('en-US', { style: 'currency', currency: 'USD' })}`,
    );
    expect(maxWidth(human.stdout)).toBeLessThanOrEqual(80);
  });

  it('holdings: a token with a sell in progress is marked', async () => {
    const before = await sb.control('/delays');
    await sb.setDelays({ swapSeconds: 1e6 });
    try {
      const mint = sb.tokens[1]!.mint;
      const held = BigInt((await apiData(`/positions/${positionIds[1]}`)).data.remainingAmount);
      const created = await sb.call('POST', '/trade/sells', {
        body: { mint, amount: (held / 4n).toString(), idempotencyKey: newKey('sell') },
      });
      expect(created.status, created.text).toBe(201);
      const auth = created.body.data.authorization;
      const authorized = await sb.call('POST', `/trade/sells/${auth.id}/authorize`, {
        body: { signature: signMessage(auth.message, sb.keypair) },
      });
      expect(authorized.status, authorized.text).toBe(200);
      const [human, api] = await Promise.all([cli(['holdings']), apiData('/holdings')]);
      expect(human.code, human.stderr).toBe(0);
      const selling = (api.data as Array<{ symbol: string; sellInProgress: boolean }>)
        .filter((h) => h.sellInProgress)
        .map((h) => h.symbol);
      expect(selling).toEqual([sb.tokens[1]!.symbol]);
      const marked = lines(human.stdout).filter((l) => /selling/i.test(l));
      expect(marked).toHaveLength(1);
      expect(marked[0]!.startsWith(`${sb.tokens[1]!.symbol} `)).toBe(true);
    } finally {
      await sb.setDelays(before);
    }
  });

  it('terminal escapes in service text never reach the terminal in human mode (they stay escaped in --json)', async () => {
    const proxy = await startTamperProxy(sb.url);
    try {
      const evil = 'Dog\u001b]0;owned\u0007\u001b[2J\u202e';
      proxy.rewrite('GET', /^\/api\/v1\/holdings$/, (b) => ({
        ...b,
        data: b.data.map((h: object) => ({ ...h, name: evil, symbol: `W${evil}` })),
      }));
      proxy.rewrite('GET', /^\/api\/v1\/me$/, (b) => ({
        ...b,
        data: { ...b.data, apiKey: { ...b.data.apiKey, name: evil } },
      }));
      const over = { TRADER_BASE_URL: proxy.url };
      const [holdings, me, meJson] = await Promise.all([
        cli(['holdings'], over),
        cli(['me'], over),
        cli(['me', '--json'], over),
      ]);
      for (const r of [holdings, me]) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain('Dog');
        expect(r.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
      }
      expect(json(meJson).apiKey.name).toBe(evil);
    } finally {
      await proxy.close();
    }
  });

  it('tables with long symbols, names, statuses and large amounts still fit 80 columns; numbers and symbols are never cut', async () => {
    const proxy = await startTamperProxy(sb.url);
    try {
      const big = { symbol: 'LONGSYMBOL', decimals: 6 };
      proxy.rewrite('GET', /^\/api\/v1\/activity$/, (b) => ({
        ...b,
        data: b.data.map((e: object) => ({
          ...e,
          ...big,
          type: 'deposit',
          status: 'confirmed',
          amount: '1234567123456',
          solLamports: '1234567891',
          usdValue: 1234.56,
        })),
      }));
      proxy.rewrite('GET', /^\/api\/v1\/positions$/, (b) => ({
        ...b,
        data: b.data.map((p: any) => ({
          ...p,
          status: 'requires_review',
          remainingAmount: '1234567123456',
          costLamports: '12345678901',
          token: { ...big, name: 'Long' },
        })),
      }));
      proxy.rewrite('GET', /^\/api\/v1\/holdings$/, (b) => ({
        ...b,
        data: b.data.map((h: object) => ({
          ...h,
          ...big,
          name: 'A very long token name indeed',
          amount: '1234567123456',
          usdPrice: 1234.5,
          usdValue: 1234567.89,
          sellInProgress: true,
        })),
      }));
      const over = { TRADER_BASE_URL: proxy.url };
      const [activity, positions, holdings] = await Promise.all([
        cli(['activity', '--limit', '3'], over),
        cli(['positions', '--limit', '3'], over),
        cli(['holdings'], over),
      ]);
      for (const [r, numbers] of [
        // A symbol is never cut (LONG… could be another token's): the activity's USD column gives way to it.
        [activity, ['1,234,567.123456', '1.234567891', 'LONGSYMBOL']],
        [positions, ['1,234,567.123456', '12.345678901', 'LONGSYMBOL']],
        [holdings, ['1,234,567.123456', '$1,234.50', '$1,234,567.89', 'LONGSYMBOL']],
      ] as const) {
        expect(r.code, r.stderr).toBe(0);
        expect(maxWidth(r.stdout), r.stdout).toBeLessThanOrEqual(80);
        for (const n of numbers) expect(r.stdout, r.stdout).toContain(n);
      }
    } finally {
      await proxy.close();
    }
  });

  it('unknown fields pass through --json unchanged (objects and list items)', async () => {
    const proxy: TamperProxy = await startTamperProxy(sb.url);
    try {
      proxy.rewrite('GET', /^\/api\/v1\/me$/, (body) => ({
        ...body,
        data: { ...body.data, futureField: { nested: [1, 'two'] } },
      }));
      proxy.rewrite('GET', /^\/api\/v1\/positions$/, (body) => ({
        ...body,
        data: body.data.map((p: object) => ({ ...p, riskScore: 7 })),
      }));
      const [me, list, api] = await Promise.all([
        cli(['me', '--json'], { TRADER_BASE_URL: proxy.url }),
        cli(['positions', '--limit', '3', '--json'], { TRADER_BASE_URL: proxy.url }),
        apiData('/me'),
      ]);
      expect(me.code, me.stderr).toBe(0);
      const prefix = `${api.data.apiKey.prefix.slice(0, 4)}…`; // a piece of the key, hidden
      expect(json(me)).toEqual({
        ...api.data,
        apiKey: { ...api.data.apiKey, prefix },
        futureField: { nested: [1, 'two'] },
      });
      expect(list.code, list.stderr).toBe(0);
      const items = json<Array<Record<string, unknown>>>(list);
      expect(items).toHaveLength(3);
      for (const p of items) expect(p.riskScore).toBe(7);
    } finally {
      await proxy.close();
    }
  });

  it('a 200 with a required field missing: exit 3 "unexpected response from the service", nothing undefined', async () => {
    const proxy = await startTamperProxy(sb.url);
    try {
      proxy.rewrite('GET', /^\/api\/v1\/me$/, (body) => {
        delete body.data.walletAddress;
        return body;
      });
      proxy.rewrite('GET', /^\/api\/v1\/holdings$/, (body) => ({
        ...body,
        data: body.data.map((h: object) => ({ ...h, amount: 12 })),
      }));
      const [human, machine, holdings] = await Promise.all([
        cli(['me'], { TRADER_BASE_URL: proxy.url }),
        cli(['me', '--json'], { TRADER_BASE_URL: proxy.url }),
        cli(['holdings'], { TRADER_BASE_URL: proxy.url }),
      ]);
      expectHumanError(human, 3, /unexpected response from the service.*walletAddress/);
      expect(human.stdout).toBe('');
      const err = expectJsonError(machine, 3);
      expect(err.message).toMatch(/unexpected response from the service/);
      expect(err.code).toBe('UNEXPECTED_RESPONSE');
      expect(machine.stdout).toBe('');
      expectHumanError(holdings, 3, /unexpected response from the service/);
      expect(holdings.stdout).toBe('');
    } finally {
      await proxy.close();
    }
  });
});

describe('auth failures', () => {
  it('401 with a bad key and 403 with a read-only key on cancel: exit 3, one line, no stack', async () => {
    const intent = await sb.call('POST', '/trade/buys', {
      body: { mint: sb.tokens[0]!.mint, amountLamports: '10000000', idempotencyKey: newKey() },
    });
    const id = intent.body.data.intent.id as string;
    const bad = { TRADER_API_KEY: 'sk_sandbox_not_a_real_key_000000000000' };
    const ro = { TRADER_API_KEY: sb.readOnlyApiKey };
    const [h401, j401, h403, j403, roRead] = await Promise.all([
      bin(['me'], bad),
      bin(['positions', '--json'], bad),
      bin(['cancel', id], ro),
      bin(['cancel', id, '--json'], ro),
      bin(['me', '--json'], ro),
    ]);
    expectHumanError(h401, 3, /401/);
    expect(h401.stderr).not.toContain(bad.TRADER_API_KEY);
    expect(expectJsonError(j401, 3)).toMatchObject({ status: 401 });
    expectHumanError(h403, 3, /403/);
    expect(h403.stderr.match(/trade:intents/g)).toHaveLength(1); // said once, by the message or the hint
    expect(expectJsonError(j403, 3)).toMatchObject({ status: 403 });
    expect(roRead.code, roRead.stderr).toBe(0); // a read-only key still reads
    expect((await apiData(`/trade/buys/${id}`)).data.intent.status).toBe('awaiting_deposit');
  });
});

describe.concurrent('odd error bodies from the service', () => {
  const cases: Array<{
    name: string;
    status: number;
    body: string;
    contentType: string;
    message: RegExp;
    code?: string;
    bodyRequestId?: string;
  }> = [
    {
      name: '{"error":{code,message}}',
      status: 400,
      body: JSON.stringify({ error: { code: 'BAD_THING', message: 'the thing is bad' }, requestId: 'req_body1' }),
      contentType: 'application/json',
      message: /the thing is bad/,
      code: 'BAD_THING',
      bodyRequestId: 'req_body1',
    },
    {
      name: '{code,message}',
      status: 422,
      body: JSON.stringify({ code: 'FLAT_CODE', message: 'flat message' }),
      contentType: 'application/json',
      message: /flat message/,
      code: 'FLAT_CODE',
    },
    {
      name: '{"errors":[{code,detail}]}',
      status: 400,
      body: JSON.stringify({ errors: [{ code: 'LIST_CODE', detail: 'listed detail' }] }),
      contentType: 'application/json',
      message: /listed detail/,
      code: 'LIST_CODE',
    },
    {
      name: 'RFC 7807',
      status: 403,
      body: JSON.stringify({
        type: 'https://example.com/probs/out-of-credit',
        title: 'Out of credit',
        detail: 'Your balance is 30',
        status: 403,
      }),
      contentType: 'application/problem+json',
      message: /Out of credit: Your balance is 30/,
      code: 'OUT_OF_CREDIT',
    },
    {
      name: 'plain text',
      status: 500,
      body: 'upstream exploded\nsecond line\n',
      contentType: 'text/plain',
      message: /HTTP 500: upstream exploded$/,
    },
    {
      name: 'an HTML page',
      status: 500,
      body: '<!DOCTYPE html><html><head><title>502</title></head><body><h1>Bad gateway</h1><script>x()</script></body></html>',
      contentType: 'text/html',
      message: /HTTP 500.*HTML/,
    },
    { name: 'an empty body', status: 500, body: '', contentType: '', message: /HTTP 500.*empty/ },
    {
      name: 'JSON of another shape',
      status: 418,
      body: '[1,2,3]',
      contentType: 'application/json',
      message: /HTTP 418/,
    },
  ];

  it.each(cases)('$name: exit 3, one line (two with the request id), human and --json', async (c) => {
    // A unique exact path per case and mode, so cases can run while other faults are armed.
    const [idHuman, idJson] = [randomUUID(), randomUUID()];
    for (const id of [idHuman, idJson]) {
      await sb.control('/faults', {
        match: { method: 'GET', path: `/positions/${id}`, exact: true },
        status: c.status,
        body: c.body,
        contentType: c.contentType,
      });
    }
    const [human, machine] = await Promise.all([cli(['positions', idHuman]), cli(['positions', idJson, '--json'])]);
    const first = expectHumanError(human, 3, c.message);
    expect(first).not.toMatch(/<|script|second line/);
    const errLines = lines(human.stderr);
    expect(errLines[1] ?? '').toMatch(
      c.bodyRequestId ? new RegExp(`request id: ${c.bodyRequestId}`) : /request id: req_/,
    );
    const err = expectJsonError(machine, 3);
    expect(err.status).toBe(c.status);
    expect(err.message).toMatch(c.message);
    if (c.code) expect(err.code).toBe(c.code);
    expect(err.requestId).toMatch(c.bodyRequestId ? new RegExp(c.bodyRequestId) : /^req_/);
    expect(human.stdout + machine.stdout).toBe('');
  });
});

describe('trades --watch', () => {
  const createBuy = async (mint = sb.tokens[3]!.mint) => {
    const r = await sb.call('POST', '/trade/buys', {
      body: { mint, amountLamports: '20000000', idempotencyKey: newKey('w') },
    });
    expect(r.status, r.text).toBe(201);
    return r.body.data as { intent: { id: string }; deposit: { transaction: string } };
  };
  const deposit = async (created: { intent: { id: string }; deposit: { transaction: string } }) => {
    const r = await sb.call('POST', `/trade/buys/${created.intent.id}/deposit`, {
      body: { signedTransaction: signDeposit(created.deposit.transaction, sb.keypair) },
    });
    expect(r.status, r.text).toBe(200);
  };

  it('a buy whose deposit never confirms expires after 10 minutes: exit 4', async () => {
    const before = await sb.control('/delays');
    await sb.setDelays({ confirmSeconds: 1e6 });
    try {
      const created = await createBuy();
      await deposit(created);
      await sb.advance(11 * 60);
      const [human, machine] = await Promise.all([
        bin(['trades', created.intent.id, '--watch']),
        bin(['trades', created.intent.id, '--watch', '--json']),
      ]);
      expectHumanError(human, 4, /expired/);
      expect(human.stdout).toMatch(/Stage\s+expired/);
      expect(expectJsonError(machine, 4).code).toMatch(/\S/);
      expect(json(machine).trade.stage).toBe('expired');
    } finally {
      await sb.setDelays(before);
    }
  });

  it('--timeout 1 on a stuck trade: exit 5, stderr says how to follow it', async () => {
    const created = await createBuy();
    const id = created.intent.id;
    const [human, machine] = await Promise.all([
      bin(['trades', id, '--watch', '--timeout', '1']),
      bin(['trades', id, '--watch', '--timeout', '1', '--json']),
    ]);
    expectHumanError(human, 5, /not final/);
    // The follow command would pass 80 columns after the words: it stands alone on the next line, whole.
    expect(human.stderr).toContain(`error: still not final after 1 s; follow it with:\ntrader trades ${id} --watch\n`);
    expect(expectJsonError(machine, 5)).toMatchObject({
      code: 'TIMEOUT',
      message: `still not final after 1 s; follow it with: trader trades ${id} --watch`,
    });
    expect(human.stdout).toMatch(/awaiting_deposit/);
    expect(json(machine).trade.terminal).toBe(false);
  });

  it("--watch ends as the completed trade does: its summary, then the chain's word on each signature (human; --json stays the trade)", async () => {
    const done = await completeBuy(sb, { mint: sb.tokens[1]!.mint, amountLamports: '20000000' });
    const chain = { TRADER_KEYPAIR: sb.keypairPath, TRADER_RPC_URL: sb.rpcUrl };
    const [human, machine] = await Promise.all([
      bin(['trades', done.intent.id, '--watch'], chain),
      bin(['trades', done.intent.id, '--watch', '--json'], chain),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Stage\s+completed$/m);
    expect(human.stdout).toMatch(/^On chain \(127\.0\.0\.1:\d+\): every claim verified on chain$/m);
    expect(human.stdout).toMatch(/^ {2}deposit \w{8}…: verified: 0\.02 SOL from your wallet to /m);
    expect(human.stdout).toMatch(/^ {2}swap \w{8}…: verified: succeeded/m);
    expect(machine.code, machine.stderr).toBe(0);
    expect(json(machine)).toMatchObject({ trade: { id: done.intent.id, stage: 'completed' } });
    expect(json(machine).verification).toBeUndefined();
  });

  it('--interval below 2 seconds: exit 2 before any request', async () => {
    await sb.clearRequests();
    const [human, machine] = await Promise.all([
      bin(['trades', buyIds[0]!, '--watch', '--interval', '1']),
      bin(['trades', buyIds[0]!, '--watch', '--interval', '1', '--json']),
    ]);
    expectHumanError(human, 2, /--interval/);
    expectJsonError(machine, 2);
    expect(await sb.requests()).toEqual([]);
  });
});
