// `trader buy` end to end: the built binary against the sandbox. Each run gets its own HOME
// and config file; runs that must be told apart go through their own recording proxy, so the
// assertions about what the server saw hold even when runs overlap.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { lastJsonError, stderrJson } from '../helpers/cli-assert.js';
import { freshHome, json, runCli } from '../helpers/cli.js';
import { sandboxForFile, type Home } from '../helpers/file-sandbox.js';
import { completeBuy, newKey, type TestSandbox } from '../helpers/sandbox.js';
import { pinsFor } from '../helpers/trust.js';
import { allButAccountReads, startRpcFaultProxy } from '../helpers/rpc-fault-proxy.js';

let sb: TestSandbox;
const { envFor, tamperProxy, withDelays, closeAfterAll } = sandboxForFile((started) => (sb = started));
const mint = () => sb.tokens[0]!.mint;

/** A recording proxy in front of the sandbox: what one run sent, and the buys it created. */
async function observed(home?: Home, opts: { untrusted?: boolean } = {}) {
  const proxy = await tamperProxy();
  const created: any[] = [];
  proxy.rewrite('POST', /^\/api\/v1\/trade\/buys$/, (body) => {
    created.push(body.data);
    return body;
  });
  const env = envFor(proxy.url, home, opts);
  const sent = (method: string, suffix: string | RegExp) =>
    proxy.seen.filter(
      (r) => r.method === method && (typeof suffix === 'string' ? r.path.endsWith(suffix) : suffix.test(r.path)),
    );
  return { proxy, created, env, sent, deposits: () => sent('POST', '/deposit') };
}

async function intentOf(id: string) {
  const r = await sb.call('GET', `/trade/buys/${id}`);
  expect(r.status).toBe(200);
  return r.body.data.intent;
}

/** Sandbox-log requests for this buy id. */
async function logFor(id: string) {
  const log = await sb.requests();
  return {
    deposits: log.filter((r) => r.method === 'POST' && r.path === `/api/v1/trade/buys/${id}/deposit`),
    cancels: log.filter((r) => r.method === 'POST' && r.path === `/api/v1/trade/buys/${id}/cancel`),
  };
}

function creates(key: string) {
  return sb
    .requests()
    .then((log) =>
      log.filter(
        (r) => r.method === 'POST' && r.path === '/api/v1/trade/buys' && (r.body as any)?.idempotencyKey === key,
      ),
    );
}

