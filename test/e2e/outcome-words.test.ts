// What the tool says after signing follows what it has seen. A scripted service in front of the
// sandbox contradicts itself after authorize (authorized → expired, execution started →
// cancelled, a sell completed with a failure code, execution started → a pre-execution failure):
// the built binary names the contradiction, what was seen in order, the sell id and the command
// to follow it, exit 3, and never says "nothing was sold". A buy whose deposit was taken, then
// reported cancelled: a contradiction (exit 3); a deposit answered with an error and the intent
// cancelled with no deposit recorded: never "nothing was spent", but what is known, what is not
// (the signed deposit may land until its block height), and not to buy again before then.
import { describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { runCli } from '../helpers/cli.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';
import { allButAccountReads, startRpcFaultProxy } from '../helpers/rpc-fault-proxy.js';
import { startScriptedProxy, type Answer, type ProxiedRequest } from '../helpers/scripted-proxy.js';

let sb: TestSandbox;
const { envFor, closeAfterAll } = sandboxForFile((started) => (sb = started));

const GET_SELL = /^\/api\/v1\/trade\/sells\/[^/]+$/;
const AUTHORIZE = /^\/api\/v1\/trade\/sells\/[^/]+\/authorize$/;
const GET_BUY = /^\/api\/v1\/trade\/buys\/[^/]+$/;
const DEPOSIT = /^\/api\/v1\/trade\/buys\/[^/]+\/deposit$/;
const CANCEL = /^\/api\/v1\/trade\/buys\/[^/]+\/cancel$/;
const GET_TRADE = /^\/api\/v1\/trades\/[^/]+$/;

/** A JSON answer rewritten by `edit(data)`. */
function rewritten(answer: Answer, edit: (data: any) => void): Answer {
  const body = JSON.parse(answer.text);
  edit(body.data);
  return { status: answer.status, text: JSON.stringify(body) };
}

/** A proxy that forwards everything, except that GET reads of a sell after its authorize are rewritten by `edit`. */
async function sellService(edit: (data: any) => void): Promise<{ url: string; seen: string[] }> {
  let authorized = false;
  const seen: string[] = [];
  const proxy = await startScriptedProxy(sb.url, async (req: ProxiedRequest, forward) => {
    const path = req.path.split('?')[0]!;
    seen.push(`${req.method} ${path}`);
    const answer = await forward(req);
    if (req.method === 'POST' && AUTHORIZE.test(path)) authorized = true;
    else if (authorized && req.method === 'GET' && GET_SELL.test(path) && answer.status === 200)
      return rewritten(answer, edit);
    return answer;
  });
  closeAfterAll(() => proxy.close());
  return { url: proxy.url, seen };
}

async function holding(): Promise<string> {
  const token = sb.tokens[1]!;
  await completeBuy(sb, { mint: token.mint, amountLamports: '200000000' });
  return token.mint;
}

describe.concurrent(
  'a sell whose service contradicts itself after authorize: exit 3, the contradiction named, never "nothing was sold"',
  () => {
    it.each([
      {
        name: 'authorized, then expired',
        edit: (d: any) => {
          d.authorization.status = 'expired';
          d.sell = null;
        },
        says: /read 1 reports the authorization expired after the authorize answer reported the signature taken/,
      },
      {
        name: 'execution started, then cancelled',
        edit: (d: any) => {
          d.authorization.status = 'cancelled';
          d.sell = { ...d.sell, status: 'swap_pending' };
        },
        says: /read 1 reports the authorization cancelled after the authorize answer reported execution started/,
      },
      {
        name: 'execution started, then a pre-execution failure with execution not started',
        edit: (d: any) => {
          d.authorization.status = 'failed';
          d.authorization.executionStarted = false;
          d.authorization.failureCode = 'QUOTE_BELOW_AUTHORIZED_MINIMUM';
          d.sell = null;
        },
        says: /read 1 reports the authorization failed with execution not started after the authorize answer reported execution started/,
      },
      {
        name: 'the sell completed with a failure code',
        edit: (d: any) => {
          d.sell = { ...d.sell, status: 'completed', failureCode: 'SWAP_FAILED' };
        },
        says: /read 1 reports the sell completed and failed at once/,
      },
    ])('$name', async ({ edit, says }) => {
      const mint = await holding();
      const service = await sellService(edit);
      const [machine, human] = await Promise.all([
        runCli(['sell', mint, '10%', '--yes', '--json'], { env: envFor(service.url) }),
        runCli(['sell', mint, '10%', '--yes'], { env: envFor(service.url) }),
      ]);
      for (const r of [machine, human]) {
        expect(r.code, r.stderr).toBe(3);
        expect(r.stderr).not.toMatch(/nothing (was )?sold/);
        expect(r.stderr).toMatch(says);
        expect(r.stderr).toMatch(/the service contradicts itself about sell (sell_\w+)/);
        const id = /about sell (sell_\w+)/.exec(r.stderr)![1]!;
        // What was seen, in order, and the command that follows it.
        expect(r.stderr).toMatch(
          /seen, in order: the authorize answer: authorization authorized, executionStarted true, sell swap_pending; then read 1: /,
        );
        expect(r.stderr).toContain(`trader trades ${id} --watch`);
      }
      const error = lastJsonError(machine);
      expect(error.code).toBe('SERVICE_CONTRADICTION');
      // One authorize each, never repeated.
      expect(service.seen.filter((s) => AUTHORIZE.test(s.split(' ')[1]!))).toHaveLength(2);
    });
  },
);

describe('trades sell_… --watch follows the same rules', () => {
  it('a sell read as completed with a failure code: exit 3, the contradiction named, the command to follow it', async () => {
    const mint = await holding();
    const sold = await runCli(['sell', mint, '10%', '--yes', '--json'], { env: envFor(sb.url) });
    expect(sold.code, sold.stderr).toBe(0);
    const id = JSON.parse(sold.stdout).authorization.id as string;
    const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
      const answer = await forward(req);
      const path = req.path.split('?')[0]!;
      if (req.method === 'GET' && GET_SELL.test(path))
        return rewritten(answer, (d) => (d.sell = { ...d.sell, status: 'completed', failureCode: 'SWAP_FAILED' }));
      return answer;
    });
    closeAfterAll(() => proxy.close());
    const r = await runCli(['trades', id, '--watch', '--json'], { env: envFor(proxy.url) });
    expect(r.code, r.stderr).toBe(3);
    const error = lastJsonError(r);
    expect(error.code).toBe('SERVICE_CONTRADICTION');
    expect(error.message).toContain(
      `the service contradicts itself about sell ${id}: read 1 reports the sell completed and failed at once`,
    );
    expect(error.message).toContain(`follow it with: trader trades ${id} --watch`);
    expect(r.stderr).not.toMatch(/nothing (was )?sold/);
  });
});

