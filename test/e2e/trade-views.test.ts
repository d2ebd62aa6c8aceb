// `trader trades` with no id (recent trades, newest first, ids typable), the complete views of
// one trade (a sell's SOL received and payout, a buy's tokens received and signatures, units on
// every amount), and what --json start-up loads (no cli-table3). Against an in-process sandbox.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectHumanError } from '../helpers/cli-assert.js';
import { freshHome, json, runCli, type CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { completeBuy, newKey, signMessage, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

let sb: TestSandbox;
let env: Record<string, string>;
/** Oldest first, as made: buy A, buy B, sell of A's token, buy C. */
let buyIds: string[];
let sellId: string;

const cli = (args: string[]): Promise<CliResult> => runInProcess(args, env);
const apiData = async (path: string, query?: Record<string, string | number>) => {
  const r = await sb.call('GET', path, { query });
  expect(r.status, r.text).toBe(200);
  return r.body.data;
};

/** A sell of `amount` raw units of the first token, authorized and run to completion; its id. */
async function completeSell(amount: string): Promise<string> {
  const created = await sb.call('POST', '/trade/sells', {
    body: { mint: sb.tokens[0]!.mint, amount, idempotencyKey: newKey('sell') },
  });
  expect(created.status, created.text).toBe(201);
  const a = created.body.data.authorization;
  const auth = await sb.call('POST', `/trade/sells/${a.id}/authorize`, {
    body: { signature: signMessage(a.message, sb.keypair) },
  });
  expect(auth.status, auth.text).toBe(200);
  const delays = await sb.control('/delays');
  for (let i = 0; i < 4; i++) {
    await sb.advance(delays.swapSeconds + delays.payoutSeconds + 0.01);
    const view = await apiData(`/trade/sells/${a.id}`);
    if (view.sell?.status === 'completed') return a.id as string;
  }
  throw new Error('the sell did not complete');
}

beforeAll(async () => {
  sb = await startTestSandbox();
  env = { ...freshHome(), TRADER_BASE_URL: sb.url, TRADER_API_KEY: sb.apiKey };
  const a = await completeBuy(sb, { mint: sb.tokens[0]!.mint, amountLamports: '100000000' });
  await sb.advance(60);
  const b = await completeBuy(sb, { mint: sb.tokens[1]!.mint, amountLamports: '200000000' });
  await sb.advance(60);
  sellId = await completeSell('1000000');
  await sb.advance(60);
  const c = await completeBuy(sb, { mint: sb.tokens[2]!.mint, amountLamports: '300000000' });
  buyIds = [a.intent.id, b.intent.id, c.intent.id];
});
afterAll(async () => {
  await sb?.close();
});

describe('trader trades (no id): recent trades', () => {
  it('newest first, one row each: buys with typable ids, the sell without one and a line saying why', async () => {
    const r = await cli(['trades']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^ID\s+Side\s+Status\s+Token\s+Amount\s+SOL\s+Time \(UTC\)$/);
    const [c, sell, b, a] = rows.slice(1, 5);
    expect(c).toMatch(new RegExp(`^${buyIds[2]!.slice(0, 8)}…\\s+buy\\s+completed\\s+${sb.tokens[2]!.symbol}\\s`));
    expect(sell).toMatch(new RegExp(`^—\\s+sell\\s+completed\\s+${sb.tokens[0]!.symbol}\\s`));
    expect(b).toMatch(new RegExp(`^${buyIds[1]!.slice(0, 8)}…\\s+buy\\s+completed\\s+${sb.tokens[1]!.symbol}\\s`));
    expect(a).toMatch(new RegExp(`^${buyIds[0]!.slice(0, 8)}…\\s+buy\\s+completed\\s+${sb.tokens[0]!.symbol}\\s`));
    expect(rows).toHaveLength(6);
    expect(rows[5]).toMatch(/^A sell made elsewhere shows no id: the service lists none\.$/);
    for (const line of rows) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('an id as the list shows it (prefix and ellipsis) is what `trader trades <id>` accepts', async () => {
    const shown = (await cli(['trades'])).stdout.split('\n')[1]!.split(/\s+/)[0]!;
    expect(shown).toBe(`${buyIds[2]!.slice(0, 8)}…`);
    const one = await cli(['trades', shown, '--json']);
    expect(one.code, one.stderr).toBe(0);
    expect(json(one).trade.id).toBe(buyIds[2]);
  });

  it('--json: an array of the same rows, raw amounts; the requests: every position page and one page of sells of --limit', async () => {
    await sb.clearRequests();
    const r = await cli(['trades', '--json', '--limit', '3']);
    expect(r.code, r.stderr).toBe(0);
    const rows = json(r);
    expect(rows.map((t: any) => [t.side, t.id])).toEqual([
      ['buy', buyIds[2]],
      ['sell', null],
      ['buy', buyIds[1]],
    ]);
    const trade = await apiData(`/trades/${buyIds[2]}`);
    expect(rows[0]).toMatchObject({
      status: 'completed',
      mint: sb.tokens[2]!.mint,
      amount: trade.receivedOutputAmount,
      depositLamports: '300000000',
      signature: trade.signatures.swaps[0],
    });
    const sell = await apiData(`/trade/sells/${sellId}`);
    expect(rows[1]).toMatchObject({
      status: 'completed',
      mint: sb.tokens[0]!.mint,
      amount: '1000000',
      solLamports: sell.sell.receivedLamports,
      depositLamports: null,
    });
    const sent = (await sb.requests()).map(
      (q) => `${q.method} ${q.path}${q.query ? `?${new URLSearchParams(q.query as Record<string, string>)}` : ''}`,
    );
    expect(sent.filter((p) => p.startsWith('GET /api/v1/activity'))).toEqual([
      'GET /api/v1/activity?type=sell&limit=3',
    ]);
    expect(sent.filter((p) => p.startsWith('GET /api/v1/positions'))).toHaveLength(1);
    expect(sent.every((p) => p.startsWith('GET '))).toBe(true);
    // A buy's SOL is what its swap cost (as the activity ledger says it), the deposit apart: one word for one amount.
    const position = (await apiData('/positions', { limit: 100 })).find((p: any) => p.buyTradeId === buyIds[2]);
    const activity = (await apiData('/activity', { type: 'buy', limit: 100 })).find(
      (e: any) => e.signature === trade.signatures.swaps[0],
    );
    expect(position.costLamports).not.toBe(position.principalLamports);
    expect([rows[0].solLamports, activity.solLamports]).toEqual([position.costLamports, position.costLamports]);
  });

  it('--limit: 1 and 100 are taken, 0 and 101 refused before any request (exit 2)', async () => {
    const one = await cli(['trades', '--json', '--limit', '1']);
    expect(json(one)).toHaveLength(1);
    expect((await cli(['trades', '--json', '--limit', '100'])).code).toBe(0);
    await sb.clearRequests();
    expectHumanError(await cli(['trades', '--limit', '0']), 2, /--limit/);
    expectHumanError(await cli(['trades', '--limit', '101']), 2, /--limit/);
    expect(await sb.requests()).toEqual([]);
  });

  it('--watch without an id, and --limit with one, are usage errors (exit 2)', async () => {
    expectHumanError(await cli(['trades', '--watch']), 2, /give its id/);
    expectHumanError(await cli(['trades', buyIds[0]!, '--limit', '5']), 2, /--limit is for the list/);
  });

  it('an account with no trades: "No trades yet." and an empty --json array', async () => {
    const other = { ...env, TRADER_API_KEY: sb.otherApiKey };
    const human = await runInProcess(['trades'], other);
    expect(human.stdout.trim()).toBe('No trades yet.');
    expect(json(await runInProcess(['trades', '--json'], other))).toEqual([]);
  });
});

describe('one trade, complete', () => {
  it('a sell_… id: SOL received and the swap and payout signatures, each amount with its unit', async () => {
    const view = await apiData(`/trade/sells/${sellId}`);
    const r = await cli(['trades', sellId]);
    expect(r.code, r.stderr).toBe(0);
    const sol = (lamports: string) => `${(Number(lamports) / 1e9).toString()} SOL`;
    expect(r.stdout).toMatch(
      new RegExp(`^SOL received\\s+${sol(view.sell.receivedLamports).replace('.', '\\.')}$`, 'm'),
    );
    expect(r.stdout).toMatch(new RegExp(`^Payout sig\\s+${view.sell.payoutSignature}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^Swap sig\\s+${view.sell.swapSignature}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^Sold\\s+10 ${sb.tokens[0]!.symbol}$`, 'm'));
    // --json stays the sell as read.
    expect(json(await cli(['trades', sellId, '--json']))).toEqual(view);
  });

  it('a buy id: tokens received with their unit, the deposit and swap signatures', async () => {
    const trade = await apiData(`/trades/${buyIds[1]}`);
    const r = await cli(['trades', buyIds[1]!]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Received\\s+[\\d,.]+ ${sb.tokens[1]!.symbol}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^Deposit sig\\s+${trade.signatures.deposit}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^Swap sig\\s+${trade.signatures.swaps[0]}$`, 'm'));
  });

  it('positions <id>: Bought, Sold and Remaining carry the token unit', async () => {
    const position = (await apiData('/positions', { limit: 100 })).find((p: any) => p.buyTradeId === buyIds[0]);
    const r = await cli(['positions', position.id]);
    const unit = sb.tokens[0]!.symbol;
    for (const label of ['Bought', 'Sold', 'Remaining'])
      expect(r.stdout).toMatch(new RegExp(`^${label}\\s+[\\d,.]+ ${unit}$`, 'm'));
  });
});

describe('wide characters end to end', () => {
  it('holdings with a token named in CJK and emoji: every column after the name starts or ends at one screen column', async () => {
    const { displayWidth } = await import('../../src/io/display-width.js');
    const token = await sb.control('/tokens', { symbol: 'MOONC', name: '月光币 🐶', decimals: 6, usdPrice: 0.5 });
    await completeBuy(sb, { mint: token.mint, amountLamports: '100000000' });
    const r = await runInProcess(['holdings'], { ...env, COLUMNS: '120' });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').slice(0, -1); // the Total line is not a row
    const [header, ...rows] = lines as [string, ...string[]];
    expect(header).toMatch(/^Token\s+Name\s+Amount\s+Price\s+Value\s+Share$/);
    const row = rows.find((l) => l.includes('月光币 🐶'))!;
    expect(row, r.stdout).toBeTruthy();
    const col = (line: string, text: string) => displayWidth(line.slice(0, line.indexOf(text)));
    // Right-aligned Value ends at the header's column on every row; the rows with a share start it at the header's.
    const valueEnd = col(header, 'Value') + 'Value'.length;
    const shareAt = col(header, 'Share');
    for (const line of rows) {
      const value = [...line.matchAll(/\$[\d,.]+/g)].at(-1)!;
      expect(value, line).toBeTruthy();
      expect(displayWidth(line.slice(0, value.index)) + value[0].length, `${line}\n${header}`).toBe(valueEnd);
      const after = line.slice(value.index + value[0].length);
      if (after.trim() !== '') expect(valueEnd + after.length - after.trimStart().length, line).toBe(shareAt);
      expect(displayWidth(line)).toBeLessThanOrEqual(120);
    }
    expect(col(row, '月光币')).toBe(col(header, 'Name'));
  });
});

describe('what start-up loads', () => {
  // A CommonJS load hook (cli-table3 is CommonJS, required on first use) writing every file to a list.
  const dir = tempDir('trader-loads-');
  const hook = join(dir, 'trace.cjs');
  const list = join(dir, 'loaded.txt');
  writeFileSync(
    hook,
    `const Module = require('node:module'); const fs = require('node:fs'); const load = Module._load;
Module._load = function (request, parent, isMain) {
  try { fs.appendFileSync(${JSON.stringify(list)}, Module._resolveFilename(request, parent, isMain) + '\\n'); } catch {}
  return load.apply(this, arguments);
};`,
  );
  const loads = async (args: string[]) => {
    writeFileSync(list, '');
    const r = await runCli(args, { env: { ...env, NODE_OPTIONS: `--require ${hook}` } });
    expect(r.code, r.stderr).toBe(0);
    const { readFileSync } = await import('node:fs');
    return readFileSync(list, 'utf8');
  };

  it('--json reads load no cli-table3; a human table does (the control)', async () => {
    for (const args of [
      ['me', '--json'],
      ['trades', '--json'],
      ['positions', '--json'],
      ['holdings', '--json'],
    ]) {
      expect(await loads(args), args.join(' ')).not.toMatch(/node_modules\/cli-table3\//);
    }
    expect(await loads(['holdings'])).toMatch(/node_modules\/cli-table3\//);
  });
});