function writeProfile(path: string, profile: Record<string, unknown>): void {
  writeFileSync(path, JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
  chmodSync(path, 0o600);
}

function profileOf(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')).profiles.default;
}

describe('buy completes', () => {
  it('--yes --json: exit 0, {intent, trade, idempotencyKey} in their final states, one create and one deposit', async () => {
    const o = await observed();
    const r = await runCli(['buy', mint(), '0.1sol', '--yes', '--json'], { env: o.env });
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(Object.keys(out).sort()).toEqual(['idempotencyKey', 'intent', 'trade', 'verification']);
    expect(out.intent.status).toBe('completed');
    expect(out.intent.outputMint).toBe(mint());
    expect(out.intent.amountLamports).toBe('100000000');
    expect(out.trade.id).toBe(out.intent.id);
    expect(out.trade.terminal).toBe(true);
    expect(out.trade.stage).toBe('completed');
    expect(BigInt(out.trade.receivedOutputAmount)).toBeGreaterThan(0n);
    expect(stderrJson(r)).toEqual([]);

    // What the server saw: one create with the printed key, one deposit signed by the owner.
    expect(o.sent('POST', '/trade/buys').map((s: any) => s.body.idempotencyKey)).toEqual([out.idempotencyKey]);
    expect(o.deposits()).toHaveLength(1);
    expect(o.deposits()[0]!.path).toBe(`/api/v1/trade/buys/${out.intent.id}/deposit`);
    expect((await intentOf(out.intent.id)).status).toBe('completed');
    // The printed trade is the service's final trade.
    const trade = (await sb.call('GET', `/trades/${out.intent.id}`)).body.data;
    expect(out.trade.signatures).toEqual(trade.signatures);
    expect(out.trade.signatures.deposit).toBeTruthy();
  });

  it('human mode, lamports form: prints the idempotency key and a summary with tokens, SOL, fee and signatures', async () => {
    // A token never held before: its symbol, name and decimals come from the chain.
    const token = await sb.control('/tokens', { symbol: 'FRSH', name: 'Fresh Token', decimals: 6, usdPrice: 0.01 });
    const o = await observed();
    const r = await runCli(['buy', token.mint, '100000000', '--yes'], { env: o.env });
    expect(r.code, r.stderr).toBe(0);
    // The key is in the command that resumes the buy, alone on its line.
    const key = new RegExp(`^trader buy ${token.mint} 100000000 --idempotency-key (\\S+)$`, 'm').exec(r.stderr)?.[1];
    expect(key, r.stderr).toBeTruthy();
    expect(o.created).toHaveLength(1);
    const id = o.created[0].intent.id as string;
    const trade = (await sb.call('GET', `/trades/${id}`)).body.data;
    expect(r.stdout).toMatch(/Status\s+completed/);
    const received = BigInt(trade.receivedOutputAmount);
    const whole =
      `${(received / 1_000_000n).toLocaleString('en-US')}.${(received % 1_000_000n).toString().padStart(6, '0')}`.replace(
        /\.?0+$/,
        '',
      );
    expect(r.stdout).toMatch(new RegExp(`^Received\\s+${whole.replace(/\./g, '\\.')} FRSH$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^Token\\s+FRSH \\(Fresh Token\\) ${token.mint}$`, 'm'));
    expect(r.stdout).toMatch(/Deposit\s+0\.1 SOL/);
    expect(r.stdout).toMatch(/Platform fee\s+0\.001 SOL/);
    expect(r.stdout).toContain(trade.signatures.deposit);
    expect(r.stdout).toContain(trade.signatures.swaps[0]);
    // Before signing, the review (stderr with --yes) said the token was new, named it as the chain
    // does and showed whole tokens by the chain's decimals.
    expect(r.stderr).toContain(`Buy           FRSH (Fresh Token) ${token.mint}\n`);
    expect(r.stderr).toMatch(/^Token facts\s+new to this account; decimals, symbol and name from the chain$/m);
    expect(r.stderr).toMatch(/^Expected out\s+[\d,]+\.\d+ FRSH$/m);
    expect(r.stderr).toMatch(/^Minimum out\s+[\d,]+\.\d+ FRSH$/m);
    // Progress off a terminal: one line per stage, in the API's stage names in words.
    expect(r.stderr).toMatch(new RegExp(`^Buy ${id}: completed$`, 'm'));
    expect(r.stderr).not.toMatch(/^Buy \S+: \S+_/m);
    // stdout is data only: no progress or notes.
    expect(r.stdout).not.toContain('Idempotency key');
  });
});

describe('buy by symbol or mint prefix, as sell takes them', () => {
  it('a symbol or mint prefix of a token held or traded buys it; an ambiguous symbol is refused naming the mints', async () => {
    const sgld = sb.tokens[1]!;
    await completeBuy(sb, { mint: sgld.mint });
    // Two tokens with one symbol, both traded before.
    const twins = [
      await sb.control('/tokens', { symbol: 'TWIN', name: 'Twin One', decimals: 6 }),
      await sb.control('/tokens', { symbol: 'TWIN', name: 'Twin Two', decimals: 6 }),
    ];
    for (const t of twins) await completeBuy(sb, { mint: t.mint });
    const o = await observed();
    const [bySymbol, byPrefix, ambiguous, unknown] = await Promise.all([
      runCli(['buy', sgld.symbol.toLowerCase(), '0.1sol', '--yes', '--json'], { env: o.env }),
      runCli(['buy', twins[1].mint.slice(0, 10), '0.1sol', '--yes', '--json'], { env: o.env }),
      runCli(['buy', 'twin', '0.1sol', '--yes'], { env: o.env }),
      runCli(['buy', 'NOPE', '0.1sol', '--yes'], { env: o.env }),
    ]);
    expect(bySymbol.code, bySymbol.stderr).toBe(0);
    expect(json(bySymbol).intent).toMatchObject({ outputMint: sgld.mint, status: 'completed' });
    expect(byPrefix.code, byPrefix.stderr).toBe(0);
    expect(json(byPrefix).intent.outputMint).toBe(twins[1].mint);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(
      /^error: "twin" could be any of 2 tokens you have held or traded \(TWIN \S+, TWIN \S+\); give the mint address instead$/m,
    );
    for (const t of twins) expect(ambiguous.stderr).toContain(t.mint);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      '"NOPE" is neither a mint address nor the symbol or mint prefix of a token you have held or traded',
    );
    // The refused ones created nothing.
    expect(o.created.map((c) => c.intent.outputMint).sort()).toEqual([sgld.mint, twins[1].mint].sort());
  });
});

