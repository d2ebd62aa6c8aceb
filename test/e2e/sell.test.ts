// `trader sell` end to end: the built binary against the sandbox. Each test sells its own token
// (added through the control surface and bought through the API), so tests never share a
// holding and price moves stay local; runs go through a recording proxy when what the server
// saw matters.
import { describe, expect, it } from 'vitest';
import { lastJsonError, stderrJson } from '../helpers/cli-assert.js';
import { json, runCli, type CliResult } from '../helpers/cli.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { completeBuy, newKey, type TestSandbox } from '../helpers/sandbox.js';
import { startScriptedProxy } from '../helpers/scripted-proxy.js';
import { tokenFactsFingerprint } from '../../src/domain/token-binding.js';

let sb: TestSandbox;
const { envFor, tamperProxy, withDelays, closeAfterAll } = sandboxForFile((started) => (sb = started));
let tokenCount = 0;

interface Held {
  mint: string;
  symbol: string;
  name: string;
  decimals: number;
  amount: bigint;
  positionId: string;
}

/** A new token of the sandbox, bought through the API: a holding no other test touches. */
async function holding(decimals = 6): Promise<Held> {
  const [symbol, name] = [`S${process.pid % 1000}T${++tokenCount}`, `Test Coin ${tokenCount}`];
  const token = await sb.control('/tokens', { symbol, name, decimals, usdPrice: 0.001 });
  const { positionId } = await completeBuy(sb, { mint: token.mint, amountLamports: '200000000' });
  return { mint: token.mint, symbol, name, decimals, amount: await heldAmount(token.mint), positionId };
}

async function heldAmount(mint: string): Promise<bigint> {
  const r = await sb.call('GET', '/holdings');
  const h = r.body.data.find((x: any) => x.mint === mint);
  return h ? BigInt(h.amount) : 0n;
}

/** A recording proxy for one run: the sells it created and what it sent. */
async function observed() {
  const proxy = await tamperProxy();
  const created: any[] = [];
  proxy.rewrite('POST', /^\/api\/v1\/trade\/sells$/, (body) => {
    created.push(body.data.authorization);
    return body;
  });
  const sent = (method: string, suffix: string) =>
    proxy.seen.filter((r) => r.method === method && r.path.endsWith(suffix));
  return {
    proxy,
    created,
    env: envFor(proxy.url),
    creates: () => sent('POST', '/trade/sells'),
    authorizes: () => sent('POST', '/authorize'),
  };
}

/** The sandbox's view of an authorization (and its sell). */
async function sellOf(id: string) {
  const r = await sb.call('GET', `/trade/sells/${id}`);
  expect(r.status).toBe(200);
  return r.body.data;
}

async function authorizesInLog(id: string) {
  return (await sb.requests()).filter((r) => r.method === 'POST' && r.path === `/api/v1/trade/sells/${id}/authorize`);
}

