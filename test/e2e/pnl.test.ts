// trader pnl and --csv against a sandbox: buy, move the price up, sell half, move it down, and
// check the figures against the sandbox's own positions, activity and holdings; every --csv
// export parsed back equals the --json output field by field, with formula text neutralised.
import { parse } from 'csv-parse/sync';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry, Holding, Position } from '../../src/api/types.js';
import { freshHome, json, runCli, type CliResult } from '../helpers/cli.js';
import { expectJsonError } from '../helpers/cli-assert.js';
import { completeBuy, newKey, signMessage, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const FORMULA_NAME = '=HYPERLINK("http://x","y")';
let sb: TestSandbox;
let home: ReturnType<typeof freshHome>;
let env: Record<string, string>;
let woof: string;
let odd: string;
let since: string;

/** Half away from zero, for non-negative b: an independent rounding for the expected figures. */
const round = (a: bigint, b: bigint) => (a >= 0n ? (2n * a + b) / (2n * b) : -((-2n * a + b) / (2n * b)));
const cents = (usd: number) => BigInt(Math.round(usd * 100));
const usd = (c: bigint) =>
  `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${((c < 0n ? -c : c) % 100n).toString().padStart(2, '0')}`;

beforeAll(async () => {
  sb = await startTestSandbox();
  home = freshHome();
  env = {
    ...home,
    TRADER_BASE_URL: sb.url,
    TRADER_API_KEY: sb.apiKey,
    TRADER_KEYPAIR: sb.keypairPath,
    TRADER_RPC_URL: sb.rpcUrl,
  };
  woof = sb.tokens[0]!.mint;
  odd = (await sb.control('/tokens', { symbol: '-1', name: FORMULA_NAME, decimals: 6, usdPrice: 2 })).mint;

  await completeBuy(sb, { mint: woof, amountLamports: '500000000' });
  await sb.advance(3600);
  since = (await sb.control('/clock')).now;
  await sb.advance(1800);
  await sb.control('/price', { mint: woof, multiplier: 1.5 });
  const held = (await sb.call('GET', '/holdings')).body.data[0].amount as string;
  const auth = (
    await sb.call('POST', '/trade/sells', {
      body: { mint: woof, amount: (BigInt(held) / 2n).toString(), idempotencyKey: newKey('sell') },
    })
  ).body.data.authorization;
  const authorized = await sb.call('POST', `/trade/sells/${auth.id}/authorize`, {
    body: { signature: signMessage(auth.message, sb.keypair) },
  });
  expect(authorized.body.data.sell.status).toBe('swap_pending');
  await sb.advance(10);
  await sb.control('/price', { mint: woof, multiplier: 0.6 });
  await completeBuy(sb, { mint: odd, amountLamports: '100000000' });
});
afterAll(async () => {
  await sb?.close();
  if (home) rmSync(home.HOME, { recursive: true, force: true });
});

async function sandboxState() {
  const get = async (path: string) =>
    (await sb.call('GET', path, { query: path === '/holdings' ? {} : { limit: 100 } })).body.data;
  return {
    positions: (await get('/positions')) as Position[],
    activity: (await get('/activity')) as ActivityEntry[],
    holdings: (await get('/holdings')) as Holding[],
  };
}

/** The expected figures of a token with one buy and at most one sale, from the sandbox's own records. */
function expected(mint: string, s: Awaited<ReturnType<typeof sandboxState>>) {
  const p = s.positions.find((x) => x.mint === mint)!;
  const buy = s.activity.find((e) => e.type === 'buy' && e.mint === mint)!;
  const sell = s.activity.find((e) => e.type === 'sell' && e.mint === mint);
  const holding = s.holdings.find((h) => h.mint === mint)!;
  const [P, C, B, S] = [
    BigInt(p.principalLamports),
    BigInt(p.costLamports!),
    BigInt(p.boughtAmount!),
    BigInt(p.soldAmount),
  ];
  const lotCents = round(cents(buy.usdValue!) * P, BigInt(buy.solLamports!));
  const soldLamports = round(P * S, B);
  const soldCents = round(lotCents * S, B);
  const basisCents = lotCents - soldCents;
  const valueCents = cents(holding.usdValue!);
  return {
    amount: p.remainingAmount,
    costBasisLamports: (P - soldLamports).toString(),
    costBasisUsd: usd(basisCents),
    valueUsd: usd(valueCents),
    unrealizedUsd: usd(valueCents - basisCents),
    unrealizedPct: usd(round((valueCents - basisCents) * 10000n, basisCents)),
    soldAmount: S.toString(),
    proceedsLamports: sell ? sell.solLamports : '0',
    proceedsUsd: sell ? usd(cents(sell.usdValue!)) : '0.00',
    realizedLamports: sell ? (BigInt(sell.solLamports!) - soldLamports).toString() : '0',
    realizedUsd: sell ? usd(cents(sell.usdValue!) - soldCents) : '0.00',
    feesLamports: (P - C).toString(),
    notes: [],
  };
}

const cli = (...args: string[]) => runCli(args, { env });
let pnlJsonRun: Promise<CliResult> | undefined;
/** `trader pnl --json`, run once and shared by the tests that read it (spawns are the suite's cost). */
const pnlJson = () => (pnlJsonRun ??= cli('pnl', '--json'));
const ok = (r: CliResult) => {
  expect(r.code, r.stderr).toBe(0);
  return r;
};

describe('trader pnl', () => {
  it('--json: the figures computed from the sandbox state, a gain realized and a loss open', async () => {
    const [r, s] = await Promise.all([pnlJson(), sandboxState()]);
    const doc = json(ok(r));
    expect(doc.method).toBe('average-cost');
    expect(doc.since).toBeNull();
    const byMint = Object.fromEntries(doc.tokens.map((t: any) => [t.mint, t]));
    const w = expected(woof, s);
    expect(byMint[woof]).toMatchObject(w);
    expect(byMint[odd]).toMatchObject(expected(odd, s));
    expect(Number(w.realizedUsd)).toBeGreaterThan(0);
    expect(Number(w.unrealizedUsd)).toBeLessThan(0);
    const sum = (f: string) => usd(doc.tokens.reduce((a: bigint, t: any) => a + BigInt(t[f].replace('.', '')), 0n));
    expect(doc.total).toMatchObject({
      valueUsd: sum('valueUsd'),
      costBasisUsd: sum('costBasisUsd'),
      realizedUsd: sum('realizedUsd'),
      incomplete: [],
    });
    expect(BigInt(byMint[woof].sharePct.replace('.', '')) + BigInt(byMint[odd].sharePct.replace('.', ''))).toBe(10000n);
  });

  it('--token and --since: one token, realized from the date, the cost still from the first buy', async () => {
    const [r, all] = await Promise.all([cli('pnl', '--token', 'woof', '--since', since, '--json'), pnlJson()]);
    const doc = json(ok(r));
    expect(doc.since).toBe(since);
    expect(doc.tokens.map((t: any) => t.mint)).toEqual([woof]);
    const whole = json(all).tokens.find((t: any) => t.mint === woof);
    expect(doc.tokens[0]).toMatchObject({
      realizedUsd: whole.realizedUsd,
      costBasisUsd: whole.costBasisUsd,
      feesLamports: '0',
      sharePct: whole.sharePct,
    });
    expect(doc.total.realizedUsd).toBe(whole.realizedUsd);
  });

  it('--token reads a token as buy and sell do: a symbol ($ allowed, any case) or a mint prefix of 8+ characters; 7 are not enough (exit 2, UNKNOWN_TOKEN); a malformed one is exit 2 before any request', async () => {
    const [byPrefix, bySymbol, short] = await Promise.all([
      cli('pnl', '--token', woof.slice(0, 8), '--json'),
      cli('pnl', '--token', '$WOOF', '--json'),
      cli('pnl', '--token', woof.slice(0, 7), '--json'),
    ]);
    expect(json(ok(byPrefix)).tokens.map((t: any) => t.mint)).toEqual([woof]);
    expect(json(ok(bySymbol)).tokens).toEqual(json(byPrefix).tokens);
    const unknown = expectJsonError(short, 2);
    expect(unknown.code).toBe('UNKNOWN_TOKEN');
    expect(unknown.message).toContain(
      `"${woof.slice(0, 7)}" is neither a mint address nor the symbol or mint prefix of a token you hold or traded`,
    );
    await sb.clearRequests();
    expect(expectJsonError(await cli('pnl', '--token', `${woof.slice(0, 8)}/`, '--json'), 2).message).toMatch(
      /^--token must be a mint address/,
    );
    expect(await sb.requests()).toEqual([]);
  });

  it('human output (colour off): one screen with bars, signs, the SOL figures and the method', async () => {
    const r = ok(await cli('pnl'));
    expect(r.stdout).toMatchSnapshot();
    expect(r.stderr).toBe('');
  });

  it('--csv with --json is exit 2 before any request', async () => {
    await sb.clearRequests();
    const r = await cli('pnl', '--csv', '--json');
    expectJsonError(r, 2);
    expect(await sb.requests()).toEqual([]);
  });
});

/** The CSV text of a text cell that holds `value` (formula-like text gets a leading apostrophe). */
const textCell = (value: string) => (/^\s*[=+\-@＝＋－＠]|^[\t\r\n]/.test(value) ? `'${value}` : value);

/** JSON string fields that hold figures (number columns); every other string is service text. */
const FIGURES = new Set(
  (
    'amount solLamports principalLamports costLamports boughtAmount soldAmount remainingAmount balance amountDecimal ' +
    'costBasisLamports costBasisSol costBasisUsd valueUsd sharePct unrealizedUsd unrealizedPct soldAmountDecimal ' +
    'proceedsLamports proceedsSol proceedsUsd realizedLamports realizedSol realizedUsd feesLamports feesSol'
  ).split(' '),
);

/** Every field of every JSON item equals its CSV cell: numbers as numbers, text (neutralised) as text. */
function expectCsvEqualsJson(csv: string, items: Array<Record<string, unknown>>) {
  expect(csv.endsWith('\r\n')).toBe(true);
  const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
  expect(rows).toHaveLength(items.length);
  items.forEach((item, i) => {
    for (const [key, value] of Object.entries(item)) {
      const cell = rows[i]![key];
      expect(cell, `column ${key}`).toBeDefined();
      if (value === null) expect(cell, key).toBe('');
      else if (typeof value === 'number') expect(Number(cell), key).toBe(value);
      else if (typeof value === 'boolean') expect(cell, key).toBe(String(value));
      else if (FIGURES.has(key)) expect(cell, key).toBe(value);
      else expect(cell, key).toBe(textCell(String(value)));
    }
  });
  return rows;
}

/** Nested objects as `a.b` columns, lists joined (as the CSV writes them). */
function flatten(item: Record<string, unknown>, join = ' '): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (Array.isArray(v)) out[k] = v.join(join);
    else if (v !== null && typeof v === 'object') for (const [k2, v2] of Object.entries(v)) out[`${k}.${k2}`] = v2;
    else out[k] = v;
  }
  return out;
}

