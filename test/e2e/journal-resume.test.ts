// What the journal knows holds against the service when a trade is picked up again: a key the
// journal maps to a trade, answered with another trade, signs nothing (buy and sell, CLI and
// MCP); a resumed buy whose signed deposit may still land sends that same transaction again and
// never signs a second; a sell authorization is signed once; --verify checks every deposit
// signed for a buy; cancel, trades <id> and --watch never take the service's "cancelled" for a
// buy whose deposit was signed; a sell the journal saw paid is not believed "failed before
// execution". Each through a service that misbehaves exactly so, in front of the sandbox.
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, json, runCli, type CliResult } from '../helpers/cli.js';
import { sandboxForFile, type Home } from '../helpers/file-sandbox.js';
import { asEarlierVersion, journalOf, records, signings } from '../helpers/journal-file.js';
import { startMcp } from '../helpers/mcp-client.js';
import { startScriptedProxy, type Answer, type ProxiedRequest } from '../helpers/scripted-proxy.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { NOT_BEFORE_EXPIRED, SOL_SPENT } from '../../src/domain/outcome-words.js';
import { formatUnits } from '../../src/sandbox/market.js';

let sb: TestSandbox;
const { envFor, closeAfterAll } = sandboxForFile((started) => (sb = started));

/** A home whose profile holds the limits trading through MCP needs, and the sandbox's treasury. */
function home(): Home {
  const h = freshHome();
  mkdirSync(dirname(h.TRADER_CONFIG), { recursive: true, mode: 0o700 });
  const profile = {
    treasury: sb.treasury,
    maxBuyLamports: '200000000',
    maxSlippageBps: 500,
    maxDailyBuyLamports: '10000000000',
    maxDailySellLamports: '10000000000',
  };
  writeFileSync(h.TRADER_CONFIG, JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
  return h;
}
const at = (url: string, h: Home, ...args: string[]): Promise<CliResult> => runCli(args, { env: envFor(url, h) });
/** The same in this process: for the reads and cancels that need no process of their own. */
const inProcess = (url: string, h: Home, ...args: string[]): Promise<CliResult> => runInProcess(args, envFor(url, h));
const buyMint = () => sb.tokens[1]!.mint;

/** A scripted service in front of the sandbox; `seen` keeps every request it was sent. */
async function service(
  script: (req: ProxiedRequest, forward: (req: ProxiedRequest) => Promise<Answer>) => Promise<Answer> | null,
) {
  const seen: ProxiedRequest[] = [];
  const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
    seen.push(req);
    return (await script(req, forward)) ?? forward(req);
  });
  closeAfterAll(() => proxy.close());
  const posts = (suffix: string) => seen.filter((r) => r.method === 'POST' && r.path.endsWith(suffix));
  return { url: proxy.url, seen, posts };
}
/** The create request under a key of its own: what a service that ignores the key makes of it. */
const freshKey = (req: ProxiedRequest): ProxiedRequest => ({
  ...req,
  body: JSON.stringify({ ...JSON.parse(req.body), idempotencyKey: randomUUID() }),
});
/** A JSON answer rewritten by `fn`. */
async function rewritten(answer: Promise<Answer>, fn: (body: any) => void): Promise<Answer> {
  const a = await answer;
  const body = JSON.parse(a.text);
  if (body.data) fn(body.data);
  return { ...a, text: JSON.stringify(body) };
}
/** A buy create's answer with its deposit moved to the chain's latest blockhash (a new transaction for the same intent). */
async function onLatestBlockhash(answer: Promise<Answer>): Promise<Answer> {
  const { value } = await rpc('getLatestBlockhash', [{ commitment: 'finalized' }]);
  return rewritten(answer, (data) => {
    const tx = VersionedTransaction.deserialize(Buffer.from(data.deposit.transaction, 'base64'));
    tx.message.recentBlockhash = value.blockhash;
    data.deposit.transaction = Buffer.from(tx.serialize()).toString('base64');
    data.deposit.lastValidBlockHeight = value.lastValidBlockHeight;
  });
}
async function rpc(method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(sb.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: any }).result;
}