describe('sells that complete', () => {
  it('<mint> 50% --yes --json: exit 0, {authorization, sell, trade, idempotencyKey} final; half the holding sold', async () => {
    const t = await holding();
    const o = await observed();
    const r = await runCli(['sell', t.mint, '50%', '--yes', '--json'], { env: o.env });
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(Object.keys(out).sort()).toEqual(['authorization', 'idempotencyKey', 'sell', 'trade', 'verification']);
    const half = t.amount / 2n;
    expect(out.authorization).toMatchObject({ status: 'authorized', mint: t.mint, amount: half.toString() });
    expect(out.sell.status).toBe('completed');
    expect(out.trade).toMatchObject({ side: 'sell', terminal: true, stage: 'completed' });
    expect(BigInt(out.trade.receivedOutputAmount)).toBeGreaterThanOrEqual(
      BigInt(out.authorization.minimumOutputLamports),
    );
    expect(stderrJson(r)).toEqual([]);
    expect(o.creates().map((c: any) => c.body)).toEqual([
      { mint: t.mint, amount: half.toString(), idempotencyKey: out.idempotencyKey },
    ]);
    expect(o.authorizes()).toHaveLength(1);
    expect(await heldAmount(t.mint)).toBe(t.amount - half);
  });

  it('by symbol, human mode, raw amount: a symbol only the holdings tie to its mint is refused unattended (nothing created) until a person binds it; then it prints the key, the message it signed, SOL received and the payout signature', async () => {
    const t = await holding();
    const o = await observed();
    const unbound = await runCli(['sell', t.symbol.toLowerCase(), '1234500', '--yes'], { env: o.env });
    expect(unbound.code, unbound.stderr).toBe(6);
    expect(unbound.stderr).toContain(
      `"${t.symbol.toLowerCase()}" is only the service's name for token ${t.mint} (${t.symbol}, Test Coin`,
    );
    const kept = tokenFactsFingerprint(t.mint, { symbol: t.symbol, name: t.name, decimals: t.decimals });
    expect(unbound.stderr).toContain(
      `bind it with the facts shown here (symbol "${t.symbol}", name "${t.name}", ${t.decimals} decimals; fingerprint ${kept}):\ntrader config trust accept-token ${t.mint} ${kept}`,
    );
    expect(o.creates()).toEqual([]);
    const accept = await runCli(['config', 'trust', 'accept-token', t.mint, kept], { env: o.env });
    expect(accept.code, accept.stderr).toBe(0);
    const r = await runCli(['sell', t.symbol.toLowerCase(), '1234500', '--yes'], { env: o.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^trader sell ${t.mint} 1234500 --idempotency-key \\S+$`, 'm'));
    expect(o.creates()[0]!.body).toMatchObject({ mint: t.mint, amount: '1234500' });
    const id = o.created[0].id as string;
    const view = await sellOf(id);
    expect(view.sell.status).toBe('completed');
    expect(r.stderr).toContain(view.authorization.message.split('\n')[0]);
    expect(r.stdout).toMatch(new RegExp(`Sold\\s+1\\.2345 ${t.symbol}`));
    expect(r.stdout).toMatch(/SOL received\s+0\.\d+ SOL/);
    expect(r.stdout).toContain(view.sell.payoutSignature);
    expect(await heldAmount(t.mint)).toBe(t.amount - 1234500n);
  });

  it('all: sells the whole holding', async () => {
    const t = await holding();
    const o = await observed();
    const r = await runCli(['sell', t.mint, 'all', '--yes', '--json'], { env: o.env });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).authorization.amount).toBe(t.amount.toString());
    expect(json(r).sell.status).toBe('completed');
    expect(await heldAmount(t.mint)).toBe(0n);
    const position = (await sb.call('GET', `/positions/${t.positionId}`)).body.data;
    expect(position.status).toBe('closed');
  });
});

describe('sells refused before anything is created', () => {
  it('more than held, or no holding at all → exit 2 and no POST /trade/sells', async () => {
    const t = await holding();
    const never = await sb.control('/tokens', { symbol: `NONE${process.pid % 1000}`, decimals: 6 });
    const a = await observed();
    const b = await observed();
    const c = await observed();
    const [tooMuch, none, noneBySymbol] = await Promise.all([
      runCli(['sell', t.mint, (t.amount + 1n).toString(), '--yes', '--json'], { env: a.env }),
      runCli(['sell', never.mint, '100', '--yes', '--json'], { env: b.env }),
      runCli(['sell', never.symbol, '100', '--yes'], { env: c.env }),
    ]);
    expect(tooMuch.code, tooMuch.stderr).toBe(2);
    expect(lastJsonError(tooMuch).message).toMatch(/only [0-9,.]+ \S+ held/);
    expect(none.code, none.stderr).toBe(2);
    expect(lastJsonError(none).code).toBe('NO_HOLDING');
    expect(noneBySymbol.code, noneBySymbol.stderr).toBe(2);
    expect(noneBySymbol.stderr).toContain(never.symbol);
    for (const o of [a, b, c]) expect(o.creates()).toEqual([]);
    expect(await heldAmount(t.mint)).toBe(t.amount);
  });
});

describe('sells that end without success', () => {
  it('PRICE_MOVED after authorize → exit 4, the service\'s word that the swap did not run (never "nothing was sold" once the signature was taken), holding unchanged', async () => {
    const t = await holding();
    const o = await observed();
    const r = await withDelays({ swapSeconds: 1_000 }, () =>
      runCli(['sell', t.mint, '50%', '--yes'], {
        env: o.env,
        // Authorized and waiting for the swap: the price halves, then the swap's time comes.
        whenStderr: {
          includes: 'executing',
          then: () => void sb.control('/price', { mint: t.mint, multiplier: 0.5 }).then(() => sb.advance(1_001)),
        },
      }),
    );
    // The sandbox's clock goes back to real time: a service clock minutes ahead makes every
    // later authorization look created in the future, which the client refuses.
    await sb.advance(-1_001);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('PRICE_MOVED');
    expect(r.stderr).not.toContain('nothing was sold');
    expect(r.stderr).toMatch(
      /the service says the swap did not run, but it had taken the signature first: check the holding \(trader holdings\) and trader trades sell_\w+ before selling again/,
    );
    expect(r.stdout).toMatch(/Failure\s+PRICE_MOVED/);
    // A failed sell's summary never says Sold: it offered the amount.
    expect(r.stdout).toMatch(/^Status\s+failed$/m);
    expect(r.stdout).toMatch(/^Offered\s+[\d,.]+ \w+$/m);
    expect(r.stdout).not.toMatch(/^Sold/m);
    expect(o.authorizes()).toHaveLength(1);
    expect((await sellOf(o.created[0].id)).sell.status).toBe('failed');
    expect(await heldAmount(t.mint)).toBe(t.amount);
    const position = (await sb.call('GET', `/positions/${t.positionId}`)).body.data;
    expect(position.status).toBe('open');
  });

  it("QUOTE_BELOW_AUTHORIZED_MINIMUM (price fell between quote and authorize) → exit 4, the service's word that nothing was sold, not locked", async () => {
    const t = await holding();
    const key = newKey('qbam');
    // The quote is made at the old price; the price halves before the CLI signs it.
    const created = await sb.call('POST', '/trade/sells', {
      body: { mint: t.mint, amount: (t.amount / 2n).toString(), idempotencyKey: key },
    });
    expect(created.status).toBe(201);
    await sb.control('/price', { mint: t.mint, multiplier: 0.5 });
    const o = await observed();
    const r = await runCli(['sell', t.mint, '50%', '--yes', '--json', '--idempotency-key', key], { env: o.env });
    expect(r.code, r.stderr).toBe(4);
    const out = json(r);
    expect(out.authorization).toMatchObject({
      status: 'failed',
      failureCode: 'QUOTE_BELOW_AUTHORIZED_MINIMUM',
      executionStarted: false,
    });
    expect(out.sell).toBeNull();
    expect(lastJsonError(r)).toMatchObject({ code: 'QUOTE_BELOW_AUTHORIZED_MINIMUM' });
    expect(lastJsonError(r).message).toContain(
      'the service reports the sell failed before execution and that nothing was sold; the chain cannot prove it',
    );
    expect(o.authorizes()).toHaveLength(1);
    expect(await heldAmount(t.mint)).toBe(t.amount);
    const h = (await sb.call('GET', '/holdings')).body.data.find((x: any) => x.mint === t.mint);
    expect(h.sellInProgress).toBe(false);
    expect((await sb.call('GET', `/positions/${t.positionId}`)).body.data.status).toBe('open');
    // Not locked: a fresh sell at the new price goes through.
    const again = await runCli(['sell', t.mint, '50%', '--yes', '--json'], { env: o.env });
    expect(again.code, again.stderr).toBe(0);
  });

  it('a service that takes the signature, sells, then answers 422 and reports the authorization failed before execution (attack-1 §4): never "Sold", never "nothing was sold" on its word alone', async () => {
    const t = await holding();
    let lied: string | null = null;
    const proxy = await startScriptedProxy(sb.url, async (req, forward) => {
      const answer = await forward(req);
      const id = /^\/api\/v1\/trade\/sells\/([^/?]+)(\/authorize)?$/.exec(req.path);
      if (id && id[2] && req.method === 'POST') {
        lied = id[1]!;
        return {
          status: 422,
          text: JSON.stringify({
            error: { code: 'INVALID_SIGNATURE', message: 'signature does not verify' },
            requestId: 'req_x',
          }),
        };
      }
      if (id && !id[2] && id[1] === lied && answer.status === 200) {
        const body = JSON.parse(answer.text);
        Object.assign(body.data.authorization, {
          status: 'failed',
          failureCode: 'QUOTE_BELOW_AUTHORIZED_MINIMUM',
          failureReason: 'quote below minimum',
          executionStarted: false,
        });
        body.data.sell = null;
        return { status: 200, text: JSON.stringify(body) };
      }
      return answer;
    });
    closeAfterAll(() => proxy.close());
    const env = envFor(proxy.url);
    const r = await runCli(['sell', t.mint, '10%', '--yes', '--json'], { env });
    expect(r.code, r.stderr).toBe(4);
    const message = lastJsonError(r).message;
    expect(message).toContain(
      'the service reports the sell failed before execution and that nothing was sold; the chain cannot prove it: check the holding (trader holdings)',
    );
    expect(message).not.toMatch(/; nothing was sold/);
    // The sandbox did sell: the holding went down.
    expect(await heldAmount(t.mint)).toBeLessThan(t.amount);
    const human = await runCli(['sell', t.mint, '10%', '--yes'], { env });
    expect(human.code, human.stderr).toBe(4);
    expect(human.stdout).not.toMatch(/^Sold /m);
    expect(human.stdout).toMatch(/^Offered\s+[\d.,]+ /m);
    expect(human.stdout + human.stderr).not.toMatch(/(^|; )nothing was sold/m);
    expect(human.stderr).toContain(
      'the service reports the sell failed before execution and that nothing was sold; the chain cannot prove it',
    );
  });

  it('an authorization already expired when received → exit 6, no authorize sent', async () => {
    const t = await holding();
    const o = await observed();
    // The sandbox runs five minutes behind real time (earlier tests may have moved it ahead):
    // its 2-minute expiry is already past for the client.
    const { offsetSeconds } = await sb.control('/clock');
    const back = offsetSeconds + 300;
    await sb.advance(-back);
    let r: CliResult;
    try {
      r = await runCli(['sell', t.mint, '50%', '--yes', '--json'], { env: o.env });
    } finally {
      await sb.advance(back);
    }
    expect(r.code, r.stderr).toBe(6);
    expect(lastJsonError(r).code).toBe('REFUSED_TO_SIGN');
    expect(lastJsonError(r).message).toMatch(/expired/);
    expect(json(r)).toMatchObject({
      authorization: { id: o.created[0].id, status: 'awaiting_signature' },
      sell: null,
      trade: null,
    });
    expect(o.creates()).toHaveLength(1);
    expect(o.authorizes()).toEqual([]);
    expect(await authorizesInLog(o.created[0].id)).toEqual([]);
    expect(await heldAmount(t.mint)).toBe(t.amount);
  });

  it('--timeout 1 while the swap is slow → exit 5 with the follow command', async () => {
    const t = await holding();
    const o = await observed();
    const r = await withDelays({ swapSeconds: 1e6 }, () =>
      runCli(['sell', t.mint, '50%', '--yes', '--json', '--timeout', '1'], { env: o.env }),
    );
    expect(r.code, r.stderr).toBe(5);
    const id = o.created[0].id;
    expect(json(r).authorization.id).toBe(id);
    expect(lastJsonError(r).message).toContain(`trader trades ${id} --watch`);
  });
});

describe('resume, --no-wait, --dry-run, --min-sol', () => {
  it('the same --idempotency-key continues the sell, never a second one; also after --no-wait', async () => {
    const t = await holding();
    const o = await observed();
    const key = newKey('sell');
    const noWait = await withDelays({ swapSeconds: 1e6 }, () =>
      runCli(['sell', t.mint, '25%', '--yes', '--json', '--no-wait', '--idempotency-key', key], { env: o.env }),
    );
    expect(noWait.code, noWait.stderr).toBe(0);
    const first = json(noWait);
    expect(first.authorization.status).toBe('authorized');
    expect(first.sell.status).toBe('swap_pending');
    expect(first.trade).toBeNull();
    expect(first.idempotencyKey).toBe(key);

    // The holding is now smaller, but the raw amount of the original sell is what resumes it.
    const amount = first.authorization.amount;
    const resumed = await runCli(['sell', t.mint, amount, '--yes', '--json', '--idempotency-key', key], { env: o.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(json(resumed).authorization.id).toBe(first.authorization.id);
    expect(json(resumed).sell.status).toBe('completed');
    const again = await runCli(['sell', t.mint, amount, '--yes', '--idempotency-key', key], { env: o.env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`Resuming sell ${first.authorization.id}`);

    expect(o.creates()).toHaveLength(3);
    expect(o.authorizes()).toHaveLength(1);
    expect(await authorizesInLog(first.authorization.id)).toHaveLength(1);
    expect(await heldAmount(t.mint)).toBe(t.amount - BigInt(amount));
  });

  it('--dry-run shows the quote and the checks, signs nothing; --min-sol above the minimum → exit 6, nothing signed', async () => {
    const t = await holding();
    const d = await observed();
    const m = await observed();
    const ok = await observed();
    const [dry, dryHuman] = await Promise.all([
      runCli(['sell', t.mint, '50%', '--dry-run', '--json'], { env: d.env }),
      runCli(['sell', t.mint, '50%', '--dry-run'], { env: envFor(sb.url) }),
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    const out = json(dry);
    expect(out).toMatchObject({ dryRun: true, ok: true, problems: [] });
    expect(out.authorization.status).toBe('awaiting_signature');
    expect(out.authorization.message).toContain(t.mint);
    expect(d.authorizes()).toEqual([]);
    expect(dryHuman.code, dryHuman.stderr).toBe(0);
    expect(dryHuman.stdout).toContain('Dry run: every check passed');
    expect(dryHuman.stdout).toContain(out.authorization.message.split('\n')[1]);

    const minimum = BigInt(out.authorization.minimumOutputLamports);
    const sol = (l: bigint) => `${l / 1_000_000_000n}.${(l % 1_000_000_000n).toString().padStart(9, '0')}`;
    const [above, atMinimum] = await Promise.all([
      runCli(['sell', t.mint, '50%', '--yes', '--json', '--min-sol', sol(minimum * 2n)], { env: m.env }),
      runCli(['sell', t.mint, '1000', '--yes', '--json', '--min-sol', '0.000000001'], { env: ok.env }),
    ]);
    expect(above.code, above.stderr).toBe(6);
    expect(lastJsonError(above).message).toContain('below --min-sol');
    expect(m.creates()).toHaveLength(1);
    expect(m.authorizes()).toEqual([]);
    expect(atMinimum.code, atMinimum.stderr).toBe(0);
    expect(ok.authorizes()).toHaveLength(1);
    expect(await heldAmount(t.mint)).toBe(t.amount - 1000n);
  });
});

describe('whole-token amounts: 1.5sgld, 1.5tokens; raw integers unchanged', () => {
  /** The sandbox's SGLD (6 decimals), bought so the account holds some (about 24 SGLD). */
  async function sgld(): Promise<{ mint: string; held: bigint }> {
    const token = sb.tokens.find((t) => t.symbol === 'SGLD')!;
    expect(token.decimals).toBe(6);
    if ((await heldAmount(token.mint)) < 10_000_000n)
      await completeBuy(sb, { mint: token.mint, amountLamports: '200000000' });
    return { mint: token.mint, held: await heldAmount(token.mint) };
  }

  /** The amounts of the sells the sandbox was asked to create for `mint`, as its request log shows them. */
  async function createdAmounts(mint: string, since: number): Promise<string[]> {
    return (await sb.requests())
      .filter(
        (r) =>
          r.seq > since && r.method === 'POST' && r.path === '/api/v1/trade/sells' && (r.body as any)?.mint === mint,
      )
      .map((r) => (r.body as any).amount);
  }
  const lastSeq = async () => (await sb.requests()).at(-1)?.seq ?? 0;

  it('sell SGLD 1.5sgld / 1.5tokens / 1.5SGLD --dry-run --json: the sandbox is asked for 1500000 raw units each time', async () => {
    const { mint } = await sgld();
    for (const amount of ['1.5sgld', '1.5tokens', '1.5SGLD']) {
      const since = await lastSeq();
      const r = await runCli(['sell', 'SGLD', amount, '--dry-run', '--json'], { env: envFor(sb.url) });
      expect(r.code, r.stderr).toBe(0);
      expect(json(r)).toMatchObject({ dryRun: true, ok: true, authorization: { mint, amount: '1500000' } });
      expect(await createdAmounts(mint, since)).toEqual(['1500000']);
    }
  });

  it('the review states both forms: whole tokens with the symbol and raw units', async () => {
    await sgld();
    const r = await runCli(['sell', 'SGLD', '0.000001sgld', '--dry-run'], { env: envFor(sb.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Sell\s+0\.000001 SGLD \(1 raw\)/);
  });

  it('a bare decimal, zero, a negative amount: exit 2 naming the forms, before any request', async () => {
    const { mint } = await sgld();
    const since = await lastSeq();
    for (const amount of ['1.5', '0sgld', '-1.5sgld', '.5sgld']) {
      const o = await observed();
      const r = await runCli(['sell', 'SGLD', amount, '--yes', '--json'], { env: o.env });
      expect(r.code, r.stderr).toBe(2);
      expect(lastJsonError(r).message).toMatch(
        new RegExp(
          `^invalid amount "${amount.replace('.', '\\.')}": .*; use raw token units \\(1000000\\), whole tokens with the symbol or "tokens" \\(1\\.5sgld, 1\\.5tokens\\), all, or a whole percentage from 1% to 100%$`,
        ),
      );
      expect(o.proxy.seen).toEqual([]);
    }
    // Nor did the sandbox's own log see a sell created.
    expect(await createdAmounts(mint, since)).toEqual([]);
  });

  it('too many decimal places (7 for SGLD’s 6) or another symbol: exit 2 once the holding is read, no sell created; 6 places pass', async () => {
    const { mint } = await sgld();
    const tooMany = await observed();
    const other = await observed();
    const six = await observed();
    const [a, b, c] = await Promise.all([
      runCli(['sell', 'SGLD', '1.0000001sgld', '--yes', '--json'], { env: tooMany.env }),
      runCli(['sell', mint, '1woof', '--yes', '--json'], { env: other.env }),
      runCli(['sell', 'SGLD', '1.000001sgld', '--dry-run', '--json'], { env: six.env }),
    ]);
    expect(a.code, a.stderr).toBe(2);
    expect(lastJsonError(a).message).toBe(
      'invalid amount "1.0000001sgld": SGLD has 6 decimals, so at most 6 decimal places (got 7); nothing is rounded',
    );
    expect(b.code, b.stderr).toBe(2);
    expect(lastJsonError(b).message).toBe(
      'invalid amount "1woof": "woof" is not the symbol of the token being sold (SGLD); write 1sgld or 1tokens',
    );
    for (const o of [tooMany, other]) expect(o.creates()).toEqual([]);
    expect(c.code, c.stderr).toBe(0);
    expect(six.creates().map((x: any) => x.body.amount)).toEqual(['1000001']);
  });

  it('whole tokens are counted by the chain’s decimals, whatever the service gives; with neither: exit 2, no sell created; raw units are still sent', async () => {
    const t = await holding(4);
    const o = await observed();
    o.proxy.rewrite('GET', /^\/api\/v1\/holdings/, (body) => ({
      ...body,
      data: body.data.map((h: any) => ({ ...h, decimals: null })),
    }));
    const byChain = await runCli(['sell', t.mint, '1tokens', '--dry-run', '--json'], { env: o.env });
    expect(byChain.code, byChain.stderr).toBe(0);
    expect(o.creates().map((x: any) => x.body.amount)).toEqual(['10000']);
    const noChain = { ...o.env, TRADER_RPC_URL: 'http://127.0.0.1:9' };
    const whole = await runCli(['sell', t.mint, '1tokens', '--yes', '--json'], { env: noChain });
    expect(whole.code, whole.stderr).toBe(2);
    expect(lastJsonError(whole).message).toBe(
      `invalid amount "1tokens": neither the chain (at --rpc-url) nor the service gives this token's decimals, so whole tokens cannot be converted exactly; give raw units instead`,
    );
    expect(o.creates()).toHaveLength(1);
    // Raw units need no decimals: the sell is created (what the guard makes of facts nobody vouches for is its to say).
    const raw = await runCli(['sell', t.mint, '10000', '--dry-run', '--json'], { env: noChain });
    expect(raw.code, raw.stderr).not.toBe(2);
    expect(o.creates().map((x: any) => x.body.amount)).toEqual(['10000', '10000']);
  });

  it('more whole tokens than held: exit 2 naming both in whole tokens, no sell created', async () => {
    const t = await holding(6);
    const o = await observed();
    const whole = `${t.amount / 1_000_000n + 1n}tokens`;
    const r = await runCli(['sell', t.mint, whole, '--yes', '--json'], { env: o.env });
    expect(r.code, r.stderr).toBe(2);
    expect(lastJsonError(r).message).toMatch(
      new RegExp(`^cannot sell [0-9,]+ ${t.symbol}: only [0-9,.]+ ${t.symbol} held`),
    );
    expect(o.creates()).toEqual([]);
  });

  it('sell SGLD 10 --yes is still 10 raw units (0.00001 SGLD); the review notes it is less than one token', async () => {
    const { mint, held } = await sgld();
    const since = await lastSeq();
    const r = await runCli(['sell', 'SGLD', '10', '--yes'], { env: envFor(sb.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(await createdAmounts(mint, since)).toEqual(['10']);
    expect(r.stderr).toContain(
      'Note: 10 is raw units, 0.00001 SGLD: less than one whole token; for 10 SGLD write 10sgld.',
    );
    expect(await heldAmount(mint)).toBe(held - 10n);
    // One whole token in raw units (1000000) is no dust: no note.
    const one = await runCli(['sell', 'SGLD', '1000000', '--dry-run'], { env: envFor(sb.url) });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr + one.stdout).not.toContain('less than one whole token');
    const below = await runCli(['sell', 'SGLD', '999999', '--dry-run'], { env: envFor(sb.url) });
    expect(below.code, below.stderr).toBe(0);
    expect(below.stdout + below.stderr).toContain(
      'Note: 999999 is raw units, 0.999999 SGLD: less than one whole token',
    );
  });
});