describe('buys after the signed deposit was handed over', () => {
  it('the deposit accepted, then the intent reported cancelled: a contradiction, exit 3, never "nothing was spent"', async () => {
    let deposited = false;
    const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
      const path = req.path.split('?')[0]!;
      const answer = await forward(req);
      if (req.method === 'POST' && DEPOSIT.test(path)) deposited = true;
      else if (deposited && req.method === 'GET' && GET_BUY.test(path))
        return rewritten(answer, (d) => (d.intent.status = 'cancelled'));
      return answer;
    });
    closeAfterAll(() => proxy.close());
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: envFor(proxy.url) });
    expect(r.code, r.stderr).toBe(3);
    const error = lastJsonError(r);
    expect(error.code).toBe('SERVICE_CONTRADICTION');
    expect(error.message).toMatch(
      /the service contradicts itself about buy ([0-9a-f-]{36}): it accepted the signed deposit, then reports the buy cancelled \(seen, in order: the deposit answer: deposit_submitted; then read 1: cancelled\)/,
    );
    const id = /about buy ([0-9a-f-]{36})/.exec(error.message)![1]!;
    expect(error.message).toContain('do not buy again until it has settled');
    expect(error.message).toContain(`trader trades ${id} --watch`);
    expect(r.stderr).not.toMatch(/nothing (was )?spent/);
  });

  it('the deposit taken but answered with an error, the intent then reported cancelled with no deposit recorded: what is known and what is not, exit 3', async () => {
    const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
      const path = req.path.split('?')[0]!;
      const answer = await forward(req);
      // The service takes the signed deposit, but says it failed …
      if (req.method === 'POST' && DEPOSIT.test(path))
        return {
          status: 400,
          text: JSON.stringify({ error: { code: 'DEPOSIT_FAILED', message: 'broadcast failed' } }),
        };
      // … and then reports the buy cancelled, with no deposit signature.
      if (req.method === 'GET' && GET_BUY.test(path)) return rewritten(answer, (d) => (d.intent.status = 'cancelled'));
      if (req.method === 'GET' && GET_TRADE.test(path)) return rewritten(answer, (d) => (d.signatures.deposit = null));
      return answer;
    });
    closeAfterAll(() => proxy.close());
    // Without the chain (an RPC that reads the mint and nothing else) only the service's word is known; with
    // the sandbox's chain, which has the deposit, the chain says it was spent.
    const mintOnly = await startRpcFaultProxy(sb.url, allButAccountReads);
    closeAfterAll(() => mintOnly.close());
    const noChain = { ...envFor(proxy.url), TRADER_RPC_URL: mintOnly.rpcUrl };
    const [machine, human, withChain] = await Promise.all([
      runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: noChain }),
      runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes'], { env: noChain }),
      runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: envFor(proxy.url) }),
    ]);
    for (const r of [machine, human]) {
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).not.toMatch(/nothing (was )?spent/);
      expect(r.stderr).toMatch(
        /buy [0-9a-f-]{36} is cancelled and the service records no deposit signature; what is not known: the signed deposit stays valid until block height \d+ \(about 90 s\) and could still land until then, so do not buy again before it has expired/,
      );
      expect(r.stderr).toMatch(/not checked on chain: /);
      expect(r.stderr).toMatch(/trader trades [0-9a-f-]{36} --verify/);
    }
    expect(withChain.code, withChain.stderr).toBe(3);
    expect(lastJsonError(withChain).message).toMatch(
      /buy [0-9a-f-]{36} is cancelled, but the chain shows the signed deposit landed: the SOL was spent; follow it with: trader trades [0-9a-f-]{36} --verify/,
    );
    expect(lastJsonError(machine).code).toBe('DEPOSIT_FAILED');
  });

  it('a deposit refused with an error that never reached the service: cancelled by the tool, and still not "nothing was spent" until the deposit expires', async () => {
    let cancels = 0;
    const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
      const path = req.path.split('?')[0]!;
      if (req.method === 'POST' && DEPOSIT.test(path))
        return { status: 422, text: JSON.stringify({ error: { code: 'DEPOSIT_REJECTED', message: 'rejected' } }) };
      if (req.method === 'POST' && CANCEL.test(path)) cancels++;
      return forward(req);
    });
    closeAfterAll(() => proxy.close());
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: envFor(proxy.url) });
    expect(r.code, r.stderr).toBe(3);
    expect(cancels).toBe(1);
    const { message } = lastJsonError(r);
    expect(message).toMatch(
      /is cancelled and the service records no deposit signature; what is not known: the signed deposit stays valid until block height \d+ \(about 90 s\)/,
    );
    expect(message).not.toMatch(/nothing (was )?spent/);
  });
});