describe('an idempotency key the journal maps to a trade, answered with another trade', () => {
  it('buy: exit 3 SERVICE_CONTRADICTION naming both, nothing signed, the new intent cancelled; the same in a dry run and through MCP', async () => {
    const h = home();
    const key = randomUUID();
    // A service that, once told to, ignores the key: every create is a new trade.
    const hostile = await service(async (req, forward) =>
      lying && req.method === 'POST' && req.path.endsWith('/trade/buys') ? forward(freshKey(req)) : null,
    );
    let lying = false;
    const first = await at(hostile.url, h, 'buy', buyMint(), '0.01sol', '--yes', '--json', '--idempotency-key', key);
    expect(first.code, first.stderr).toBe(0);
    const mine = json(first).intent.id;
    lying = true;
    hostile.seen.length = 0;
    const before = records(h).length;
    const again = await at(hostile.url, h, 'buy', buyMint(), '0.01sol', '--yes', '--json', '--idempotency-key', key);
    expect(again.code, again.stderr).toBe(3);
    const error = lastJsonError(again);
    const other = error.message.match(/ with buy (\S+), but /)![1]!;
    expect(other).not.toBe(mine);
    expect(error).toMatchObject({ code: 'SERVICE_CONTRADICTION', category: 'service' });
    expect(error.message).toMatch(
      new RegExp(
        `^the service answered idempotency key ${key} with buy ${other}, but this tool's journal records that key as buy ${mine} \\(made .+, its deposit signed\\); a repeated key returns its original trade, so ${other} is not that buy: nothing was signed; the buy intent was cancelled \\(${other}\\); follow the key's buy with: trader trades ${mine}$`,
      ),
    );
    expect((await sb.call('GET', `/trade/buys/${other}`)).body.data.intent.status).toBe('cancelled');
    const dry = await at(hostile.url, h, 'buy', buyMint(), '0.01sol', '--dry-run', '--json', '--idempotency-key', key);
    expect(dry.code, dry.stderr).toBe(3);
    expect(lastJsonError(dry).code).toBe('SERVICE_CONTRADICTION');

    const mcp = await startMcp({ env: envFor(hostile.url, h), args: ['--allow-trading', '--no-confirm'] });
    try {
      const viaMcp = await mcp.call('buy', { token: buyMint(), amount: '0.01sol', idempotencyKey: key });
      expect(viaMcp.isError).toBe(true);
      expect(viaMcp.structuredContent.error).toMatchObject({
        code: 'SERVICE_CONTRADICTION',
        message: expect.stringContaining(`records that key as buy ${mine}`),
      });
    } finally {
      await mcp.close();
    }
    expect(hostile.posts('/deposit')).toEqual([]);
    expect(records(h).slice(before)).toEqual([]);
  });

  it('sell: exit 3, no authorize sent, the new authorization left to expire; the honest answer to the same key resumes', async () => {
    const h = home();
    const mint = sb.tokens[0]!.mint;
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const key = randomUUID();
    const hostile = await service(async (req, forward) =>
      lying && req.method === 'POST' && req.path.endsWith('/trade/sells') ? forward(freshKey(req)) : null,
    );
    let lying = false;
    const first = await at(hostile.url, h, 'sell', mint, '1%', '--yes', '--json', '--idempotency-key', key);
    expect(first.code, first.stderr).toBe(0);
    const amount = json(first).authorization.amount;
    const mine = json(first).authorization.id;
    lying = true;
    const again = await at(hostile.url, h, 'sell', mint, amount, '--yes', '--json', '--idempotency-key', key);
    expect(again.code, again.stderr).toBe(3);
    expect(lastJsonError(again).message).toMatch(
      new RegExp(
        `with sell (sell_\\w+), but this tool's journal records that key as sell ${mine} \\(made .+, its message signed\\); .*nothing was signed; the authorization expires unused \\(\\1\\)`,
      ),
    );
    expect(hostile.posts('/authorize')).toHaveLength(1);
    lying = false;
    const honest = await at(hostile.url, h, 'sell', mint, amount, '--yes', '--json', '--idempotency-key', key);
    expect(honest.code, honest.stderr).toBe(0);
    expect(json(honest).authorization.id).toBe(mine);
  });
});

