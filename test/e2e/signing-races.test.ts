// One signature per trade, however raced: two processes, two MCP calls, or a CLI run and an MCP
// call on one buy key or one sell, against a service that answers the replayed create with a
// deposit or an authorization differing by one field (inside every check). The creates are held
// until both have arrived, so both runs are past their start when either signs. Whichever wins,
// exactly one before-signing record and one signature reach the service; the other run either
// reports the first (exit 3) or, once the first is on disk, sends that same signature again.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ComputeBudgetProgram, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, runCli, type CliResult } from '../helpers/cli.js';
import { sandboxForFile, type Home } from '../helpers/file-sandbox.js';
import { signings } from '../helpers/journal-file.js';
import { startMcp } from '../helpers/mcp-client.js';
import { startScriptedProxy, type Answer, type ProxiedRequest } from '../helpers/scripted-proxy.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';
import { formatUnits } from '../../src/sandbox/market.js';

let sb: TestSandbox;
const { envFor, closeAfterAll } = sandboxForFile((started) => (sb = started));

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

async function rewritten(answer: Promise<Answer>, fn: (data: any) => void): Promise<Answer> {
  const a = await answer;
  const body = JSON.parse(a.text);
  if (body.data) fn(body.data);
  return { ...a, text: JSON.stringify(body) };
}
/** The deposit with its compute-unit price one micro-lamport higher: another transaction for the same buy. */
function dearer(answer: Promise<Answer>): Promise<Answer> {
  return rewritten(answer, (data) => {
    const tx = VersionedTransaction.deserialize(Buffer.from(data.deposit.transaction, 'base64'));
    const keys = tx.message.staticAccountKeys;
    const price = tx.message.compiledInstructions.find(
      (i) => keys[i.programIdIndex]!.equals(ComputeBudgetProgram.programId) && i.data[0] === 3,
    )!;
    const data2 = Buffer.from(price.data);
    data2.writeBigUInt64LE(data2.readBigUInt64LE(1) + 1n, 1);
    price.data = data2;
    data.deposit.transaction = Buffer.from(tx.serialize()).toString('base64');
  });
}
/** The authorization with its minimum (and the message stating it) one lamport lower. */
function lower(answer: Promise<Answer>): Promise<Answer> {
  return rewritten(answer, ({ authorization: a }) => {
    const less = BigInt(a.minimumOutputLamports) - 1n;
    a.message = a.message.replace(
      /^Minimum proceeds: .*$/m,
      `Minimum proceeds: ${formatUnits(less, 9)} SOL (${less} lamports)`,
    );
    a.minimumOutputLamports = less.toString();
  });
}

/** A service that holds each create until two have arrived, then answers the second through `change`. */
async function racingService(path: string, change: (a: Promise<Answer>) => Promise<Answer>) {
  const seen: ProxiedRequest[] = [];
  let creates = 0;
  let release!: () => void;
  const both = new Promise<void>((r) => (release = r));
  const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
    seen.push(req);
    if (!(req.method === 'POST' && req.path.endsWith(path))) return forward(req);
    const n = ++creates;
    if (n === 2) release();
    await both;
    return n === 2 ? change(forward(req)) : forward(req);
  });
  closeAfterAll(() => proxy.close());
  const posted = (suffix: string) =>
    seen.filter((r) => r.method === 'POST' && r.path.endsWith(suffix)).map((r) => JSON.parse(r.body));
  return { url: proxy.url, posted };
}

/**
 * Exactly one run signed: every other reported the first signature (exit 3, SERVICE_CONTRADICTION).
 * The one that signed ended well (0), or, when it was the run given the rewritten answer, the
 * service refused that signature as not over its own message (exit 3, `refusedSigned`).
 */
function expectOneSigner(
  codes: number[],
  errors: Array<{ code: string; message: string } | null>,
  words: string,
  refusedSigned?: string,
): void {
  const reported = errors.filter((e) => e?.code === 'SERVICE_CONTRADICTION');
  reported.forEach((e) => expect(e!.message).toContain(words));
  const signers = codes
    .map((code, i) => ({ code, error: errors[i] }))
    .filter((r) => r.error?.code !== 'SERVICE_CONTRADICTION');
  expect(signers.length).toBeGreaterThanOrEqual(1);
  for (const r of signers) {
    if (r.code === 0) continue;
    expect(r.code).toBe(3);
    expect(r.error?.code).toBe(refusedSigned);
  }
}

const buyArgs = (key: string) => ['buy', sb.tokens[1]!.mint, '0.01sol', '--yes', '--json', '--idempotency-key', key];
const mcpBuy = (key: string) => ({ token: sb.tokens[1]!.mint, amount: '0.01sol', idempotencyKey: key });

describe('one buy, one deposit signed', () => {
  it('two processes on one key', async () => {
    const h = home();
    const key = randomUUID();
    const svc = await racingService('/trade/buys', dearer);
    const runs = await Promise.all([at(svc.url, h, ...buyArgs(key)), at(svc.url, h, ...buyArgs(key))]);
    expectOneSigner(
      runs.map((r) => r.code),
      runs.map((r) => (r.code === 3 ? lastJsonError(r) : null)),
      'one buy is signed once',
    );
    expect(signings(h)).toHaveLength(1);
    expect(new Set(svc.posted('/deposit').map((b) => b.signedTransaction))).toEqual(
      new Set([signings(h)[0].transaction]),
    );
  });

  it('two MCP calls, and a CLI run beside an MCP call', async () => {
    for (const mix of ['mcp+mcp', 'cli+mcp']) {
      const h = home();
      const key = randomUUID();
      const svc = await racingService('/trade/buys', dearer);
      const mcp = await startMcp({ env: envFor(svc.url, h), args: ['--allow-trading', '--no-confirm'] });
      try {
        const viaMcp = async () => {
          const r = await mcp.call('buy', mcpBuy(key));
          return {
            code: r.isError ? (r.structuredContent.error.code === 'SERVICE_CONTRADICTION' ? 3 : 1) : 0,
            error: r.isError ? r.structuredContent.error : null,
          };
        };
        const viaCli = async () => {
          const r = await at(svc.url, h, ...buyArgs(key));
          return { code: r.code, error: r.code === 3 ? lastJsonError(r) : null };
        };
        const runs = await Promise.all([mix === 'mcp+mcp' ? viaMcp() : viaCli(), viaMcp()]);
        expectOneSigner(
          runs.map((r) => r.code),
          runs.map((r) => r.error),
          'one buy is signed once',
        );
        expect(signings(h), mix).toHaveLength(1);
        expect(new Set(svc.posted('/deposit').map((b) => b.signedTransaction)), mix).toEqual(
          new Set([signings(h)[0].transaction]),
        );
      } finally {
        await mcp.close();
      }
    }
  });
});

describe('one sell authorization, one message signed', () => {
  it('two processes on one key, the replayed authorization one lamport lower', async () => {
    const h = home();
    const mint = sb.tokens[0]!.mint;
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const key = randomUUID();
    const svc = await racingService('/trade/sells', lower);
    const args = ['sell', mint, '10%', '--yes', '--json', '--idempotency-key', key];
    const runs = await Promise.all([at(svc.url, h, ...args), at(svc.url, h, ...args)]);
    expectOneSigner(
      runs.map((r) => r.code),
      runs.map((r) => (r.code === 3 ? lastJsonError(r) : null)),
      'one authorization is signed once',
      'INVALID_SIGNATURE',
    );
    expect(signings(h)).toHaveLength(1);
    expect(new Set(svc.posted('/authorize').map((b) => b.signature))).toEqual(new Set([signings(h)[0].signature]));
  });
});