describe("a hostile service lies about the deposit's lastValidBlockHeight", () => {
  const CREATE = /^\/api\/v1\/trade\/buys$/;
  const height = async () =>
    (
      await (
        await fetch(sb.rpcUrl, {
          method: 'POST',
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBlockHeight' }),
        })
      ).json()
    ).result as number;
  /** A proxy that claims the deposit's blockhash lasts until `claim(height now)`, and holds the signed deposit, answering it with an error. */
  async function lying(claim: (now: number) => number) {
    let held = 0;
    const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
      const path = req.path.split('?')[0]!;
      if (req.method === 'POST' && CREATE.test(path)) {
        const claimed = claim(await height());
        return rewritten(await forward(req), (d) => (d.deposit.lastValidBlockHeight = claimed));
      }
      // The signed deposit is kept (to broadcast later), answered with an error.
      if (req.method === 'POST' && DEPOSIT.test(path)) {
        held++;
        return {
          status: 400,
          text: JSON.stringify({ error: { code: 'DEPOSIT_FAILED', message: 'blockhash expired' } }),
        };
      }
      return forward(req);
    });
    closeAfterAll(() => proxy.close());
    return { url: proxy.url, held: () => held };
  }

  it('claimed already past: the time to answer is over before the yes, so nothing is signed (exit 6), never "nothing was spent"', async () => {
    const p = await lying((now) => now - 10);
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: envFor(p.url) });
    expect(r.code, r.stderr).toBe(6);
    expect(p.held()).toBe(0);
    const { message } = lastJsonError(r);
    expect(message).toMatch(
      /^refused to sign: the deposit's blockhash expired before it could be signed; the buy intent was cancelled; nothing was signed/,
    );
    expect(message).not.toMatch(/nothing (was )?spent|you may buy again/);
  });

  it('claimed far off, the deposit answered with 400 and held: the chain still holds the blockhash valid, so never "nothing was spent"', async () => {
    const p = await lying((now) => now + 10_000);
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: envFor(p.url) });
    expect(r.code, r.stderr).toBe(3);
    expect(p.held()).toBe(1);
    const { message } = lastJsonError(r);
    expect(message).not.toMatch(/nothing (was )?spent|you may buy again/);
    expect(message).toMatch(
      /is cancelled and the service records no deposit signature; what is not known: .* do not buy again before it has expired; check with: trader trades [0-9a-f-]{36} --verify/,
    );
  });
});