describe('a resumed trade signs nothing new while what it signed may still be used', () => {
  it('a buy whose deposit sends were lost, resumed while the service offers a new deposit transaction: the journaled one is sent again, nothing new signed', async () => {
    const h = home();
    const key = randomUUID();
    // Once told to, the service offers the same intent its deposit on a fresh blockhash: a second valid transfer if signed.
    let rehash = false;
    const svc = await service(async (req, forward) =>
      rehash && req.method === 'POST' && req.path.endsWith('/trade/buys') ? onLatestBlockhash(forward(req)) : null,
    );
    await sb.control('/faults', [{ match: { method: 'POST', path: '/trade/buys/' }, kind: 'drop-before', count: 2 }]);
    const first = await at(svc.url, h, 'buy', buyMint(), '0.01sol', '--yes', '--json', '--idempotency-key', key);
    expect(first.code, first.stderr).toBe(3);
    const [signed] = signings(h);
    expect(signed.transaction).toEqual(expect.any(String));
    rehash = true;
    svc.seen.length = 0;
    const again = await at(svc.url, h, 'buy', buyMint(), '0.01sol', '--yes', '--idempotency-key', key);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`: sending again the deposit you signed for it at `);
    expect(again.stderr).toContain(`(${signed.signature}); nothing new is signed.`);
    expect(svc.posts('/deposit').map((r) => JSON.parse(r.body).signedTransaction)).toEqual([signed.transaction]);
    expect(signings(h)).toHaveLength(1);
  });

  it('a sell whose authorize answers were lost, resumed with another message for the same authorization: refused, no authorize; the same message is signed again', async () => {
    const h = home();
    const mint = sb.tokens[0]!.mint;
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const key = randomUUID();
    // Once told to, the service gives the same authorization a minimum (and the message stating it) one lamport lower.
    let lower = false;
    const svc = await service(async (req, forward) => {
      if (!(lower && req.method === 'POST' && req.path.endsWith('/trade/sells'))) return null;
      return rewritten(forward(req), ({ authorization: a }) => {
        const less = BigInt(a.minimumOutputLamports) - 1n;
        a.message = a.message.replace(
          /^Minimum proceeds: .*$/m,
          `Minimum proceeds: ${formatUnits(less, 9)} SOL (${less} lamports)`,
        );
        a.minimumOutputLamports = less.toString();
      });
    });
    await sb.control('/faults', [{ match: { method: 'POST', path: '/trade/sells/' }, kind: 'drop-before', count: 2 }]);
    const first = await at(svc.url, h, 'sell', mint, '1%', '--yes', '--json', '--idempotency-key', key);
    expect(first.code, first.stderr).toBe(3);
    const created = records(h).find((r) => r.type === 'created');
    const amount = created.request.amount;
    lower = true;
    svc.seen.length = 0;
    const again = await at(svc.url, h, 'sell', mint, amount, '--yes', '--json', '--idempotency-key', key);
    expect(again.code, again.stderr).toBe(3);
    expect(lastJsonError(again)).toMatchObject({
      code: 'SERVICE_CONTRADICTION',
      message: expect.stringMatching(
        new RegExp(
          `^the service gives sell ${created.trade} another message than the one signed for it at .+; one authorization is signed once, so this one is not: nothing was signed; the signature given then may still be used, so the sell may still go on; check it with: trader trades ${created.trade}$`,
        ),
      ),
    });
    expect(svc.posts('/authorize')).toEqual([]);
    lower = false;
    const same = await at(svc.url, h, 'sell', mint, amount, '--yes', '--json', '--idempotency-key', key);
    expect(same.code, same.stderr).toBe(0);
    expect(json(same).authorization.id).toBe(created.trade);
    expect(signings(h)).toHaveLength(1);
  });
});

