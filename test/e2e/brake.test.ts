// The brake for anything unattended, end to end against the sandbox: `trader lock` in one process
// stops the next buy and sell of another process and of a running `trader mcp` (exit 6, nothing
// deposited or authorized), `trader unlock` needs a person at a terminal; allowedMints and
// deniedMints hold unattended runs; maxTradesPerHour at the limit and one past it, across
// processes at once; the loss stop from a journal of trades with a loss, at the limit and one
// lamport past it (buys stop, sells go on); loosening a limit needs a terminal, tightening not.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, json, runCli, type CliResult } from '../helpers/cli.js';
import { sandboxForFile, type Home } from '../helpers/file-sandbox.js';
import { journalOf, records } from '../helpers/journal-file.js';
import { runInProcess } from '../helpers/in-process.js';
import { startMcp } from '../helpers/mcp-client.js';
import { hasTmux, startInTmux } from '../helpers/pty.js';
import type { TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
const { envFor } = sandboxForFile((started) => (sb = started));

const AGENT_LIMITS = {
  maxBuyLamports: '200000000',
  maxSlippageBps: 500,
  maxDailyBuyLamports: '10000000000',
  maxDailySellLamports: '10000000000',
};
function homeWith(profile: Record<string, string | number>): Home {
  const home = freshHome();
  mkdirSync(dirname(home.TRADER_CONFIG), { recursive: true, mode: 0o700 });
  writeFileSync(home.TRADER_CONFIG, JSON.stringify({ profiles: { default: { treasury: sb.treasury, ...profile } } }), {
    mode: 0o600,
  });
  return home;
}
const run = (home: Home, ...args: string[]): Promise<CliResult> => runCli(args, { env: envFor(sb.url, home) });
const inProcess = (home: Home, ...args: string[]): Promise<CliResult> => runInProcess(args, envFor(sb.url, home));
/** What the sandbox saw signed since the log was cleared: deposits and sell authorizations. */
const signedPosts = async () =>
  (await sb.requests()).filter((r) => r.method === 'POST' && /\/(deposit|authorize)$/.test(r.path));
const posts = async () => (await sb.requests()).filter((r) => r.method === 'POST');
const profileOf = (home: Home) => JSON.parse(readFileSync(home.TRADER_CONFIG, 'utf8')).profiles.default;
const auditOf = (home: Home) =>
  readFileSync(join(dirname(home.TRADER_CONFIG), 'limits-audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('trader lock: every process and a running trader mcp refuse to sign until a person unlocks', () => {
  it('lock in one process: the next buy and sell of another (--yes) and of a running MCP server are exit 6 naming the lock, nothing deposited or authorized; the lock tool does the same; unlock needs a terminal', async () => {
    const home = homeWith(AGENT_LIMITS);
    const mcp = await startMcp({ env: envFor(sb.url, home), args: ['--allow-trading', '--no-confirm'] });
    try {
      // The server runs trades before the lock.
      const before = await mcp.call('buy', { token: sb.tokens[1]!.mint, amount: '1000000' });
      expect(before.isError, JSON.stringify(before.structuredContent)).toBeFalsy();

      const locked = await run(home, 'lock', 'price feed down', '--json');
      expect(locked.code, locked.stderr).toBe(0);
      expect(json(locked)).toMatchObject({ locked: true, reason: 'price feed down', by: 'script' });
      expect(existsSync(join(dirname(home.TRADER_CONFIG), 'brake.json'))).toBe(true);

      await sb.clearRequests();
      for (const args of [
        ['buy', sb.tokens[1]!.mint, '0.001sol'],
        ['sell', sb.tokens[0]!.mint, '1000'],
      ]) {
        const r = await run(home, ...args, '--yes', '--json');
        expect(r.code, r.stderr).toBe(6);
        expect(lastJsonError(r)).toMatchObject({
          code: 'TRADING_LOCKED',
          category: 'refused_to_sign',
          message: expect.stringMatching(/trading is locked \(trader lock\) since .* by a script: "price feed down"/),
        });
      }
      for (const [tool, args] of [
        ['buy', { token: sb.tokens[1]!.mint, amount: '1000000' }],
        ['sell', { token: sb.tokens[0]!.mint, amount: '1000' }],
      ] as const) {
        const r = await mcp.call(tool, args);
        expect(r.isError).toBe(true);
        expect(r.structuredContent.error).toMatchObject({
          code: 'TRADING_LOCKED',
          message: expect.stringContaining('"price feed down"'),
        });
      }
      const status = await mcp.call('trading_status');
      expect(status.structuredContent.lock).toMatchObject({ locked: true, reason: 'price feed down' });
      expect(await posts()).toEqual([]);

      // No person: unlock is refused (exit 2), piped, under --yes or --json alike; the lock stays.
      for (const flags of [[], ['--yes'], ['--json']]) {
        const r = await run(home, 'unlock', ...flags);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(/only a person at a terminal lifts the lock/);
      }
      expect((await run(home, 'buy', sb.tokens[1]!.mint, '0.001sol', '--yes', '--json')).code).toBe(6);
      // An agent has no unlock tool; its lock tool pulls the brake again (by: agent).
      expect((await mcp.client.listTools()).tools.map((t) => t.name)).not.toContain('unlock');
      const viaTool = await mcp.call('lock', { reason: 'agent saw a loop' });
      expect(viaTool.isError, JSON.stringify(viaTool.structuredContent)).toBeFalsy();
      const again = await inProcess(home, 'sell', sb.tokens[0]!.mint, '1000', '--yes', '--json');
      expect(again.code).toBe(6);
      expect(lastJsonError(again).message).toMatch(/by an agent: "agent saw a loop"/);
      expect(await signedPosts()).toEqual([]);
      const audit = auditOf(home);
      expect(audit.map((a) => [a.event, a.by])).toEqual([
        ['lock', 'script'],
        ['lock', 'agent'],
      ]);
    } finally {
      await mcp.close();
    }
  });

  it.skipIf(!hasTmux())('a person at a terminal unlocks at the prompt, and trading goes on', async () => {
    const home = homeWith({});
    expect((await run(home, 'lock')).code).toBe(0);
    const s = await startInTmux(['unlock'], envFor(sb.url, home));
    await s.waitFor('Lift the lock');
    await s.keys('y', 'Enter');
    expect(await s.exitCode()).toBe(0);
    const bought = await run(home, 'buy', sb.tokens[1]!.mint, '0.001sol', '--yes', '--json');
    expect(bought.code, bought.stderr).toBe(0);
    expect(auditOf(home).map((a) => [a.event, a.by])).toEqual([
      ['lock', 'script'],
      ['unlock', 'person'],
    ]);
  });
});

describe('allowedMints and deniedMints hold unattended runs', () => {
  it('a listed mint is bought under --yes; an unlisted one, or a denied one, is exit 6 before anything is sent', async () => {
    const listed = sb.tokens[1]!.mint;
    const other = sb.tokens[0]!.mint;
    const home = homeWith({ allowedMints: listed });
    const ok = await run(home, 'buy', listed, '0.001sol', '--yes', '--json');
    expect(ok.code, ok.stderr).toBe(0);
    await sb.clearRequests();
    for (const args of [
      ['buy', other, '0.001sol'],
      ['sell', other, '1000'],
    ]) {
      const r = await inProcess(home, ...args, '--yes', '--json');
      expect(r.code, r.stderr).toBe(6);
      expect(lastJsonError(r)).toMatchObject({
        code: 'MINT_NOT_ALLOWED',
        message: expect.stringContaining(`${other} is not in profile "default"'s allowedMints (${listed})`),
      });
    }
    const denied = homeWith({ deniedMints: listed });
    const r = await inProcess(denied, 'buy', listed, '0.001sol', '--yes', '--json');
    expect(r.code).toBe(6);
    expect(lastJsonError(r).message).toContain(`${listed} is in profile "default"'s deniedMints`);
    expect(await posts()).toEqual([]);
  });
});

describe('maxTradesPerHour, counted from the journal across processes', () => {
  it('at the limit the trade goes, one past it is refused (exit 2) before anything is created', async () => {
    const home = homeWith({ maxTradesPerHour: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await run(home, 'buy', sb.tokens[1]!.mint, '0.001sol', '--yes', '--json');
      expect(r.code, r.stderr).toBe(0);
    }
    await sb.clearRequests();
    const past = await inProcess(home, 'sell', sb.tokens[0]!.mint, '1000', '--yes', '--json');
    expect(past.code, past.stderr).toBe(2);
    expect(lastJsonError(past)).toMatchObject({
      code: 'OVER_HOURLY_TRADES',
      message: expect.stringMatching(
        /^2 trades signed in the last hour .*maxTradesPerHour 2: one fits again at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+; nothing was sent$/,
      ),
    });
    expect(await posts()).toEqual([]);
  });

  it('two processes at once with room for one: one signs, the other is refused in the signing gate (its deposit never sent)', async () => {
    const home = homeWith({ maxTradesPerHour: 1 });
    await sb.clearRequests();
    const both = await Promise.all(
      [1, 2].map(() => run(home, 'buy', sb.tokens[1]!.mint, '0.001sol', '--yes', '--json')),
    );
    expect(both.map((r) => r.code).sort(), both.map((r) => r.stderr).join('\n')).toEqual([0, 2]);
    expect(lastJsonError(both.find((r) => r.code === 2)!).code).toBe('OVER_HOURLY_TRADES');
    expect((await signedPosts()).filter((p) => p.path.endsWith('/deposit'))).toHaveLength(1);
    expect(records(home).filter((r) => r.type === 'signed')).toHaveLength(1);
  });
});

describe('maxDailyLossLamports: past the loss realized in 24 hours, unattended runs stop buying', () => {
  /** A journal of one buy (0.1 SOL for at least 1000 units) and one sell of them all for at least 0.06 SOL: a loss of 0.04 SOL. */
  function withLoss(home: Home): void {
    const wallet = sb.keypair.publicKey.toBase58();
    const mint = sb.tokens[2]?.mint ?? sb.tokens[0]!.mint;
    const base = {
      v: 1,
      at: new Date(Date.now() - 60 * 60_000).toISOString(),
      service: 'https://other.example/api/v1/',
      wallet,
    };
    const lines = [
      {
        ...base,
        side: 'buy',
        trade: 'b1',
        type: 'created',
        idempotencyKey: 'k1',
        resumed: false,
        request: { mint, amount: '100000000', slippageBps: null },
        quote: { minimumOutputAmount: '1000' },
      },
      {
        ...base,
        side: 'buy',
        trade: 'b1',
        type: 'before-signing',
        messageSha256: 'b'.repeat(64),
        blockhash: 'B',
        lastValidBlockHeight: 1,
        blockhashKnownBeforeSigning: true,
        amountLamports: '100000000',
      },
      { ...base, side: 'buy', trade: 'b1', type: 'signed', messageSha256: 'b'.repeat(64), signature: 'SIG1' },
      {
        ...base,
        side: 'sell',
        trade: 'sell_1',
        type: 'created',
        idempotencyKey: 'k2',
        resumed: false,
        request: { mint, amount: '1000', slippageBps: null },
        quote: { minimumOutputLamports: '60000000' },
      },
      {
        ...base,
        side: 'sell',
        trade: 'sell_1',
        type: 'before-signing',
        messageSha256: 'c'.repeat(64),
        minimumOutputLamports: '60000000',
      },
      { ...base, side: 'sell', trade: 'sell_1', type: 'signed', messageSha256: 'c'.repeat(64), signature: 'SIG2' },
    ];
    writeFileSync(journalOf(home), lines.map((l) => JSON.stringify(l) + '\n').join(''), { mode: 0o600 });
  }

  it('a loss at the limit buys; one lamport past it refuses the buy (exit 2, saying how the loss was reckoned), and a sell still goes', async () => {
    const at = homeWith({ maxDailyLossLamports: '40000000' });
    withLoss(at);
    const bought = await run(at, 'buy', sb.tokens[1]!.mint, '0.001sol', '--yes', '--json');
    expect(bought.code, bought.stderr).toBe(0);

    const past = homeWith({ maxDailyLossLamports: '39999999' });
    withLoss(past);
    await sb.clearRequests();
    const refused = await inProcess(past, 'buy', sb.tokens[1]!.mint, '0.001sol', '--yes', '--json');
    expect(refused.code, refused.stderr).toBe(2);
    expect(lastJsonError(refused)).toMatchObject({
      code: 'LOSS_STOP',
      message: expect.stringMatching(
        /^the loss realized in the last 24 hours, 0\.04 SOL \(40000000 lamports\), passes profile "default"'s maxDailyLossLamports, 0\.039999999 SOL \(39999999 lamports\): reckoned from this tool's journal over 1 sell, each paid its signed minimum .*unattended runs stop buying \(selling stays allowed/,
      ),
    });
    expect(await posts()).toEqual([]);
    // The buy above holds sb.tokens[1] (one account in the sandbox): selling it to get out goes on.
    const sold = await run(past, 'sell', sb.tokens[1]!.mint, '1000', '--yes', '--json');
    expect(sold.code, sold.stderr).toBe(0);
  });
});

describe("loosening a limit is a person's act, tightening is anyone's; every change is audited", () => {
  it('without a terminal: setting and lowering go, raising or removing a limit and allowing a mint are refused (exit 2), the profile unchanged', async () => {
    const home = homeWith({ allowedMints: sb.tokens[1]!.mint });
    for (const [key, value] of [
      ['maxTradesPerHour', '5'],
      ['maxTradesPerHour', '4'],
      ['maxDailyLossLamports', '100'],
      ['maxBuyLamports', '1000'],
      ['deniedMints', sb.tokens[0]!.mint],
    ]) {
      const r = await run(home, 'config', 'set', key!, value!, '--json');
      expect(r.code, `${key} ${value}: ${r.stderr}`).toBe(0);
    }
    const before = profileOf(home);
    for (const [key, value] of [
      ['maxTradesPerHour', '5'],
      ['maxTradesPerHour', ''],
      ['maxDailyLossLamports', '101'],
      ['maxBuyLamports', '1001'],
      ['allowedMints', `${sb.tokens[1]!.mint},${sb.tokens[0]!.mint}`],
      ['allowedMints', ''],
      ['deniedMints', ''],
    ]) {
      const r = await run(home, 'config', 'set', key!, value!, '--json');
      expect(r.code, `${key} ${value}`).toBe(2);
      expect(lastJsonError(r)).toMatchObject({
        code: 'PERSON_REQUIRED',
        message: expect.stringContaining(`loosening ${key} of profile "default"`),
      });
    }
    expect(profileOf(home)).toEqual(before);
    expect(auditOf(home).map((a) => [a.event, a.key, a.from, a.to, a.loosened])).toEqual([
      ['limit', 'maxTradesPerHour', null, 5, false],
      ['limit', 'maxTradesPerHour', 5, 4, false],
      ['limit', 'maxDailyLossLamports', null, '100', false],
      ['limit', 'maxBuyLamports', null, '1000', false],
      ['limit', 'deniedMints', null, sb.tokens[0]!.mint, false],
    ]);
    const catalog = json(await run(home, 'commands', '--json'));
    expect(catalog.brake).toMatchObject({
      lock: null,
      profile: 'default',
      limits: {
        maxTradesPerHour: 4,
        maxDailyLossLamports: '100',
        allowedMints: [sb.tokens[1]!.mint],
        deniedMints: [sb.tokens[0]!.mint],
      },
    });
  });
});