describe('--no-wait and resuming by idempotency key', () => {
  it('--no-wait: exit 0 once the deposit is accepted, prints the id; the same key later continues that buy', async () => {
    const o = await observed();
    const key = newKey('nowait');
    const first = await runCli(['buy', mint(), '0.1sol', '--yes', '--json', '--no-wait', '--idempotency-key', key], {
      env: o.env,
    });
    expect(first.code, first.stderr).toBe(0);
    const out = json(first);
    expect(out.intent.status).toBe('deposit_submitted');
    expect(out.idempotencyKey).toBe(key);
    expect(out.trade).toBeNull();
    expect(o.deposits()).toHaveLength(1);
    // No polling after the deposit was accepted.
    expect(o.sent('GET', `/trade/buys/${out.intent.id}`)).toHaveLength(0);

    const human = await runCli(['buy', mint(), '0.1sol', '--yes', '--no-wait', '--idempotency-key', key], {
      env: o.env,
    });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(out.intent.id);
    expect(human.stdout).toContain(`trader trades ${out.intent.id} --watch`);

    const resumed = await runCli(['buy', mint(), '0.1sol', '--yes', '--json', '--idempotency-key', key], {
      env: o.env,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    const done = json(resumed);
    expect(done.intent.id).toBe(out.intent.id);
    expect(done.intent.status).toBe('completed');
    expect(done.trade.terminal).toBe(true);
    // Three runs, one buy, one deposit.
    expect(new Set((await creates(key)).map((c) => c.status))).toEqual(new Set([201, 200]));
    expect((await logFor(out.intent.id)).deposits).toHaveLength(1);
    expect(o.deposits()).toHaveLength(1);
  });

  it('running a completed buy again with its key reports it and never buys twice', async () => {
    const o = await observed();
    const key = newKey('again');
    const args = ['buy', mint(), '0.1sol', '--yes', '--json', '--idempotency-key', key];
    const first = await runCli(args, { env: o.env });
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(args, { env: o.env });
    expect(second.code, second.stderr).toBe(0);
    expect(json(second).intent.id).toBe(json(first).intent.id);
    expect(json(second).intent.status).toBe('completed');
    expect(await creates(key)).toHaveLength(2);
    expect((await logFor(json(first).intent.id)).deposits).toHaveLength(1);

    const human = await runCli(['buy', mint(), '0.1sol', '--yes', '--idempotency-key', key], { env: o.env });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toContain(`Resuming buy ${json(first).intent.id}`);
    expect(o.deposits()).toHaveLength(1);
  });

  it('a buy interrupted by --timeout is resumed with its key and completes', async () => {
    const o = await observed();
    const key = newKey('slow');
    const first = await withDelays({ confirmSeconds: 1e6 }, () =>
      runCli(['buy', mint(), '0.1sol', '--yes', '--timeout', '1', '--idempotency-key', key], { env: o.env }),
    );
    expect(first.code, first.stderr).toBe(5);
    const id = o.created[0].intent.id;
    // The deposit landed long ago from the sandbox's point of view once the delay is gone.
    const second = await runCli(['buy', mint(), '0.1sol', '--yes', '--json', '--idempotency-key', key], { env: o.env });
    expect(second.code, second.stderr).toBe(0);
    expect(json(second).intent).toMatchObject({ id, status: 'completed' });
    expect((await logFor(id)).deposits).toHaveLength(1);
  });
});

describe('buys that end without success', () => {
  it('swap failure: exit 4 with the failure code and refund progress, in --json and in human mode', async () => {
    await withDelays({ refundSeconds: 1e6 }, async () => {
      await sb.control('/fail-next-swap', { count: 1 });
      const o = await observed();
      const r = await runCli(['buy', mint(), '0.1sol', '--yes', '--json'], { env: o.env });
      expect(r.code, r.stderr).toBe(4);
      const out = json(r);
      expect(out.intent.status).toBe('failed');
      expect(out.trade.failure.code).toBe('SWAP_FAILED');
      expect(out.trade.refund.state).toBe('recovering');
      const err = lastJsonError(r);
      expect(err.code).toBe('SWAP_FAILED');
      expect(err.message).toContain('refund recovering');
      expect(err.message).toContain(`trader trades ${out.intent.id} --watch`);

      await sb.control('/fail-next-swap', { count: 1 });
      const h = await runCli(['buy', mint(), '0.1sol', '--yes'], { env: o.env });
      expect(h.code, h.stderr).toBe(4);
      expect(h.stdout).toMatch(/Failure\s+SWAP_FAILED/);
      expect(h.stdout).toMatch(/Refund\s+recovering/);
      expect(h.stderr).toMatch(/^error: buy \S+ ended failed: SWAP_FAILED/m);
    });
  });

  it("a deposit beyond the wallet's SOL is refused at submit: exit 3 saying so, the intent cancelled, and not to buy again until the signed deposit expires", async () => {
    const before = (await sb.control('/balance')).lamports;
    const o = await observed();
    // With the chain unreadable but for the mint the tool cannot check the funds itself (test/e2e/chain.test.ts
    // covers its own refusal), so it is the service that refuses the deposit.
    const rpc = await startRpcFaultProxy(sb.url, allButAccountReads);
    closeAfterAll(() => rpc.close());
    const r = await runCli(['buy', mint(), '1000000sol', '--yes', '--rpc-url', rpc.rpcUrl], { env: o.env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^error: .*insufficient funds: the wallet holds [\d.]+ SOL and the deposit needs 1000000\.0000055 SOL/m,
    );
    expect(r.stderr).not.toContain('nothing was spent');
    expect(r.stderr).toMatch(
      /is cancelled and the service records no deposit signature; what is not known: the signed deposit stays valid until block height \d+ \(about 90 s\)/,
    );
    expect(o.deposits()).toHaveLength(1);
    expect((await intentOf(o.created[0].intent.id)).status).toBe('cancelled');
    expect((await sb.control('/balance')).lamports).toBe(before);
  });

  it('expiry: the deposit does not confirm within 10 minutes → exit 4, intent expired', async () => {
    await withDelays({ confirmSeconds: 1e6 }, async () => {
      const o = await observed();
      const r = await runCli(['buy', mint(), '0.1sol', '--yes', '--json', '--verbose'], {
        env: o.env,
        // Once the deposit is in, let 11 minutes pass on the sandbox clock.
        whenStderr: { includes: '/deposit', then: () => void sb.advance(11 * 60) },
      });
      expect(r.code, r.stderr).toBe(4);
      const out = json(r);
      expect(out.intent.status).toBe('expired');
      expect(lastJsonError(r).code).toBe('EXPIRED');
      expect(o.deposits()).toHaveLength(1);
    });
  });

  it('--timeout 1 with a slow confirmation → exit 5 naming `trader trades <id> --watch`', async () => {
    await withDelays({ confirmSeconds: 1e6 }, async () => {
      const o = await observed();
      // The binary's own real-time deadline: the deposit never confirms, so exit 5 whatever the machine's speed.
      const [h, j] = await Promise.all([
        runCli(['buy', mint(), '0.1sol', '--yes', '--timeout', '1'], { env: o.env }),
        runCli(['buy', mint(), '0.1sol', '--yes', '--json', '--timeout', '1'], { env: envFor(sb.url) }),
      ]);
      expect(h.code, h.stderr).toBe(5);
      const id = o.created[0].intent.id;
      expect(h.stderr).toContain(`trader trades ${id} --watch`);
      expect(j.code, j.stderr).toBe(5);
      const out = json(j);
      expect(out.intent.status).toBe('deposit_submitted');
      expect(lastJsonError(j)).toMatchObject({ code: 'TIMEOUT' });
      expect(lastJsonError(j).message).toContain(`trader trades ${out.intent.id} --watch`);
    });
  });
});

describe('interrupted while waiting', () => {
  it('Ctrl-C (SIGINT) or SIGTERM stops waiting, not the buy: exit 130 / 143 with the command to follow it', async () => {
    await withDelays({ confirmSeconds: 1e6 }, async () => {
      const a = await observed();
      const b = await observed();
      const [int, term] = await Promise.all([
        runCli(['buy', mint(), '0.1sol', '--yes'], {
          env: a.env,
          whenStderr: { includes: 'confirming deposit', then: (child) => child.kill('SIGINT') },
        }),
        runCli(['buy', mint(), '0.1sol', '--yes', '--json', '--verbose'], {
          env: b.env,
          whenStderr: { includes: '/deposit', then: (child) => child.kill('SIGTERM') },
        }),
      ]);
      expect(int.code, int.stderr).toBe(130);
      const intId = a.created[0].intent.id;
      // At 80 columns the follow command stands alone on the line after the error.
      expect(int.stderr).toContain(`the trade goes on; follow it with:\ntrader trades ${intId} --watch\n`);
      expect(term.code, term.stderr).toBe(143);
      const termId = b.created[0].intent.id;
      expect(lastJsonError(term)).toMatchObject({ code: 'INTERRUPTED' });
      expect(lastJsonError(term).message).toContain(`trader trades ${termId} --watch`);
      // The deposits were made and the buys go on.
      for (const [o, id] of [
        [a, intId],
        [b, termId],
      ] as const) {
        expect(o.deposits()).toHaveLength(1);
        expect(await intentOf(id)).toMatchObject({ status: 'deposit_submitted' });
      }
    });
  });
});

describe('local refusals before any trade exists', () => {
  it('maxBuyLamports and maxSlippageBps of the profile → exit 2 and no request at all', async () => {
    const limitHome = freshHome();
    writeProfile(limitHome.TRADER_CONFIG, { maxBuyLamports: '50000000', maxSlippageBps: 500 });
    const a = await observed(limitHome);
    const b = await observed(limitHome);
    const c = await observed(limitHome);
    const [overAmount, overSlippage, within] = await Promise.all([
      runCli(['buy', mint(), '0.1sol', '--yes', '--json'], { env: a.env }),
      runCli(['buy', mint(), '0.01sol', '--slippage-bps', '600', '--yes', '--json'], { env: b.env }),
      runCli(['buy', mint(), '0.05sol', '--slippage-bps', '500', '--yes', '--json'], { env: c.env }),
    ]);
    expect(overAmount.code, overAmount.stderr).toBe(2);
    expect(lastJsonError(overAmount)).toMatchObject({ code: 'OVER_LIMIT' });
    expect(lastJsonError(overAmount).message).toContain('maxBuyLamports');
    expect(a.proxy.seen).toEqual([]);
    expect(overSlippage.code, overSlippage.stderr).toBe(2);
    expect(lastJsonError(overSlippage).message).toContain('maxSlippageBps');
    expect(b.proxy.seen).toEqual([]);
    // Exactly at the limits is allowed.
    expect(within.code, within.stderr).toBe(0);
  });

  it('no --yes without a terminal → exit 2 and nothing sent', async () => {
    const a = await observed();
    const b = await observed();
    const [j, h] = await Promise.all([
      runCli(['buy', mint(), '0.1sol', '--json'], { env: a.env }),
      runCli(['buy', mint(), '0.1sol'], { env: b.env }),
    ]);
    expect(j.code).toBe(2);
    expect(lastJsonError(j).code).toBe('CONFIRMATION_REQUIRED');
    expect(h.code).toBe(2);
    expect(h.stderr).toContain('--yes');
    expect(a.proxy.seen).toEqual([]);
    expect(b.proxy.seen).toEqual([]);
  });

  it("a keypair that is not the account's wallet → exit 2 naming both, no trade created", async () => {
    const home = freshHome();
    const other = Keypair.generate();
    const path = `${home.HOME}/other.json`;
    writeFileSync(path, JSON.stringify(Array.from(other.secretKey)), { mode: 0o600 });
    const o = await observed(home);
    const r = await runCli(['buy', mint(), '0.1sol', '--yes', '--json'], { env: { ...o.env, TRADER_KEYPAIR: path } });
    expect(r.code, r.stderr).toBe(2);
    expect(lastJsonError(r).code).toBe('WALLET_MISMATCH');
    expect(lastJsonError(r).message).toContain(other.publicKey.toBase58());
    expect(lastJsonError(r).message).toContain(sb.walletAddress);
    expect(o.sent('POST', /./)).toEqual([]);
  });
});

describe('the treasury is pinned only by a person', () => {
  it('unattended or dry, an unpinned recipient is refused (exit 6, TREASURY_NOT_PINNED, no deposit); accept-treasury pins it; then a deposit elsewhere is refused', async () => {
    const home = freshHome();
    const first = await observed(home, { untrusted: true });
    const [unattended, dry] = await Promise.all([
      runCli(['buy', mint(), '0.1sol', '--yes', '--json'], { env: first.env }),
      runCli(['buy', mint(), '0.1sol', '--dry-run', '--json'], { env: first.env }),
    ]);
    const accept = `trader config trust accept-treasury ${sb.treasury}`;
    for (const r of [unattended, dry]) {
      expect(r.code, r.stderr).toBe(6);
      expect(lastJsonError(r)).toMatchObject({
        code: 'TREASURY_NOT_PINNED',
        category: 'refused_to_sign',
        command: accept,
      });
    }
    expect(lastJsonError(unattended).message).toContain('here --yes asks no one');
    expect(lastJsonError(dry).message).toContain('here a dry run pins nothing');
    expect(first.deposits()).toEqual([]);
    for (const c of first.created) expect((await intentOf(c.intent.id)).status).toBe('cancelled');
    expect(pinsFor(home, first.proxy.url)).toEqual({});

    // A person runs the command the refusal named: it says what it pins.
    const pin = await runCli(['config', 'trust', 'accept-treasury', sb.treasury], { env: first.env });
    expect(pin.code, pin.stderr).toBe(0);
    expect(pin.stdout).toContain(`Pinned treasury ${sb.treasury}; undo:\n  trader config trust forget treasury\n`);
    expect(pinsFor(home, first.proxy.url).treasury).toMatchObject({ address: sb.treasury, by: 'accept-command' });
    const r1 = await runCli(['buy', mint(), '0.1sol', '--yes', '--json'], { env: first.env });
    expect(r1.code, r1.stderr).toBe(0);
    expect(existsSync(home.TRADER_CONFIG)).toBe(false);

    const elsewhere = Keypair.generate().publicKey.toBase58();
    // A different --treasury, and a different treasury written in the profile.
    const viaFlag = await observed(home);
    const flagRun = await runCli(['buy', mint(), '0.1sol', '--yes', '--json', '--treasury', elsewhere], {
      env: viaFlag.env,
    });
    const profileHome = freshHome();
    writeProfile(profileHome.TRADER_CONFIG, { treasury: elsewhere });
    const viaProfile = await observed(profileHome);
    const profileRun = await runCli(['buy', mint(), '0.1sol', '--yes'], { env: viaProfile.env });

    for (const [run, o] of [
      [flagRun, viaFlag],
      [profileRun, viaProfile],
    ] as const) {
      expect(run.code, run.stderr).toBe(6);
      expect(o.deposits()).toEqual([]);
      expect(o.created).toHaveLength(1);
      const id = o.created[0].intent.id;
      expect((await intentOf(id)).status).toBe('cancelled');
      expect((await logFor(id)).deposits).toEqual([]);
    }
    const err = lastJsonError(flagRun);
    expect(err.code).toBe('REFUSED_TO_SIGN');
    expect(json(flagRun).intent).toMatchObject({ id: viaFlag.created[0].intent.id, status: 'cancelled' });
    expect(err.message).toContain(`not the pinned treasury ${elsewhere}`);
    expect(err.message).toContain(sb.treasury);
    expect(err.message).toMatch(/`trader config trust accept-treasury <address>`, or --treasury <address>/);
    expect(profileRun.stderr).toContain('re-pins');
    expect(profileRun.stderr).toContain('cancelled');
    // A refused deposit never changes a pin.
    expect(pinsFor(home, first.proxy.url).treasury?.address).toBe(sb.treasury);
    expect(profileOf(profileHome.TRADER_CONFIG).treasury).toBe(elsewhere);
  });
});

describe('--dry-run', () => {
  it('checks and shows everything, signs nothing, cancels the intent', async () => {
    await completeBuy(sb, { mint: mint() }); // a token the account has traded: its symbol and decimals are known
    const home = freshHome();
    const j = await observed(home);
    const h = await observed(freshHome());
    const [jr, hr] = await Promise.all([
      runCli(['buy', mint(), '0.1sol', '--dry-run', '--json'], { env: j.env }),
      runCli(['buy', mint(), '0.1sol', '--dry-run'], { env: h.env }),
    ]);
    expect(jr.code, jr.stderr).toBe(0);
    const out = json(jr);
    expect(out).toMatchObject({ dryRun: true, ok: true, problems: [] });
    expect(out.intent.amountLamports).toBe('100000000');
    expect(out.intent.minimumOutputAmount).toMatch(/^\d+$/);
    expect(out.deposit).toMatchObject({
      recipient: sb.treasury,
      feePayer: sb.walletAddress,
      transferLamports: '100000000',
      treasuryCheck: 'pinned',
    });
    expect(out.deposit.networkFeeLamports).toMatch(/^\d+$/);
    // The deposit's memo travels with its facts: its text, or null when the deposit has none.
    expect(out.deposit.memo === null || typeof out.deposit.memo === 'string').toBe(true);
    expect(typeof out.idempotencyKey).toBe('string');
    // The same facts as the prompt: the token, what is paid, what comes back, the price, the slippage applied.
    expect(out.trade).toMatchObject({ id: out.intent.id, side: 'buy' });
    expect(out.quote).toMatchObject({
      token: { mint: mint(), symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5, seenBefore: true },
      depositLamports: '100000000',
      platformFeeLamports: '1000000',
      networkFeeMaxLamports: out.deposit.networkFeeLamports,
      totalMaxLamports: String(100_000_000 + Number(out.deposit.networkFeeLamports)),
      expectedOutputAmount: out.trade.expectedOutputAmount,
      minimumOutputAmount: out.intent.minimumOutputAmount,
      slippageBps: 100,
      slippageBpsAsked: null,
      unknown: null,
    });
    expect(out.quote.expectedOutput).toBe(
      `${BigInt(out.trade.expectedOutputAmount) / 100_000n}.${(BigInt(out.trade.expectedOutputAmount) % 100_000n).toString().padStart(5, '0')}`.replace(
        /\.?0+$/,
        '',
      ),
    );
    expect(out.quote.pricePerTokenSol).toMatch(/^0\.0000001\d{3}$/);
    expect(hr.stdout).toMatch(/^Expected out\s+[\d,.]+ WOOF$/m);
    expect(hr.stdout).toMatch(/^Price\s+0\.0000001\d{3} SOL per WOOF/m);
    // A dry run cancels its intent: no resume hint for it.
    expect(hr.stderr).not.toContain('resume with');
    for (const o of [j, h]) {
      expect(o.deposits()).toEqual([]);
      expect(o.created).toHaveLength(1);
      expect((await intentOf(o.created[0].intent.id)).status).toBe('cancelled');
    }
    // The printed intent is the cancelled one, not the quote's awaiting_deposit.
    expect(out.intent.status).toBe('cancelled');
    expect(hr.code, hr.stderr).toBe(0);
    expect(hr.stdout).toContain('Dry run: every check passed');
    expect(hr.stdout).toMatch(/Network fee/);
    expect(hr.stdout).toContain(sb.treasury);
    // A dry run changes no pin and writes no config.
    expect(() => readFileSync(home.TRADER_CONFIG, 'utf8')).toThrow();
    expect(pinsFor(home, j.proxy.url).treasury?.by).toBe('accept-command');
  });

  it('when the trade cannot be read after the create, what is known is shown and the rest is said to be unknown', async () => {
    await sb.control('/faults', { match: { method: 'GET', path: '/trades/' }, count: 2, kind: 'status', status: 500 });
    try {
      const [jr, hr] = await Promise.all([
        runCli(['buy', mint(), '0.1sol', '--dry-run', '--json'], { env: envFor(sb.url) }),
        runCli(['buy', mint(), '0.1sol', '--dry-run', '--slippage-bps', '80'], { env: envFor(sb.url) }),
      ]);
      expect(jr.code, jr.stderr).toBe(0);
      const out = json(jr);
      expect(out.trade).toBeNull();
      expect(out.quote).toMatchObject({
        expectedOutputAmount: null,
        expectedOutput: null,
        platformFeeLamports: null,
        slippageBps: null,
        pricePerTokenSol: null,
      });
      expect(out.quote.minimumOutputAmount).toBe(out.intent.minimumOutputAmount);
      expect(out.quote.unknown).toMatch(
        /^expected output, platform fee and slippage: the trade could not be read \(HTTP 500/,
      );
      expect(hr.code, hr.stderr).toBe(0);
      for (const field of ['Expected out', 'Platform fee', 'Price'])
        expect(hr.stdout).toMatch(new RegExp(`^${field}\\s+unknown$`, 'm'));
      expect(hr.stdout).toMatch(/^Slippage\s+unknown \(asked: 80 bps \(0\.8%\)\)$/m);
      expect(hr.stdout).toMatch(/^Minimum out\s+[\d,.]+ WOOF$/m);
      expect(hr.stdout.replace(/\n {14}/g, ' ')).toMatch(
        /^Not known\s+expected output, platform fee and slippage: the trade could not be read/m,
      );
    } finally {
      await sb.control('/faults', undefined, 'DELETE');
    }
  });
});