describe('a sell the journal saw paid is not believed failed before execution', () => {
  it('trades <sell_id>, --watch and a resume by key: SERVICE_CONTRADICTION (exit 3) naming the journaled payout; the honest service: exit 0', async () => {
    const h = home();
    const mint = sb.tokens[0]!.mint;
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const key = randomUUID();
    let failed = false;
    const svc = await service(async (req, forward) =>
      failed && req.method === 'GET' && /\/trade\/sells\/sell_\w+$/.test(req.path)
        ? rewritten(forward(req), (d) => {
            Object.assign(d.authorization, {
              status: 'failed',
              failureCode: 'QUOTE_BELOW_AUTHORIZED_MINIMUM',
              executionStarted: false,
            });
            d.sell = null;
          })
        : null,
    );
    const sold = await at(svc.url, h, 'sell', mint, '1%', '--yes', '--json', '--idempotency-key', key);
    expect(sold.code, sold.stderr).toBe(0);
    const id = json(sold).authorization.id;
    const payout = records(h).find((r) => r.type === 'evidence' && r.role === 'payout' && r.trade === id).signature;
    expect((await inProcess(svc.url, h, 'trades', id)).code).toBe(0);
    failed = true;
    for (const args of [
      ['trades', id, '--json'],
      ['trades', id, '--watch', '--json'],
      ['sell', mint, json(sold).authorization.amount, '--yes', '--json', '--idempotency-key', key],
    ]) {
      const r = await (args[0] === 'trades' ? inProcess : at)(svc.url, h, ...args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(3);
      expect(lastJsonError(r)).toMatchObject({
        code: 'SERVICE_CONTRADICTION',
        message: expect.stringContaining(`this tool's journal (payout ${payout} for this sell, verified on chain)`),
      });
      expect(lastJsonError(r).message).not.toContain('nothing was sold');
    }
  });
});

describe("a buy this tool signed a deposit for is not 'cancelled' on the service's word", () => {
  it('a deposit that landed, the service saying cancelled (cancel answered 200, reads rewritten): the SOL was spent, exit 3 in cancel, trades <id> and MCP cancel', async () => {
    const h = home();
    let id = '';
    const liar = await service(async (req, forward) => {
      if (!id) return null;
      if (req.path.endsWith(`/trade/buys/${id}/cancel`)) {
        const read = JSON.parse(
          (await forward({ ...req, method: 'GET', path: req.path.replace(/\/cancel$/, ''), body: '' })).text,
        );
        read.data.intent.status = 'cancelled';
        return { status: 200, text: JSON.stringify(read) };
      }
      if (req.method === 'GET' && req.path.endsWith(`/trade/buys/${id}`))
        return rewritten(forward(req), (d) => (d.intent.status = 'cancelled'));
      if (req.method === 'GET' && req.path.endsWith(`/trades/${id}`)) {
        return rewritten(forward(req), (d) =>
          Object.assign(d, {
            stage: 'cancelled',
            status: 'cancelled',
            terminal: true,
            signatures: { deposit: null, swaps: [], payouts: [], refund: null },
            receivedOutputAmount: null,
          }),
        );
      }
      return null;
    });
    const buy = await at(liar.url, h, 'buy', buyMint(), '0.01sol', '--yes', '--json', '--no-wait');
    expect(buy.code, buy.stderr).toBe(0);
    id = json(buy).intent.id;
    const [signed] = signings(h);
    const cancel = await inProcess(liar.url, h, 'cancel', id, '--json');
    expect(cancel.code, cancel.stderr).toBe(3);
    expect(lastJsonError(cancel)).toMatchObject({
      code: 'CHAIN_CONTRADICTS_SERVICE',
      message: `the service reports buy ${id} cancelled, but this tool signed a deposit for it, and the chain has it (${signed.signature}): ${SOL_SPENT}; look again with: trader trades ${id} --verify`,
    });
    const shown = await inProcess(liar.url, h, 'trades', id);
    expect(shown.code, shown.stderr).toBe(3);
    expect(shown.stderr).toContain(`: ${SOL_SPENT}`);
    const mcp = await startMcp({ env: envFor(liar.url, h), args: ['--allow-trading', '--no-confirm'] });
    try {
      const viaMcp = await mcp.call('cancel', { buyId: id });
      expect(viaMcp.isError).toBe(true);
      expect(viaMcp.structuredContent).toMatchObject({ exitCode: 3, error: { code: 'CHAIN_CONTRADICTS_SERVICE' } });
    } finally {
      await mcp.close();
    }
  });

  // The tests below move the sandbox's clock past a blockhash's life: only buys and reads follow them.
  it('a deposit held back: cancel, trades <id>, --watch and a resume say it may still land (exit 3, never "nothing checked"); once the chain proves it dead, cancelled is exit 0', async () => {
    const h = home();
    const key = randomUUID();
    await sb.control('/faults', [{ match: { method: 'POST', path: '/trade/buys/' }, kind: 'drop-before', count: 2 }]);
    expect((await at(sb.url, h, 'buy', buyMint(), '0.01sol', '--yes', '--json', '--idempotency-key', key)).code).toBe(
      3,
    );
    const [signed] = signings(h);
    const id = signed.trade;
    const cancel = await inProcess(sb.url, h, 'cancel', id, '--json');
    expect(cancel.code, cancel.stderr).toBe(3);
    expect(json(cancel).intent.status).toBe('cancelled');
    expect(lastJsonError(cancel)).toMatchObject({ code: 'CHAIN_NOT_VERIFIED' });
    expect(lastJsonError(cancel).message).toMatch(
      new RegExp(
        `^the service reports buy ${id} cancelled, but this tool signed a deposit for it, which the chain does not prove can never land \\(not on chain yet; its blockhash is still valid.*\\); ${NOT_BEFORE_EXPIRED}; check it with: trader trades ${id} --verify$`,
      ),
    );
    const shown = await inProcess(sb.url, h, 'trades', id);
    expect(shown.code, shown.stderr).toBe(3);
    expect(shown.stdout).toContain(`deposit ${signed.signature.slice(0, 8)}…: may still land`);
    const watch = await inProcess(sb.url, h, 'trades', id, '--watch');
    expect(watch.code, watch.stderr).toBe(3);
    expect(watch.stdout).not.toContain('nothing checked');
    expect(watch.stdout).toContain(`deposit ${signed.signature.slice(0, 8)}…: may still land`);
    const resume = await at(sb.url, h, 'buy', buyMint(), '0.01sol', '--yes', '--idempotency-key', key);
    expect(resume.code, resume.stderr).toBe(3);
    expect(resume.stdout).not.toContain('nothing checked');
    expect(resume.stderr).toContain(NOT_BEFORE_EXPIRED);
    await sb.advance(85);
    const later = await inProcess(sb.url, h, 'cancel', id);
    expect(later.code, later.stderr).toBe(0);
    expect(later.stdout).toContain('it can never land');
    expect((await inProcess(sb.url, h, 'trades', id)).code).toBe(0);
  });

  it('a journal that did not keep the signed deposit: a resume is refused (exit 3) while it may land, nothing sent; once the chain proves it dead, a fresh one is signed', async () => {
    const h = home();
    const key = randomUUID();
    // The service gives each create of the intent its deposit on the chain's latest blockhash.
    const svc = await service(async (req, forward) =>
      req.method === 'POST' && req.path.endsWith('/trade/buys') ? onLatestBlockhash(forward(req)) : null,
    );
    await sb.control('/faults', [{ match: { method: 'POST', path: '/trade/buys/' }, kind: 'drop-before', count: 2 }]);
    expect((await at(svc.url, h, 'buy', buyMint(), '0.01sol', '--yes', '--json', '--idempotency-key', key)).code).toBe(
      3,
    );
    // As an earlier version wrote it: the signature, not the transaction.
    asEarlierVersion(h);
    const [signed] = signings(h);
    expect(signed.transaction).toBeUndefined();
    svc.seen.length = 0;
    const refused = await at(svc.url, h, 'buy', buyMint(), '0.01sol', '--yes', '--json', '--idempotency-key', key);
    expect(refused.code, refused.stderr).toBe(3);
    expect(lastJsonError(refused)).toMatchObject({ code: 'DEPOSIT_MAY_LAND', category: 'service' });
    expect(lastJsonError(refused).message).toMatch(
      new RegExp(
        `\\(${signed.signature}\\) may still land until block height ${signed.lastValidBlockHeight}, and this journal did not keep it to send again; a second deposit is never signed beside it; nothing was signed; ${NOT_BEFORE_EXPIRED}`,
      ),
    );
    expect(svc.posts('/deposit')).toEqual([]);
    expect(signings(h)).toHaveLength(1);
    // 150 blocks and the finalized lag later the first can never land: another deposit may be signed.
    await sb.advance(85);
    const fresh = await at(svc.url, h, 'buy', buyMint(), '0.01sol', '--yes', '--json', '--idempotency-key', key);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(signings(h)).toHaveLength(2);
    expect(svc.posts('/deposit')).toHaveLength(1);
  });
});

describe('every deposit signed for a buy is the chain’s to check', () => {
  it('--verify of a buy the service reports expired: one of its two signed deposits landed (the SOL was spent), though the other can never land', async () => {
    const h = home();
    let id = '';
    const svc = await service(async (req, forward) =>
      id && req.method === 'GET' && req.path.endsWith(`/trades/${id}`)
        ? rewritten(forward(req), (d) =>
            Object.assign(d, {
              stage: 'expired',
              status: 'expired',
              terminal: true,
              signatures: { deposit: null, swaps: [], payouts: [], refund: null },
              receivedOutputAmount: null,
              completedAt: null,
            }),
          )
        : null,
    );
    const { value } = await rpc('getLatestBlockhash', [{ commitment: 'finalized' }]);
    const buy = await at(svc.url, h, 'buy', buyMint(), '0.01sol', '--yes', '--json');
    expect(buy.code, buy.stderr).toBe(0);
    const [landed] = signings(h);
    // A second deposit for the same buy in the journal (as an earlier version signed on a resume), never sent.
    const second = bs58.encode(Buffer.alloc(64, 7));
    appendFileSync(
      journalOf(h),
      JSON.stringify({
        ...landed,
        signature: second,
        blockhash: value.blockhash,
        lastValidBlockHeight: value.lastValidBlockHeight,
        transaction: undefined,
      }) + '\n',
    );
    await sb.advance(85);
    id = json(buy).intent.id;
    const verify = await inProcess(svc.url, h, 'trades', id, '--verify', '--json');
    expect(verify.code, verify.stderr).toBe(3);
    expect(lastJsonError(verify).code).toBe('CHAIN_CONTRADICTS_SERVICE');
    const v = json(verify).verification;
    expect(v).toMatchObject({ verdict: 'contradicted', deposit: { onChain: true } });
    expect(v.checks.filter((c: any) => c.role === 'deposit').map((c: any) => [c.signature, c.mark, c.onChain])).toEqual(
      [
        [landed.signature, 'contradicts', true],
        [second, 'verified', false],
      ],
    );
  });
});