describe('an RPC on another cluster proves no absence', () => {
  it('a refused deposit with an RPC that calls every blockhash invalid (it never saw it): "not proven", never "nothing was spent"', async () => {
    let blockhashAsks = 0;
    // An RPC that never saw the sandbox's blockhashes; everything else is the sandbox's chain.
    const rpc = await startScriptedProxy(new URL(sb.rpcUrl).origin, async (req, forward) => {
      const call = JSON.parse(req.body || '{}');
      if (call.method === 'isBlockhashValid') {
        blockhashAsks++;
        return {
          status: 200,
          text: JSON.stringify({ jsonrpc: '2.0', result: { context: { slot: 1 }, value: false }, id: call.id }),
        };
      }
      return forward(req);
    });
    closeAfterAll(() => rpc.close());
    const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
      const path = req.path.split('?')[0]!;
      // The signed deposit is kept, answered with an error.
      if (req.method === 'POST' && DEPOSIT.test(path))
        return {
          status: 400,
          text: JSON.stringify({ error: { code: 'DEPOSIT_FAILED', message: 'broadcast failed' } }),
        };
      return forward(req);
    });
    closeAfterAll(() => proxy.close());
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], {
      env: { ...envFor(proxy.url), TRADER_RPC_URL: `${rpc.url}/rpc` },
    });
    expect(r.code, r.stderr).toBe(3);
    // Asked before signing (the funds check) and after the refusal.
    expect(blockhashAsks).toBe(2);
    const { message } = lastJsonError(r);
    expect(message).not.toMatch(/nothing (was )?spent|you may buy again/);
    expect(message).toContain(
      "(not proven: the RPC did not know the deposit's blockhash before signing); check with: trader trades",
    );
  });
});

describe('trades --verify: a buy that names no deposit or no swap is not verified', () => {
  it.each([
    {
      name: 'completed, no deposit named',
      edit: (d: any) => (d.signatures.deposit = null),
      evidence: /deposit should be .* but the chain shows: the service reports the buy completed but names no deposit/,
    },
    {
      name: 'completed, no swap named',
      edit: (d: any) => (d.signatures.swaps = []),
      evidence:
        /swap should be a swap that succeeded, but the chain shows: the service reports the buy completed but names no swap/,
    },
  ])('$name: exit 3, CHAIN_CONTRADICTS_SERVICE', async ({ edit, evidence }) => {
    const { intent } = await completeBuy(sb);
    const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
      const answer = await forward(req);
      return req.method === 'GET' && GET_TRADE.test(req.path.split('?')[0]!) ? rewritten(answer, edit) : answer;
    });
    closeAfterAll(() => proxy.close());
    const honest = await runCli(['trades', intent.id, '--verify', '--json'], { env: envFor(sb.url) });
    expect(honest.code, honest.stderr).toBe(0);
    const r = await runCli(['trades', intent.id, '--verify', '--json'], { env: envFor(proxy.url) });
    expect(r.code, r.stderr).toBe(3);
    expect(JSON.parse(r.stdout).verification.verdict).toBe('contradicted');
    expect(lastJsonError(r)).toMatchObject({
      code: 'CHAIN_CONTRADICTS_SERVICE',
      category: 'service',
      retryable: false,
    });
    expect(lastJsonError(r).message).toMatch(evidence);
  });
});
