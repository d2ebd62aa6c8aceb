// The trade journal end to end, the built binary against the sandbox: a journal that cannot be
// written refuses the trade before anything is sent; the daily limits at the cap and one lamport
// past it, across processes at once and across restarts, a failed trade's signed deposit counted,
// a flag that would raise a limit refused; one payout named for two sells (at once, and one
// after the other with the second backdated) is a contradiction naming both; a deposit signed by
// one process proven never to land by a later one once its blockhash expired at finalized; a
// damaged line reported and skipped; and a buy past 2^53 lamports exact on both sides.
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastJsonError, stderrJson } from '../helpers/cli-assert.js';
import { freshHome, json, runCli, type CliResult } from '../helpers/cli.js';
import { sandboxForFile, type Home } from '../helpers/file-sandbox.js';
import { journalOf, records } from '../helpers/journal-file.js';
import { runInProcess } from '../helpers/in-process.js';
import { sandboxClock } from '../helpers/sandbox-clock.js';
import { completeBuy, newKey, signMessage, type TestSandbox } from '../helpers/sandbox.js';
import { formatSol } from '../../src/domain/amounts.js';
import { formatLocalTime } from '../../src/domain/local-time.js';

let sb: TestSandbox;
const { envFor, withDelays, tamperProxy } = sandboxForFile((started) => (sb = started));

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A home whose profile holds these settings. */
function homeWith(profile: Record<string, string | number>): Home {
  const home = freshHome();
  mkdirSync(dirname(home.TRADER_CONFIG), { recursive: true, mode: 0o700 });
  writeFileSync(home.TRADER_CONFIG, JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
  return home;
}
const run = (home: Home, ...args: string[]): Promise<CliResult> => runCli(args, { env: envFor(sb.url, home) });
/** The same run in this process: for what needs no process of its own (refusals before anything is sent). */
const inProcess = (home: Home, ...args: string[]): Promise<CliResult> => runInProcess(args, envFor(sb.url, home));
/** The POSTs the sandbox saw since the log was cleared, as `POST <path>` with ids kept. */
const posts = async () =>
  (await sb.requests()).filter((r) => r.method === 'POST').map((r) => r.path.replace('/api/v1', ''));
const buyToken = () => sb.tokens[1]!.mint;

describe('a journal that cannot be written refuses the trade before anything is sent', () => {
  it('a folder that cannot be made (read-only /proc), a symlink planted at its name, a journal others can write: exit 2, no request that creates, signs or authorizes', async () => {
    const symlinked = freshHome();
    mkdirSync(dirname(symlinked.TRADER_CONFIG), { recursive: true, mode: 0o700 });
    const victim = join(dirname(symlinked.TRADER_CONFIG), 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, journalOf(symlinked));
    const shared = freshHome();
    mkdirSync(dirname(shared.TRADER_CONFIG), { recursive: true, mode: 0o700 });
    writeFileSync(journalOf(shared), '', { mode: 0o666 });
    chmodSync(journalOf(shared), 0o666);
    const cases: Array<[Home, RegExp]> = [
      [
        { HOME: freshHome().HOME, TRADER_CONFIG: '/proc/trader-journal-e2e/config.json' },
        /cannot create \/proc\/trader-journal-e2e: .*; nothing was sent/,
      ],
      [
        symlinked,
        /the journal .*journal\.jsonl is a symbolic link; it must be a file of its own \(remove the link\); nothing was sent/,
      ],
      [
        shared,
        /journal .*journal\.jsonl can be changed by other users \(mode 666\); run: chmod go-w .*; nothing was sent/,
      ],
    ];
    await sb.clearRequests();
    for (const [home, says] of cases) {
      for (const args of [
        ['buy', buyToken(), '0.01sol'],
        ['sell', sb.tokens[0]!.mint, '10%'],
      ]) {
        const r = await inProcess(home, ...args, '--yes', '--json');
        expect(r.code, r.stderr).toBe(2);
        expect(lastJsonError(r)).toMatchObject({
          code: 'JOURNAL_UNWRITABLE',
          category: 'usage',
          message: expect.stringMatching(says),
        });
      }
    }
    expect(await posts()).toEqual([]);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it.skipIf(isRoot)(
    'a read-only config folder (not as root, which writes anyway): exit 2 before anything is sent',
    async () => {
      const home = freshHome();
      mkdirSync(dirname(home.TRADER_CONFIG), { recursive: true, mode: 0o500 });
      await sb.clearRequests();
      const r = await run(home, 'buy', buyToken(), '0.01sol', '--yes', '--json');
      expect(r.code, r.stderr).toBe(2);
      expect(lastJsonError(r)).toMatchObject({
        code: 'JOURNAL_UNWRITABLE',
        message: expect.stringMatching(/permission denied.*nothing was sent/i),
      });
      expect(await posts()).toEqual([]);
      chmodSync(dirname(home.TRADER_CONFIG), 0o700);
    },
  );
});

describe('the daily limits count the wallet, whatever the service', () => {
  it("a deposit and a sell minimum signed for this wallet through another service (another profile) count toward this one's caps; --max-daily-sell-lamports cannot raise the profile's sell cap", async () => {
    const home = homeWith({ maxDailyBuyLamports: '40000000', maxDailySellLamports: '40000000', treasury: sb.treasury });
    const wallet = sb.keypair.publicKey.toBase58();
    const base = { v: 1, at: new Date().toISOString(), service: 'https://other.example/api/v1/', wallet };
    const lines = [
      {
        ...base,
        side: 'buy',
        trade: 'other-buy',
        type: 'before-signing',
        messageSha256: 'b'.repeat(64),
        blockhash: 'B',
        lastValidBlockHeight: 1,
        blockhashKnownBeforeSigning: true,
        amountLamports: '30000000',
      },
      { ...base, side: 'buy', trade: 'other-buy', type: 'signed', messageSha256: 'b'.repeat(64), signature: 'OTHER' },
      {
        ...base,
        side: 'sell',
        trade: 'sell_other',
        type: 'before-signing',
        messageSha256: 'c'.repeat(64),
        minimumOutputLamports: '39999999',
      },
    ];
    writeFileSync(journalOf(home), lines.map((l) => JSON.stringify(l) + '\n').join(''), { mode: 0o600 });
    await sb.clearRequests();
    const buy = await inProcess(home, 'buy', buyToken(), '10000001', '--yes', '--json');
    expect(buy.code, buy.stderr).toBe(2);
    expect(lastJsonError(buy)).toMatchObject({
      code: 'OVER_DAILY_LIMIT',
      message: expect.stringContaining(
        '0.03 SOL (30000000 lamports) committed by signed deposits in the last 24 hours',
      ),
    });
    const raise = await inProcess(
      home,
      'sell',
      sb.tokens[0]!.mint,
      '1000',
      '--yes',
      '--json',
      '--max-daily-sell-lamports',
      '40000001',
    );
    expect(raise.code).toBe(2);
    expect(lastJsonError(raise)).toMatchObject({
      code: 'OVER_LIMIT',
      message: `--max-daily-sell-lamports 40000001 would raise profile "default"'s maxDailySellLamports (40000000); a flag can only lower it; nothing was sent`,
    });
    expect(await posts()).toEqual([]);
  });
});

describe('daily limits, counted from the journal across processes and restarts', () => {
  it('buy: at the cap it goes, one lamport past it is refused before anything is created (what was spent, the cap, when room frees up); a damaged line is reported and skipped; a flag lowers the cap, never raises it', async () => {
    const home = homeWith({ maxDailyBuyLamports: '40000000', treasury: sb.treasury });
    const first = await run(home, 'buy', buyToken(), '20000000', '--yes', '--json');
    expect(first.code, first.stderr).toBe(0);
    const signedAt = Date.parse(records(home).find((r) => r.type === 'before-signing').at);
    // A line damaged by hand: reported (naming it), skipped, the rest still read and counted.
    appendFileSync(journalOf(home), '{"v":1,"type":"before-signing","side":"buy","amountLamports":"1"\n');
    const damagedLine = readFileSync(journalOf(home), 'utf8').split('\n').length - 1;

    await sb.clearRequests();
    const past = await inProcess(home, 'buy', buyToken(), '20000001', '--yes', '--json');
    expect(past.code, past.stderr).toBe(2);
    expect(lastJsonError(past)).toMatchObject({ code: 'OVER_DAILY_LIMIT', category: 'usage', retryable: false });
    expect(lastJsonError(past).message).toBe(
      `a buy of 0.020000001 SOL (20000001 lamports) would go over the daily limit: 0.02 SOL (20000000 lamports) committed by signed deposits in the last 24 hours, cap 0.04 SOL (40000000 lamports) (profile "default"'s maxDailyBuyLamports); room for it frees up at ${formatLocalTime(signedAt + DAY_MS)}; nothing was sent; a person may raise it: trader config set maxDailyBuyLamports <n>sol`,
    );
    expect(stderrJson(past)[0]).toEqual({
      warning: `journal ${journalOf(home)} line ${damagedLine} is damaged (not JSON); skipped, not trusted`,
    });
    expect(await posts()).toEqual([]);

    const raise = await inProcess(
      home,
      'buy',
      buyToken(),
      '100000',
      '--yes',
      '--json',
      '--max-daily-buy-lamports',
      '40000001',
    );
    expect(raise.code).toBe(2);
    expect(lastJsonError(raise).message).toBe(
      `--max-daily-buy-lamports 40000001 would raise profile "default"'s maxDailyBuyLamports (40000000); a flag can only lower it; nothing was sent`,
    );
    const lower = await inProcess(
      home,
      'buy',
      buyToken(),
      '100000',
      '--yes',
      '--json',
      '--max-daily-buy-lamports',
      '20000000',
    );
    expect(lower.code).toBe(2);
    expect(lastJsonError(lower).message).toMatch(/cap 0\.02 SOL \(20000000 lamports\) \(--max-daily-buy-lamports\)/);
    expect(lastJsonError(lower).message).not.toContain('raise it'); // a flag's cap is only ever lowered
    expect(await posts()).toEqual([]);

    const at = await run(home, 'buy', buyToken(), '20000000', '--yes', '--json');
    expect(at.code, at.stderr).toBe(0);
    const full = await inProcess(home, 'buy', buyToken(), '100000', '--yes');
    expect(full.code).toBe(2);
    expect(full.stderr).toMatch(
      /^error: a buy of 0\.0001 SOL \(100000 lamports\) would go over the daily limit: 0\.04 SOL \(40000000 lamports\) committed/m,
    );
    // Resuming a buy the limit counted already is not a new commitment.
    const resumed = await run(
      home,
      'buy',
      buyToken(),
      '20000000',
      '--yes',
      '--json',
      '--idempotency-key',
      json(first).idempotencyKey,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(json(resumed).intent.id).toBe(json(first).intent.id);
  });

  it('two processes at once, each within the cap alone, together past it: one buys, the other is refused before its deposit is sent', async () => {
    const home = homeWith({ maxDailyBuyLamports: '30000000', treasury: sb.treasury });
    await sb.clearRequests();
    const both = await Promise.all([
      run(home, 'buy', buyToken(), '20000000', '--yes', '--json'),
      run(home, 'buy', buyToken(), '20000000', '--yes', '--json'),
    ]);
    expect(both.map((r) => r.code).sort(), both.map((r) => r.stderr).join('\n')).toEqual([0, 2]);
    expect(lastJsonError(both.find((r) => r.code === 2)!), both.map((r) => r.stderr).join('\n')).toMatchObject({
      code: 'OVER_DAILY_LIMIT',
    });
    expect((await posts()).filter((p) => p.endsWith('/deposit'))).toHaveLength(1);
    expect(records(home).filter((r) => r.type === 'before-signing')).toHaveLength(1);
  });

  it("a failed trade's signed deposit counts (the money could still move until it expired)", async () => {
    const home = homeWith({ maxDailyBuyLamports: '30000000', treasury: sb.treasury });
    await sb.control('/fail-next-swap', { count: 1 });
    const failed = await run(home, 'buy', buyToken(), '20000000', '--yes', '--json');
    expect(failed.code, failed.stderr).toBe(4);
    expect(json(failed).intent.status).toBe('refunded');
    const next = await inProcess(home, 'buy', buyToken(), '20000000', '--yes', '--json');
    expect(next.code).toBe(2);
    expect(lastJsonError(next).message).toMatch(
      /0\.02 SOL \(20000000 lamports\) committed by signed deposits in the last 24 hours/,
    );
  });

  it('sell: the signed minimum counts; one lamport over the cap is refused before the review (no authorize), at the cap it sells, and the next is refused', async () => {
    const mint = sb.tokens[2]!.mint;
    await completeBuy(sb, { mint, amountLamports: '300000000' });
    const home = homeWith({ treasury: sb.treasury, maxDailySellLamports: '10000000000' });
    const dry = await inProcess(home, 'sell', mint, '1000', '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    const minimum = BigInt(json(dry).authorization.minimumOutputLamports);
    await sb.clearRequests();
    const over = await inProcess(
      home,
      'sell',
      mint,
      '1000',
      '--yes',
      '--json',
      '--max-daily-sell-lamports',
      String(minimum - 1n),
    );
    expect(over.code, over.stderr).toBe(2);
    expect(lastJsonError(over).message).toMatch(
      /^a sell with a signed minimum of [\d.]+ SOL \(\d+ lamports\) would go over the daily limit: 0 SOL \(0 lamports\) signed as sell minimums in the last 24 hours, .*; it alone is more than the cap; nothing was signed; the authorization expires unused$/,
    );
    expect((await posts()).filter((p) => p.endsWith('/authorize'))).toEqual([]);
    const at = await run(home, 'sell', mint, '1000', '--yes', '--json', '--max-daily-sell-lamports', String(minimum));
    expect(at.code, at.stderr).toBe(0);
    expect(BigInt(json(at).authorization.minimumOutputLamports)).toBe(minimum);
    const again = await inProcess(
      home,
      'sell',
      mint,
      '1000',
      '--yes',
      '--json',
      '--max-daily-sell-lamports',
      String(minimum),
    );
    expect(again.code).toBe(2);
    expect(lastJsonError(again).message).toMatch(
      /signed as sell minimums in the last 24 hours, cap .*; room for it frees up at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+;/,
    );
    expect((await posts()).filter((p) => p.endsWith('/authorize'))).toHaveLength(1);
  });
});

describe('a transaction proves one trade', () => {
  /** The ids of the sells authorized since the log was cleared. */
  const authorized = async () =>
    (await sb.requests())
      .filter((r) => r.method === 'POST' && r.path.endsWith('/authorize') && r.status === 200)
      .map((r) => r.path.split('/')[5]!);
  /** Waits (real time: the processes poll) until `count` sells authorized since the log was cleared await their payout. */
  async function payoutsPending(count: number): Promise<string[]> {
    for (let i = 0; i < 300; i++) {
      const ids = await authorized();
      const views = await Promise.all(ids.map(async (id) => (await sb.call('GET', `/trade/sells/${id}`)).body.data));
      if (views.length === count && views.every((v) => v.sell?.status === 'payout_pending')) return ids;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${count} sells did not reach payout_pending`);
  }

  it('two sells at once, and the service names one payout for both: the second to claim it is a contradiction naming both trades and the transaction', async () => {
    const mint = sb.tokens[0]!.mint;
    await completeBuy(sb, { mint, amountLamports: '400000000' });
    const home = homeWith({ treasury: sb.treasury });
    expect((await run(home, 'sell', mint, '1%', '--yes')).code).toBe(0); // pins the wording: both sells below sign unattended
    await sb.clearRequests();
    const [a, b] = await withDelays({ payoutSeconds: 30 }, async () => {
      // Both processes run at once: A waits for its payout while B is made; A is paid, then B
      // is reported paid by A's payout.
      const first = run(home, 'sell', mint, '5%', '--yes', '--json');
      await payoutsPending(1);
      await sb.advance(10);
      const second = run(home, 'sell', mint, '5%', '--yes', '--json');
      await payoutsPending(2);
      await sb.advance(21);
      await sb.call('GET', '/me'); // A's payout falls due and is made
      await sb.control('/lies', { lie: 'reused-payout' });
      await sb.advance(10);
      return Promise.all([first, second]);
    });
    // Whichever claims the payout first under the journal's lock is verified; the other is the contradiction.
    expect([a.code, b.code].sort(), `${a.stderr}\n${b.stderr}`).toEqual([0, 3]);
    const [ok, refused] = a.code === 0 ? [a, b] : [b, a];
    const payout = json(a).trade.signatures.payouts[0];
    expect(json(b).trade.signatures.payouts).toEqual([payout]);
    const error = lastJsonError(refused);
    expect(error.code).toBe('CHAIN_CONTRADICTS_SERVICE');
    expect(error.message).toContain(`payout ${payout} should be at least`);
    expect(error.message).toContain(
      `this transaction already proved trade ${json(ok).authorization.id} (as its payout); one transaction proves one trade, so it cannot prove ${json(refused).authorization.id} too`,
    );
    expect(json(refused).verification.verdict).toBe('contradicted');
    // The journal holds one claim of that payout: the first's.
    expect(
      records(home)
        .filter((r) => r.type === 'evidence' && r.signature === payout)
        .map((r) => r.trade),
    ).toEqual([json(ok).authorization.id]);
  });

  it("one after the other, the second backdated before the first's payout: still a contradiction naming both; --verify from a new process agrees; the list shows both sells by id", async () => {
    const mint = sb.tokens[0]!.mint;
    const home = homeWith({ treasury: sb.treasury });
    const first = await run(home, 'sell', mint, '2%', '--yes', '--json');
    expect(first.code, first.stderr).toBe(0);
    const payout = json(first).trade.signatures.payouts[0];
    await sb.control('/lies', { lie: 'reused-payout' });
    const second = await run(home, 'sell', mint, '2%', '--yes', '--json');
    expect(second.code, second.stderr).toBe(3);
    const out = json(second);
    // The service's time would let it through: it puts the trade a minute before the payout.
    expect(Date.parse(out.trade.createdAt)).toBeLessThan(Date.parse(json(first).trade.completedAt));
    expect(out.trade.signatures.payouts).toEqual([payout]);
    const says = `this transaction already proved trade ${json(first).authorization.id} (as its payout); one transaction proves one trade, so it cannot prove ${out.authorization.id} too`;
    expect(lastJsonError(second).message).toContain(says);
    const verify = await inProcess(home, 'trades', out.authorization.id, '--verify', '--json');
    expect(verify.code).toBe(3);
    expect(lastJsonError(verify).message).toContain(says);
    const list = await inProcess(home, 'trades', '--json');
    expect(list.code, list.stderr).toBe(0);
    const sells = json(list).filter((t: any) => t.journal && t.side === 'sell');
    expect(sells.map((t: any) => [t.id, t.idempotencyKey])).toEqual([
      [out.authorization.id, out.idempotencyKey],
      [json(first).authorization.id, json(first).idempotencyKey],
    ]);
    // A sell id as the human list shortens it is typed back: the journal knows it whole.
    const shown = (await inProcess(home, 'trades')).stdout
      .split('\n')
      .find((l) => l.startsWith(out.authorization.id.slice(0, 6)))!
      .split(/\s+/)[0]!;
    expect(shown).toMatch(/^sell_\w+…$/);
    const one = await inProcess(home, 'trades', shown, '--json');
    expect(one.code, one.stderr).toBe(0);
    expect(json(one).authorization.id).toBe(out.authorization.id);
  });

  it("attack-log-4 R4-1: a sell's trade answered with another sell's (another group key) is a contradiction, exit 3, even where the journal knows neither", async () => {
    const mint = sb.tokens[0]!.mint;
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const home = homeWith({ treasury: sb.treasury });
    const a = await inProcess(home, 'sell', mint, '2%', '--yes', '--json');
    const b = await inProcess(home, 'sell', mint, '1%', '--yes', '--json');
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    const [idA, idB] = [json(a).authorization.id, json(b).authorization.id];
    const tradeA = (await sb.call('GET', `/trades/${idA}`)).body;
    const proxy = await tamperProxy();
    proxy.rewrite('GET', new RegExp(`^/api/v1/trades/${idB}$`), () => tradeA);
    const elsewhere = homeWith({ treasury: sb.treasury });
    const r = await runInProcess(['trades', idB, '--verify', '--json'], envFor(proxy.url, elsewhere));
    expect(r.code, r.stderr).toBe(3);
    expect(lastJsonError(r)).toMatchObject({ code: 'SERVICE_CONTRADICTION' });
    expect(lastJsonError(r).message).toContain(`which sell ${idB} does not name as its own`);
    // The sell object borrowed too, to name A's group key: A's trade sells more than B authorized.
    const sellA = (await sb.call('GET', `/trade/sells/${idA}`)).body.data.sell;
    const both = await tamperProxy();
    both.rewrite('GET', new RegExp(`^/api/v1/trade/sells/${idB}$`), (body) => {
      body.data.sell = { ...sellA, authorizationId: idB };
      return body;
    });
    both.rewrite('GET', new RegExp(`^/api/v1/trades/${idB}$`), () => tradeA);
    const borrowed = await runInProcess(['trades', idB, '--verify', '--json'], envFor(both.url, elsewhere));
    expect(borrowed.code, borrowed.stderr).toBe(3);
    expect(lastJsonError(borrowed).message).toContain('not what the sell authorized');
    // The honest read verifies.
    const honest = await runInProcess(['trades', idB, '--verify', '--json'], envFor(sb.url, elsewhere));
    expect(honest.code, honest.stderr).toBe(0);
  });

  it('a fresh idempotency key answered with a trade this tool made under another key (a buy completed, a sell already signed) is the service contradicting itself: exit 3, nothing signed, nothing claimed', async () => {
    const home = homeWith({ treasury: sb.treasury });
    const proxy = await tamperProxy();
    const via = (...args: string[]) => runInProcess(args, envFor(proxy.url, home));
    const first = await via('buy', buyToken(), '0.01sol', '--yes', '--json');
    expect(first.code, first.stderr).toBe(0);
    // What the service answers the first buy's key now: that buy, completed.
    const earlier = await sb.call('POST', '/trade/buys', {
      body: { mint: buyToken(), amountLamports: '10000000', idempotencyKey: json(first).idempotencyKey },
    });
    expect(earlier.body.data.intent).toMatchObject({ id: json(first).intent.id, status: 'completed' });
    proxy.rewrite('POST', /\/trade\/buys$/, () => earlier.body);
    const before = records(home).length;
    const buy = await via('buy', buyToken(), '0.01sol', '--yes', '--json');
    expect(buy.code, buy.stderr).toBe(3);
    expect(lastJsonError(buy)).toMatchObject({
      code: 'SERVICE_CONTRADICTION',
      message: expect.stringMatching(
        new RegExp(
          `answered idempotency key \\S+ with buy ${json(first).intent.id}, which this tool made with key ${json(first).idempotencyKey}: not this buy; nothing was signed`,
        ),
      ),
    });
    // Nothing about the first buy is changed or claimed by the second run.
    expect(records(home).slice(before)).toEqual([]);

    // A sell: the second, on a fresh key, is answered with the first's authorization, which it would sign again.
    const mint = sb.tokens[0]!.mint;
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const holding = (await sb.call('GET', '/holdings')).body.data.find((h: any) => h.mint === mint);
    const amount = (BigInt(holding.amount) / 50n).toString();
    let answer: unknown = null;
    proxy.rewrite('POST', /\/trade\/sells$/, (body) => (answer ??= body));
    const sold = await via('sell', mint, amount, '--yes', '--json');
    expect(sold.code, sold.stderr).toBe(0);
    proxy.seen.length = 0;
    const after = records(home).length;
    const again = await via('sell', mint, amount, '--yes', '--json');
    expect(again.code, again.stderr).toBe(3);
    expect(lastJsonError(again).message).toMatch(
      new RegExp(
        `with sell ${json(sold).authorization.id}, which this tool made with key ${json(sold).idempotencyKey}: not this sell; nothing was signed`,
      ),
    );
    expect(proxy.seen.filter((x) => x.method === 'POST').map((x) => x.path.replace('/api/v1', ''))).toEqual([
      '/trade/sells',
    ]);
    expect(records(home).slice(after)).toEqual([]);
  });

  it("attack-3 F2: a failed --no-wait buy's refund named as a sell's payout is never 'verified': not tied to the sell (attributed) while the journal knows only the buy's deposit; once the buy's refund is recorded, a contradiction naming the buy; the buy itself is verified, not blamed", async () => {
    const mint = sb.tokens[0]!.mint;
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const home = homeWith({ treasury: sb.treasury });
    // The buy: its deposit accepted, its swap failing; the journal sees no more of it.
    await sb.control('/fail-next-swap', { count: 1 });
    const bought = await run(home, 'buy', buyToken(), '0.1sol', '--yes', '--no-wait', '--json');
    expect(bought.code, bought.stderr).toBe(0);
    const buyId = json(bought).intent.id;
    for (let i = 0; i < 4; i++) await sb.call('GET', `/trade/buys/${buyId}`);
    const refunded = (await sb.call('GET', `/trades/${buyId}`)).body.data;
    expect(refunded).toMatchObject({ stage: 'refunded', refund: { state: 'complete', amountLamports: '100000000' } });
    const refund = refunded.signatures.refund;
    // The sell's own payout goes to another wallet; the service names the buy's refund as it.
    const proxy = await tamperProxy();
    proxy.rewrite('GET', /^\/api\/v1\/trades\/[^/]+$/, (body) => {
      if (body.data.side === 'sell' && body.data.stage === 'completed')
        Object.assign(body.data, {
          receivedOutputAmount: '100000000',
          signatures: { ...body.data.signatures, payouts: [refund] },
        });
      return body;
    });
    await sb.control('/lies', { lie: 'payout-elsewhere' });
    const sold = await runCli(['sell', mint, '5%', '--yes', '--json'], { env: envFor(proxy.url, home) });
    expect(sold.code, sold.stderr).toBe(0);
    const sellId = json(sold).authorization.id;
    const v = json(sold).verification;
    expect(v.verdict).toBe('attributed');
    expect(v.checks.find((c: any) => c.role === 'payout')).toMatchObject({
      signature: refund,
      mark: 'attributed',
      chain: expect.stringMatching(
        new RegExp(
          `^the service reports 0\\.1 SOL paid; the chain shows a transfer it cannot tie to this sell: 0\\.1 SOL to your wallet, slot \\d+, exactly what buy ${buyId} \\(not known completed here\\) may get back as its refund$`,
        ),
      ),
    });
    expect(v.received).toEqual({ untiedPayoutsLamports: '100000000' });
    expect(records(home).filter((r) => r.type === 'evidence' && r.signature === refund)).toEqual([]);
    const unproven = await runInProcess(['trades', sellId, '--verify'], envFor(proxy.url, home));
    expect(unproven.code, unproven.stderr).toBe(3);
    expect(unproven.stdout).not.toContain('every claim verified');
    expect(unproven.stderr).toMatch(
      /not every claim is proven on chain: the service reports 0\.1 SOL paid; the chain shows a transfer it cannot tie to this sell/,
    );
    // Following the buy to its end records its refund (named, not yet claimed): the sell cannot have it now.
    const followed = await inProcess(home, 'trades', buyId, '--watch', '--json');
    expect(followed.code, followed.stderr).toBe(4);
    expect(
      records(home)
        .filter((r) => r.type === 'answer' && r.trade === buyId)
        .flatMap((r) => r.transactions ?? []),
    ).toContainEqual({ signature: refund, role: 'refund' });
    const known = await runInProcess(['trades', sellId, '--verify', '--json'], envFor(proxy.url, home));
    expect(known.code, known.stderr).toBe(3);
    expect(lastJsonError(known).message).toContain(`payout ${refund} should be at least`);
    expect(lastJsonError(known).message).toContain(
      `the journal knows this transaction as buy ${buyId}'s refund; one transaction proves one trade, so it is not this sell's payout`,
    );
    // The honest record is the buy's: verified, and the refund claimed by it.
    const buyVerified = await inProcess(home, 'trades', buyId, '--verify', '--json');
    expect(buyVerified.code, buyVerified.stderr).toBe(0);
    expect(
      records(home)
        .filter((r) => r.type === 'evidence' && r.signature === refund)
        .map((r) => [r.trade, r.role]),
    ).toEqual([[buyId, 'refund']]);
  });

  it("trades <id> --watch holds the chain to the journal as --verify does (attack-3 F14): it records the payout it verified, and a payout the journal records as another sell's is a contradiction naming both", async () => {
    const mint = sb.tokens[0]!.mint;
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const holding = (await sb.call('GET', '/holdings')).body.data.find((h: any) => h.mint === mint);
    const amount = (BigInt(holding.amount) / 50n).toString();
    const home = homeWith({ treasury: sb.treasury });
    const clock = sandboxClock(sb);
    const at = (...args: string[]) =>
      runInProcess(args, { ...envFor(sb.url, home), TMPDIR: process.env.TMPDIR }, { clock, fetch: clock.fetch });
    // Two sells left to run (--no-wait: nothing verified, nothing claimed); A is paid, then the
    // service names A's payout for B, which this tool made before that payout landed (so its time proves nothing).
    const [a, b] = await withDelays({ payoutSeconds: 30 }, async () => {
      const first = await at('sell', mint, amount, '--yes', '--no-wait', '--json');
      await sb.advance(10);
      const second = await at('sell', mint, amount, '--yes', '--no-wait', '--json');
      await sb.advance(25);
      await sb.call('GET', '/me'); // A's payout falls due and is made
      await sb.control('/lies', { lie: 'reused-payout' });
      await sb.advance(10);
      await sb.call('GET', '/me'); // B's falls due: the service names A's
      return [json(first).authorization.id as string, json(second).authorization.id as string];
    });
    const payoutOf = async (id: string) =>
      (await sb.call('GET', `/trade/sells/${id}`)).body.data.sell.payoutSignature as string;
    const payout = await payoutOf(a);
    expect(await payoutOf(b)).toBe(payout);
    const claims = () =>
      records(home)
        .filter((r) => r.type === 'evidence' && r.signature === payout)
        .map((r) => [r.trade, r.role]);
    expect(claims()).toEqual([]);

    // The honest control: A followed to its end is verified, and its payout claimed for it.
    const watchA = await at('trades', a, '--watch');
    expect(watchA.code, watchA.stderr).toBe(0);
    expect(watchA.stdout).toMatch(/every claim verified/);
    expect(claims()).toEqual([[a, 'payout']]);
    // B's payout is A's: --watch says so as --verify does, and claims nothing for B.
    const says = `this transaction already proved trade ${a} (as its payout); one transaction proves one trade, so it cannot prove ${b} too`;
    const watchB = await at('trades', b, '--watch');
    expect(watchB.code, watchB.stdout).toBe(3);
    expect(watchB.stdout).not.toMatch(/every claim verified/);
    expect(watchB.stderr).toContain(says);
    const verifyB = await at('trades', b, '--verify', '--json');
    expect(verifyB.code).toBe(3);
    expect(lastJsonError(verifyB).message).toContain(says);
    expect(claims()).toEqual([[a, 'payout']]);
  });

  it("a payout that landed before this tool created the trade (the journal's time) contradicts it, whatever time the service gives", async () => {
    const mint = sb.tokens[0]!.mint;
    // A sell made elsewhere (not in this journal), paid out; two minutes later this tool sells.
    const holding = (await sb.call('GET', '/holdings')).body.data.find((h: any) => h.mint === mint);
    const amount = (BigInt(holding.amount) / 50n).toString();
    const created = await sb.call('POST', '/trade/sells', {
      body: { mint, amount, idempotencyKey: newKey('elsewhere') },
    });
    const a = created.body.data.authorization;
    expect(
      (
        await sb.call('POST', `/trade/sells/${a.id}/authorize`, {
          body: { signature: signMessage(a.message, sb.keypair) },
        })
      ).status,
    ).toBe(200);
    for (let i = 0; i < 3; i++) await sb.call('GET', `/trade/sells/${a.id}`);
    expect((await sb.call('GET', `/trade/sells/${a.id}`)).body.data.sell.status).toBe('completed');
    await sb.advance(120);
    await sb.control('/lies', { lie: 'reused-payout' });
    const home = homeWith({ treasury: sb.treasury });
    const clock = sandboxClock(sb);
    const r = await runInProcess(
      ['sell', mint, amount, '--yes', '--json'],
      { ...envFor(sb.url, home), TMPDIR: process.env.TMPDIR },
      { clock, fetch: clock.fetch },
    );
    expect(r.code, r.stderr).toBe(3);
    expect(lastJsonError(r).message).toMatch(
      /payout \w+ should be at least [\d.]+ SOL to your wallet, but the chain shows: landed at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+, before the trade was created/,
    );
  });
});

describe('what --verify can prove later, from the journal', () => {
  it("a sell's payout is held to the minimum the journal says was signed, not to a lower one the service reports afterwards: in the run and in --verify", async () => {
    const mint = sb.tokens[0]!.mint;
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const home = homeWith({ treasury: sb.treasury });
    // On the sandbox's clock, which earlier tests moved ahead of this machine's.
    const clock = sandboxClock(sb);
    const at = (url: string, ...args: string[]) =>
      runInProcess(args, { ...envFor(url, home), TMPDIR: process.env.TMPDIR }, { clock, fetch: clock.fetch });
    // Once signed, every read of the sell says its minimum was 1 lamport; the chain pays half the signed one.
    const proxy = await tamperProxy();
    const lowered = (body: any) => ({
      ...body,
      data: { ...body.data, authorization: { ...body.data.authorization, minimumOutputLamports: '1' } },
    });
    proxy.rewrite('GET', /\/trade\/sells\/sell_\w+$/, lowered);
    proxy.rewrite('POST', /\/trade\/sells\/sell_\w+\/authorize$/, lowered);
    await sb.control('/lies', { lie: 'short-payout' });
    const r = await at(proxy.url, 'sell', mint, '2%', '--yes', '--json');
    const signed = records(home)
      .filter((x) => x.type === 'before-signing')
      .at(-1);
    expect(BigInt(signed.minimumOutputLamports)).toBeGreaterThan(1n);
    expect(json(r).authorization.minimumOutputLamports).toBe('1');
    expect(r.code, r.stderr).toBe(3);
    const says =
      /payout \w+ should be at least ([\d.]+) SOL to your wallet, but the chain shows: pays [\d.]+ SOL to your wallet, less than the signed minimum/;
    expect(lastJsonError(r).message).toMatch(says);
    expect(lastJsonError(r).message.match(says)![1]).toBe(formatSol(BigInt(signed.minimumOutputLamports)));
    const verify = await at(proxy.url, 'trades', signed.trade, '--verify', '--json');
    expect(verify.code, verify.stderr).toBe(3);
    expect(lastJsonError(verify).message).toMatch(says);
  });

  it('a sell followed with --no-wait, verified by its trade id and by its sell_… id in either order, is one trade: exit 0 each time, its evidence claimed once', async () => {
    const mint = sb.tokens[0]!.mint;
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const clock = sandboxClock(sb);
    const verifyIn = (home: Home, id: string) =>
      runInProcess(
        ['trades', id, '--verify', '--json'],
        { ...envFor(sb.url, home), TMPDIR: process.env.TMPDIR },
        { clock, fetch: clock.fetch },
      );
    const sellIn = (home: Home, ...args: string[]) =>
      runInProcess(
        ['sell', mint, ...args, '--yes', '--json'],
        { ...envFor(sb.url, home), TMPDIR: process.env.TMPDIR },
        { clock, fetch: clock.fetch },
      );
    const home = homeWith({ treasury: sb.treasury });
    const mine: string[] = [];
    for (const order of ['trade id first', 'sell id first']) {
      const r = await sellIn(home, '2%', '--no-wait');
      expect(r.code, r.stderr).toBe(0);
      const sellId = json(r).authorization.id;
      mine.push(sellId);
      const key = (await sb.call('GET', `/trade/sells/${sellId}`)).body.data.sell.id;
      // The journal lost what the run learnt of the trade id (a record that could not be written, an older journal).
      writeFileSync(
        journalOf(home),
        readFileSync(journalOf(home), 'utf8')
          .split('\n')
          .filter((l) => !(l.includes(sellId) && l.includes('"tradeId"')))
          .join('\n'),
      );
      const ids = order === 'trade id first' ? [key, sellId, key] : [sellId, key, sellId];
      for (const id of ids) {
        const v = await verifyIn(home, id);
        expect(v.code, `${order}, ${id}: ${v.stderr}`).toBe(0);
        expect(json(v).verification.verdict).toBe('verified');
      }
      const payout = json(await verifyIn(home, sellId)).trade.signatures.payouts[0];
      expect(
        records(home)
          .filter((x) => x.type === 'evidence' && x.signature === payout)
          .map((x) => x.trade),
      ).toEqual([sellId]);
    }
    // One more followed with --watch only. The list shows each of these sells once, by its id, with the service's figures.
    const watched = await sellIn(home, '2%', '--no-wait');
    const watch = await runInProcess(
      ['trades', json(watched).authorization.id, '--watch', '--json'],
      { ...envFor(sb.url, home), TMPDIR: process.env.TMPDIR },
      { clock, fetch: clock.fetch },
    );
    expect(watch.code, watch.stderr).toBe(0);
    mine.push(json(watched).authorization.id);
    const swaps = await Promise.all(
      mine.map(async (id) => (await sb.call('GET', `/trade/sells/${id}`)).body.data.sell.swapSignature),
    );
    const list = json(
      await runInProcess(
        ['trades', '--json', '--limit', '20'],
        { ...envFor(sb.url, home), TMPDIR: process.env.TMPDIR },
        { clock, fetch: clock.fetch },
      ),
    );
    // Each is one row, the journal's and the service's merged: its id, its SOL; no row of the service's alone.
    expect(list.filter((t: any) => !t.journal && swaps.includes(t.signature))).toEqual([]);
    for (const id of mine) {
      expect(list.filter((t: any) => t.id === id)).toEqual([
        expect.objectContaining({
          side: 'sell',
          status: 'completed',
          journal: true,
          solLamports: expect.stringMatching(/^\d+$/),
        }),
      ]);
    }
  });

  it('a signed deposit held back (its sends lost): not proven while its blockhash lives at finalized, even once expired at processed; proven never landed from a new process after; without the journal, said what cannot be proven', async () => {
    const home = homeWith({ treasury: sb.treasury });
    await sb.control('/faults', [{ match: { method: 'POST', path: '/trade/buys/' }, kind: 'drop-before', count: 2 }]);
    const buy = await run(home, 'buy', buyToken(), '0.01sol', '--yes', '--json');
    expect(buy.code, buy.stderr).toBe(3);
    const id = records(home).find((r) => r.type === 'created').trade;
    const signed = records(home).find((r) => r.type === 'before-signing');
    expect(signed).toMatchObject({ trade: id, blockhashKnownBeforeSigning: true, amountLamports: '10000000' });

    const verify = (where = inProcess) => where(home, 'trades', id, '--verify', '--json');
    const fresh = await verify();
    expect(fresh.code).toBe(3);
    expect(json(fresh).verification).toMatchObject({
      verdict: 'incomplete',
      deposit: { onChain: false, proven: false },
    });
    expect(lastJsonError(fresh).code).toBe('CHAIN_NOT_VERIFIED');
    // 150 blocks and 5 more: expired at processed; at finalized (32 blocks behind) it still lives.
    await sb.advance(65);
    const processed = await verify();
    expect(processed.code).toBe(3);
    expect(json(processed).verification.deposit).toMatchObject({ proven: false });
    await sb.advance(20);
    const later = await verify(run); // a new process: only the journal tells it what was signed
    expect(later.code, later.stderr).toBe(0);
    expect(json(later).verification).toMatchObject({
      verdict: 'verified',
      deposit: { onChain: false, proven: true, lastValidBlockHeight: signed.lastValidBlockHeight },
    });
    expect(json(later).verification.deposit.blockHeight).toBeGreaterThan(signed.lastValidBlockHeight);
    const human = await inProcess(home, 'trades', id, '--verify');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(
      /^The signed deposit never landed: its blockhash expired at finalized commitment \(finalized block height \d+; the service gave \d+ as its last valid block\) and the chain does not have it, so it never can\.$/m,
    );

    const elsewhere = await inProcess(homeWith({ treasury: sb.treasury }), 'trades', id, '--verify', '--json');
    expect(stderrJson(elsewhere)[0]).toEqual({
      warning: `this tool's journal has no record of ${id}: a deposit it did not sign here cannot be proven never to land, and a payout or refund is bounded only by the time the service gives`,
    });
    expect(json(elsewhere).verification.deposit).toBeUndefined();
    // Following it later (a cancel) is recorded too.
    expect((await inProcess(home, 'cancel', id)).code).toBe(0);
    expect(records(home).at(-1)).toMatchObject({ type: 'answer', trade: id, step: 'read', status: 'cancelled' });
  });
});

describe('exact integers from the chain', () => {
  it('a buy of 9,007,199,254,740,993 lamports (2^53 + 1): exact in the request, the trade and the chain; verified, exit 0', async () => {
    await sb.control('/balance', { addSol: 9007200 });
    const home = homeWith({ treasury: sb.treasury });
    const r = await run(home, 'buy', buyToken(), '9007199.254740993sol', '--yes', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(out.intent.amountLamports).toBe('9007199254740993');
    expect(out.trade.inputAmount).toBe('9007199254740993');
    expect(out.verification.verdict).toBe('verified');
    expect(out.verification.checks[0]).toMatchObject({
      role: 'deposit',
      mark: 'verified',
      chain: expect.stringMatching(/^9,007,199\.254740993 SOL from your wallet to the treasury/),
    });
    expect(records(home).find((x) => x.type === 'before-signing').amountLamports).toBe('9007199254740993');
    const balance = await inProcess(home, 'balance', '--json');
    expect(json(balance).lamports).toBe((await sb.control('/balance')).lamports);
    expect(existsSync(journalOf(home))).toBe(true);
  });
});