describe('--csv', () => {
  it('activity --all, positions, holdings and pnl parse back to their --json output; formula text arrives neutralised', async () => {
    const [aJson, aCsv, pJson, pCsv, hJson, hCsv, nJson, nCsv] = await Promise.all([
      cli('activity', '--all', '--limit', '2', '--json'),
      cli('activity', '--all', '--limit', '2', '--csv'),
      cli('positions', '--json'),
      cli('positions', '--csv'),
      cli('holdings', '--json'),
      cli('holdings', '--csv'),
      pnlJson(),
      cli('pnl', '--csv'),
    ]);
    const activity = expectCsvEqualsJson(ok(aCsv).stdout, json(ok(aJson)));
    expect(activity.length).toBeGreaterThan(4); // several pages, one header
    expect(activity.find((r) => r.mint === odd)!.symbol).toBe("'-1");
    for (const r of activity.filter((x) => x.amount !== '')) expect(r.amountDecimal).toMatch(/^\d+(\.\d+)?$/);

    const positions = expectCsvEqualsJson(
      ok(pCsv).stdout,
      json(ok(pJson)).map((p: any) => flatten(p)),
    );
    expect(positions.find((r) => r.mint === odd)!['token.name']).toBe(`'${FORMULA_NAME}`);

    const holdings = expectCsvEqualsJson(
      ok(hCsv).stdout,
      json(ok(hJson)).map((h: any) => flatten(h)),
    );
    expect(holdings.find((r) => r.mint === odd)!.name).toBe(`'${FORMULA_NAME}`);

    const doc = json(ok(nJson));
    const rows = [
      ...doc.tokens.map((t: any) => ({ row: 'token', ...flatten(t, '; ') })),
      { row: 'total', ...flatten(doc.total) },
    ];
    const pnl = expectCsvEqualsJson(ok(nCsv).stdout, rows);
    expect(pnl.find((r) => r.mint === odd)!.name).toBe(`'${FORMULA_NAME}`);
    // A loss is a negative number, not text: no apostrophe, no quotes.
    const loss = pnl.find((r) => r.mint === woof)!.unrealizedUsd!;
    expect(loss).toMatch(/^-\d+\.\d\d$/);
    expect(nCsv.stdout).toContain(`,${loss},`);
  });
});
