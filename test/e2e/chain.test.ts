// The chain as a second source: the RPC URL setting, `trader balance`, and that only the sandbox
// loads @solana/web3.js. The built binary against the sandbox's own JSON-RPC endpoint.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lastJsonError, stderrJson } from '../helpers/cli-assert.js';
import { BIN, freshHome, json, runCli } from '../helpers/cli.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { runInProcess } from '../helpers/in-process.js';
import { allButAccountReads, startRpcFaultProxy } from '../helpers/rpc-fault-proxy.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir, tempEnv } from '../helpers/temp.js';

let sb: TestSandbox;
const { envFor, withDelays, tamperProxy, closeAfterAll } = sandboxForFile((started) => (sb = started));

/** An RPC that reads the buy's mint (its facts and risks) and fails every other call: the chain unreadable for the funds and the checks. */
async function mintOnlyRpc(): Promise<string> {
  const proxy = await startRpcFaultProxy(sb.url, allButAccountReads);
  closeAfterAll(() => proxy.close());
  return proxy.rpcUrl;
}

/** An RPC URL nothing listens on: connection refused at once. */
async function closedPortUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}/`;
}

describe('trader balance', () => {
  it('--json: the wallet address and its SOL from the chain, as decimal strings; what the chain holds, not a copy', async () => {
    const env = envFor(sb.url);
    const r = await runCli(['balance', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toEqual({
      address: sb.walletAddress,
      lamports: sb.walletLamports.toString(),
      sol: (Number(sb.walletLamports) / 1e9).toString(),
    });
    expect(stderrJson(r)).toEqual([]);
    await sb.control('/balance', { sol: '2.5' });
    const after = await runCli(['balance', '--json'], { env });
    expect(json(after)).toEqual({ address: sb.walletAddress, lamports: '2500000000', sol: '2.5' });
    // The service is not asked: the balance needs no service URL or key.
    const bare = await runCli(['balance', '--json'], {
      env: { ...freshHome(), TRADER_KEYPAIR: sb.keypairPath, TRADER_RPC_URL: sb.rpcUrl },
    });
    expect(json(bare).lamports).toBe('2500000000');
    await sb.control('/balance', { sol: '100' });
  });

  it('human mode: SOL with lamports, and the wallet', async () => {
    await sb.control('/balance', { sol: '1234.5' });
    const r = await runCli(['balance'], { env: envFor(sb.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`1,234.5 SOL (1234500000000 lamports)\nWallet ${sb.walletAddress}\n`);
    await sb.control('/balance', { sol: '100' });
  });

  it('--tokens: the wallet itself holds none of the traded tokens in the sandbox (the service holds them), said so; --json adds an empty list', async () => {
    await completeBuy(sb);
    const h = await runCli(['balance', '--tokens'], { env: envFor(sb.url) });
    expect(h.code, h.stderr).toBe(0);
    expect(h.stdout).toContain(
      'The wallet itself holds none of the tokens this account traded (the service holds them).',
    );
    const j = await runCli(['balance', '--tokens', '--json'], { env: envFor(sb.url) });
    expect(json(j).tokens).toEqual([]);
  });

  it('an unreachable RPC is exit 3 naming the endpoint, with no retries that wait', async () => {
    // A provider's key in the URL never shows: messages name the host only.
    const url = `${await closedPortUrl()}v1/sekrit-path?api-key=sekrit-key`;
    const r = await runCli(['balance', '--json'], { env: { ...envFor(sb.url), TRADER_RPC_URL: url } });
    expect(r.code).toBe(3);
    expect(r.stderr + r.stdout).not.toContain('sekrit');
    const error = lastJsonError(r);
    expect(error.code).toBe('CHAIN_UNREACHABLE');
    expect(error.message).toContain(`from ${new URL(url).host} failed: connection refused`);
  });

  it('--rpc-url beats TRADER_RPC_URL, which beats config rpcUrl; a bad URL is exit 2 before anything is sent', async () => {
    const closed = await closedPortUrl();
    const home = freshHome();
    const base = { ...home, TRADER_KEYPAIR: sb.keypairPath };
    const set = await runCli(['config', 'set', 'rpcUrl', closed], { env: base });
    expect(set.code, set.stderr).toBe(0);
    expect((await runCli(['config', 'get', 'rpcUrl'], { env: base })).stdout.trim()).toBe(closed);
    expect((await runCli(['balance', '--json'], { env: base })).code).toBe(3); // the profile's
    expect((await runCli(['balance', '--json'], { env: { ...base, TRADER_RPC_URL: sb.rpcUrl } })).code).toBe(0); // env over profile
    expect(
      (await runCli(['balance', '--json', '--rpc-url', closed], { env: { ...base, TRADER_RPC_URL: sb.rpcUrl } })).code,
    ).toBe(3); // flag over env
    const bad = await runCli(['balance', '--json', '--rpc-url', 'ftp://x'], { env: base });
    expect(bad.code).toBe(2);
    expect(lastJsonError(bad).code).toBe('INVALID_RPC_URL');
    expect((await runCli(['config', 'set', 'rpcUrl', 'not a url'], { env: base })).code).toBe(2);
  });
});

describe('the sandbox chain answers standard JSON-RPC', () => {
  const rpc = async (method: string, params: unknown[] = []) => {
    const res = await fetch(sb.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await res.json()) as { result?: any; error?: { code: number; message: string } };
  };
  it('getBalance, getBlockHeight, getMinimumBalanceForRentExemption, and errors for unknown methods and bad params', async () => {
    expect((await rpc('getBalance', [sb.walletAddress])).result).toEqual({
      context: { slot: expect.any(Number), apiVersion: expect.any(String) },
      value: Number(sb.walletLamports),
    });
    expect((await rpc('getBlockHeight')).result).toEqual(expect.any(Number));
    expect((await rpc('getMinimumBalanceForRentExemption', [0])).result).toBe(890_880);
    expect(
      (await rpc('getTransaction', ['5'.repeat(87), { encoding: 'json', maxSupportedTransactionVersion: 0 }])).result,
    ).toBeNull();
    expect((await rpc('sendTransaction', ['x'])).error?.code).toBe(-32601);
    expect((await rpc('getBalance', ['nope'])).error?.code).toBe(-32602);
  });
});

describe('only `trader sandbox` loads @solana/web3.js: the chain is read by a client of our own', () => {
  /** The files a run loads (ESM via a module.register hook, CommonJS via Module._load). */
  async function loadedFiles(args: string[], env: Record<string, string>, exitCode = 0): Promise<string[]> {
    const dir = tempDir('trader-trace-');
    const out = join(dir, 'loaded.txt');
    const loader = join(dir, 'loader.mjs');
    const hook = join(dir, 'hook.mjs');
    writeFileSync(out, '');
    writeFileSync(
      loader,
      `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(out)}, new URL(url).pathname + '\\n');\n  return next(url, context);\n}\n`,
    );
    writeFileSync(
      hook,
      `import { register, createRequire } from 'node:module';\nimport { appendFileSync } from 'node:fs';\nregister(${JSON.stringify(pathToFileURL(loader).href)});\nconst Module = createRequire(import.meta.url)('node:module');\nconst load = Module._load;\nModule._load = function (request, parent, isMain) {\n  const loaded = load.apply(this, arguments);\n  try { const f = Module._resolveFilename(request, parent, isMain); if (f.startsWith('/')) appendFileSync(${JSON.stringify(out)}, f + '\\n'); } catch {}\n  return loaded;\n};\n`,
    );
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', hook, BIN, ...args], {
        env: { PATH: process.env.PATH!, ...tempEnv(), ...env },
        stdio: 'ignore',
      });
      child.on('error', reject);
      child.on('close', resolve);
    });
    expect(code).toBe(exitCode);
    return readFileSync(out, 'utf8').split('\n').filter(Boolean);
  }
  const web3 = (files: string[]) => files.some((f) => /\/node_modules\/@solana\/web3\.js\//.test(f));

  it('`me --json` and `balance --json` (which reads the chain) do not; the sandbox does (the control that the trace sees it)', async () => {
    const env = envFor(sb.url);
    const me = await loadedFiles(['me', '--json'], env);
    expect(me.some((f) => f.endsWith('/dist/commands/me.js'))).toBe(true);
    expect(web3(me)).toBe(false);
    const balance = await loadedFiles(['balance', '--json'], env);
    expect(balance.some((f) => f.endsWith('/dist/chain/chain-reader.js'))).toBe(true);
    expect(web3(balance)).toBe(false);
    // On the port the file's sandbox holds: it loads the sandbox and web3.js, then exits 2.
    const port = new URL(sb.url).port;
    expect(web3(await loadedFiles(['sandbox', '--port', port], env, 2))).toBe(true);
  });
});

describe('before signing a buy: the wallet must pay deposit + network fee + rent-exempt minimum', () => {
  // 0.1 SOL + the sandbox deposit's fee (5,000 + 10,000 CU × 50,000 µlamports = 5,500) + 890,880 rent-exempt.
  const NEED = 100_000_000n + 5_500n + 890_880n;
  const sol = (lamports: bigint) =>
    `${lamports / 1_000_000_000n}.${(lamports % 1_000_000_000n).toString().padStart(9, '0')}`;

  async function buyWith(balance: bigint, args: string[] = ['--json']) {
    await sb.control('/balance', { sol: sol(balance) });
    await sb.clearRequests();
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.1sol', '--yes', ...args], { env: envFor(sb.url) });
    const log = await sb.requests();
    await sb.control('/balance', { sol: '100' });
    return {
      r,
      deposits: log.filter((e) => e.method === 'POST' && e.path.endsWith('/deposit')),
      cancels: log.filter((e) => e.path.endsWith('/cancel')),
    };
  }

  it('one lamport short: exit 2, nothing signed, no deposit sent, the intent cancelled, the sums named', async () => {
    const { r, deposits, cancels } = await buyWith(NEED - 1n);
    expect(r.code, r.stderr).toBe(2);
    const error = lastJsonError(r);
    expect(error.code).toBe('INSUFFICIENT_FUNDS');
    expect(error.message).toBe(
      'the wallet holds 0.100896379 SOL and this deposit needs 0.10089638 SOL: 0.1 SOL plus a network fee of at most 0.0000055 SOL plus 0.00089088 SOL the wallet must keep (rent-exempt minimum); the buy intent was cancelled; nothing was signed',
    );
    expect(deposits).toEqual([]);
    expect(cancels).toHaveLength(1);
  });

  it('exactly enough: the buy goes through, and the review shows the wallet before and after', async () => {
    const { r, deposits } = await buyWith(NEED, []);
    expect(r.code, r.stderr).toBe(0);
    expect(deposits).toHaveLength(1);
    expect(r.stderr).toMatch(/^Wallet\s+0\.10089638 SOL now, at least 0\.00089088 SOL after \(on chain\)$/m);
  });

  it("an unreachable RPC refuses an unattended buy before anything is created (its mint's risks unread); one that reads only the mint lets it go on with a warning", async () => {
    await sb.clearRequests();
    const down = await runCli(['buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json'], {
      env: { ...envFor(sb.url), TRADER_RPC_URL: await closedPortUrl() },
    });
    expect(down.code, down.stderr).toBe(6);
    expect(lastJsonError(down)).toMatchObject({
      code: 'TOKEN_RISKS_UNREAD',
      message: expect.stringMatching(/could not be read on chain \(.*connection refused/),
    });
    expect((await sb.requests()).filter((q) => q.method === 'POST')).toEqual([]);
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json'], {
      env: { ...envFor(sb.url), TRADER_RPC_URL: await mintOnlyRpc() },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).intent.status).toBe('completed');
    const warnings = stderrJson(r).map((l) => l.warning);
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) expect(w).toMatch(/^not checked on chain: .*node is behind/);
  });
});

describe("after progress: the trade's signatures checked on chain", () => {
  const buy = (extra: Record<string, string> = {}) =>
    runCli(['buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json'], { env: { ...envFor(sb.url), ...extra } });
  /** A holding of token 2 (bought through the API), and a sell of all of it. */
  async function sell(args: string[] = ['--json']) {
    const token = sb.tokens[2]!;
    await completeBuy(sb, { mint: token.mint });
    return runCli(['sell', token.mint, 'all', '--yes', ...args], { env: envFor(sb.url) });
  }

  it('a completed buy: deposit (the one signed) and swap verified; the API objects unchanged beside `verification`', async () => {
    const r = await buy();
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(Object.keys(out).sort()).toEqual(['idempotencyKey', 'intent', 'trade', 'verification']);
    expect(out.trade).toEqual((await sb.call('GET', `/trades/${out.intent.id}`)).body.data);
    expect(out.verification.verdict).toBe('verified');
    expect(out.verification.checks.map((c: any) => [c.role, c.signature, c.mark])).toEqual([
      ['deposit', out.trade.signatures.deposit, 'verified'],
      ['swap', out.trade.signatures.swaps[0], 'verified'],
      // What it received: the swap's token balances on chain.
      ['swap', out.trade.signatures.swaps[0], 'verified'],
    ]);
    expect(out.verification.received).toEqual({ tokens: out.trade.receivedOutputAmount });
    expect(out.verification.checks[0].chain).toMatch(
      /^0\.1 SOL from your wallet to the treasury \(fee 0\.0000055 SOL\)/,
    );
    expect(stderrJson(r)).toEqual([]);
  });

  it('a completed sell: the payout verified at least the signed minimum; human mode marks it', async () => {
    const r = await sell();
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(out.verification.verdict).toBe('verified');
    const payout = out.verification.checks.find((c: any) => c.role === 'payout');
    expect(payout).toMatchObject({ signature: out.trade.signatures.payouts[0], mark: 'verified' });
    expect(payout.expected).toContain(`at least`);
    const h = await sell([]);
    expect(h.code, h.stderr).toBe(0);
    expect(h.stdout).toMatch(/^On chain \(127\.0\.0\.1:\d+\): every claim verified on chain$/m);
    expect(h.stdout).toMatch(/^ {2}payout \w{8}…: verified: [\d.]+ SOL to your wallet, slot \d+$/m);
  });

  for (const [lie, evidence] of [
    ['phantom-payout', /payout \w+ should be at least [\d.]+ SOL to your wallet, but the chain shows: not on chain/],
    [
      'short-payout',
      /payout \w+ should be at least [\d.]+ SOL to your wallet, but the chain shows: pays [\d.]+ SOL to your wallet, less than the signed minimum/,
    ],
    [
      'payout-elsewhere',
      /payout \w+ should be at least [\d.]+ SOL to your wallet, but the chain shows: pays [\d.]+ SOL to an unknown third party \w+, not your wallet/,
    ],
  ] as const) {
    it(`the service lies (${lie}): exit 3 with the evidence and the command to look again; trades --verify agrees`, async () => {
      await sb.control('/lies', { lie });
      const r = await sell();
      expect(r.code, r.stderr).toBe(3);
      const error = lastJsonError(r);
      expect(error.code).toBe('CHAIN_CONTRADICTS_SERVICE');
      expect(error.message).toMatch(evidence);
      const out = json(r);
      expect(out.sell.status).toBe('completed'); // what the service said, passed through
      expect(error.message).toContain(`look again with: trader trades ${out.authorization.id} --verify`);
      const again = await runCli(['trades', out.authorization.id, '--verify', '--json'], { env: envFor(sb.url) });
      expect(again.code, again.stderr).toBe(3);
      expect(json(again).verification.verdict).toBe('contradicted');
      expect(lastJsonError(again).message).toMatch(evidence);
      expect(await sb.control('/lies')).toEqual([]);
    });
  }

  it('the service says a sell received three times what its payout paid (attack-1 §3): exit 3, never "every claim verified"; the summary gives the chain\'s figure; the honest control is verified', async () => {
    const p = await tamperProxy();
    const triple = (v: string | null) => (v === null ? v : String(BigInt(v) * 3n));
    p.rewrite('GET', /^\/api\/v1\/trades\/[^/]+$/, (body) => {
      if (body.data.side === 'sell') body.data.receivedOutputAmount = triple(body.data.receivedOutputAmount);
      return body;
    });
    const token = sb.tokens[2]!;
    await completeBuy(sb, { mint: token.mint });
    const r = await runCli(['sell', token.mint, '10%', '--yes', '--json'], { env: envFor(p.url) });
    expect(r.code, r.stderr).toBe(3);
    const out = json(r);
    expect(out.verification.verdict).toBe('contradicted');
    const paid = out.verification.received.payoutsLamports;
    expect(BigInt(out.trade.receivedOutputAmount)).toBe(BigInt(paid) * 3n);
    expect(lastJsonError(r)).toMatchObject({ code: 'CHAIN_CONTRADICTS_SERVICE' });
    expect(lastJsonError(r).message).toMatch(
      /payout \w+ should be [\d.]+ SOL to your wallet, as the service reports it received, but the chain shows: the payout pays [\d.]+ SOL in all/,
    );
    const human = await runCli(['sell', token.mint, '10%', '--yes'], { env: envFor(p.url) });
    expect(human.code, human.stderr).toBe(3);
    const received = /^SOL received\s+([\d.]+) SOL \(the service says ([\d.]+) SOL\)$/m.exec(human.stdout);
    expect(received, human.stdout).not.toBeNull();
    expect(Number(received![2])).toBeCloseTo(Number(received![1]) * 3, 9);
    expect(human.stdout).not.toContain('every claim verified');
    expect(human.stdout).toMatch(/the chain CONTRADICTS the service/);
    // The honest control, straight to the sandbox: its figure is the chain's, said once.
    const honest = await runCli(['sell', token.mint, '10%', '--yes'], { env: envFor(sb.url) });
    expect(honest.code, honest.stderr).toBe(0);
    expect(honest.stdout).toMatch(/^SOL received\s+[\d.]+ SOL$/m);
    expect(honest.stdout).toMatch(/every claim verified on chain/);
  });

  it('attack-2 §4: the service says a buy received ten times what its swap delivered: exit 3, never "every claim verified"; the summary gives the chain\'s figure; the honest control is verified', async () => {
    const p = await tamperProxy();
    p.rewrite('GET', /^\/api\/v1\/trades\/[^/]+$/, (body) => {
      if (body.data.side === 'buy' && body.data.receivedOutputAmount)
        body.data.receivedOutputAmount = String(BigInt(body.data.receivedOutputAmount) * 10n);
      return body;
    });
    const mint = sb.tokens[0]!.mint;
    const r = await runCli(['buy', mint, '0.1sol', '--yes', '--json'], { env: envFor(p.url) });
    expect(r.code, r.stderr).toBe(3);
    const out = json(r);
    expect(out.verification.verdict).toBe('contradicted');
    expect(BigInt(out.trade.receivedOutputAmount)).toBe(BigInt(out.verification.received.tokens) * 10n);
    expect(lastJsonError(r)).toMatchObject({ code: 'CHAIN_CONTRADICTS_SERVICE' });
    expect(lastJsonError(r).message).toMatch(
      /swap \w+ should be [\d,.]+ tokens \(\d+ raw units\) of \w+ delivered, as the service reports it received, but the chain shows: the swap delivers [\d,.]+ tokens \(\d+ raw units\) to token account \w+ of the service's trading wallet \w+ \(not your wallet/,
    );
    const human = await runCli(['buy', mint, '0.1sol', '--yes'], { env: envFor(p.url) });
    expect(human.code, human.stderr).toBe(3);
    expect(human.stdout).toMatch(/^Received\s+[\d,.]+ \S+ \(the service says [\d,.]+ \S+\)$/m);
    expect(human.stdout).not.toContain('every claim verified');
    // The honest control: the swap's token balances show what the service reports.
    const honest = await runCli(['buy', mint, '0.1sol', '--yes', '--json'], { env: envFor(sb.url) });
    expect(honest.code, honest.stderr).toBe(0);
    expect(json(honest).verification).toMatchObject({
      verdict: 'verified',
      received: { tokens: json(honest).trade.receivedOutputAmount },
    });
  });

  it("attack-3 F5: a sell reported completed with no payout and 0.9 SOL received: 'SOL received  none on chain (the service says 0.9 SOL)', never Sold, exit 3; the honest control is Sold with the chain's figure", async () => {
    const p = await tamperProxy();
    p.rewrite('GET', /^\/api\/v1\/trades\/[^/]+$/, (body) => {
      if (body.data.side === 'sell' && body.data.stage === 'completed')
        Object.assign(body.data, {
          receivedOutputAmount: '900000000',
          signatures: { ...body.data.signatures, payouts: [] },
        });
      return body;
    });
    const token = sb.tokens[2]!;
    await completeBuy(sb, { mint: token.mint });
    const r = await runCli(['sell', token.mint, '10%', '--yes'], { env: envFor(p.url) });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/^Amount\s+\S+ \S+$/m);
    expect(r.stdout).not.toMatch(/^Sold/m);
    expect(r.stdout).toMatch(/^SOL received\s+none on chain \(the service says 0\.9 SOL\)$/m);
    expect(r.stderr).toContain('the service reports the sell completed but names no payout');
    const honest = await runCli(['sell', token.mint, '10%', '--yes'], { env: envFor(sb.url) });
    expect(honest.code, honest.stderr).toBe(0);
    expect(honest.stdout).toMatch(/^Sold\s+\S+ \S+\nSOL received\s+[\d.]+ SOL$/m);
  });

  it("attack-3 F4, attack-log-2 C: a sell whose swap the service names as the owner's own buy deposit contradicts it (one transaction proves one trade); an older swap of the mint contradicts it too (landed before the sell); never 'verified: succeeded' or 'every claim verified'; the honest swap is verified", async () => {
    const home = freshHome();
    // A swap of the same mint, landed before this test's trades were made (the sandbox clock moves on after it).
    const older = await completeBuy(sb, { mint: sb.tokens[2]!.mint });
    const oldSwap = (await sb.call('GET', `/trades/${older.intent.id}`)).body.data.signatures.swaps[0] as string;
    await sb.advance(5);
    const bought = await runCli(['buy', sb.tokens[2]!.mint, '0.1sol', '--yes', '--json'], {
      env: envFor(sb.url, home),
    });
    expect(bought.code, bought.stderr).toBe(0);
    const deposit = json(bought).trade.signatures.deposit;
    const p = await tamperProxy();
    let named = deposit;
    p.rewrite('GET', /^\/api\/v1\/trades\/[^/]+$/, (body) => {
      if (body.data.side === 'sell') body.data.signatures = { ...body.data.signatures, swaps: [named] };
      return body;
    });
    const r = await runCli(['sell', sb.tokens[2]!.mint, '10%', '--yes'], { env: envFor(p.url, home) });
    expect(r.code, r.stderr).toBe(3);
    // The swap is claimed under the journal's lock as the deposit was: the claim names the buy it proved.
    expect(r.stderr).toContain(
      `swap ${deposit} should be a swap that succeeded, but the chain shows: this transaction already proved trade ${json(bought).intent.id} (as its deposit); one transaction proves one trade, so it cannot prove sell_`,
    );
    expect(r.stdout).toContain('On chain (127.0.0.1:');
    expect(r.stdout).not.toContain('every claim verified');
    const id = /^Sell\s+(sell_\w+)$/m.exec(r.stdout)![1]!;
    const verify = await runInProcess(['trades', id, '--verify', '--json'], envFor(p.url, home));
    expect(verify.code, verify.stderr).toBe(3);
    expect(lastJsonError(verify).code).toBe('CHAIN_CONTRADICTS_SERVICE');
    expect(json(verify).verification.checks.find((c: any) => c.role === 'swap')).toMatchObject({
      signature: deposit,
      mark: 'contradicts',
    });
    // An older swap of the same mint, on a machine whose journal knows neither: landed before the sell was made.
    named = oldSwap;
    const old = await runInProcess(['trades', id, '--verify', '--json'], envFor(p.url, freshHome()));
    expect(old.code, old.stderr).toBe(3);
    expect(lastJsonError(old).code).toBe('CHAIN_CONTRADICTS_SERVICE');
    expect(json(old).verification.checks.find((c: any) => c.role === 'swap')).toMatchObject({
      signature: oldSwap,
      mark: 'contradicts',
      chain: expect.stringMatching(/^landed at .+, before the trade was created: it cannot be its swap$/),
    });
    // The same sell as the sandbox names it: its swap touches the mint and is verified.
    const honest = await runInProcess(['trades', id, '--verify', '--json'], envFor(sb.url, home));
    expect(honest.code, honest.stderr).toBe(0);
    expect(json(honest).verification.checks.find((c: any) => c.role === 'swap')).toMatchObject({
      mark: 'verified',
      chain: expect.stringMatching(/^succeeded, slot \d+$/),
    });
  });

  it("the service says a buy refunded more than the chain shows: exit 3; the summary gives the chain's figure", async () => {
    const p = await tamperProxy();
    p.rewrite('GET', /^\/api\/v1\/trades\/[^/]+$/, (body) => {
      if (body.data.refund?.amountLamports)
        body.data.refund.amountLamports = String(BigInt(body.data.refund.amountLamports) + 1n);
      return body;
    });
    await sb.control('/fail-next-swap', { count: 1 });
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.1sol', '--yes'], { env: envFor(p.url) });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/^Refund\s+complete, ([\d.]+) SOL \(the service says [\d.]+ SOL\)$/m);
    expect(r.stderr).toMatch(
      /refund \w+ should be at least [\d.]+ SOL back to your wallet, but the chain shows: pays [\d.]+ SOL to your wallet, less than the refund the service reports/,
    );
  });

  it('attack-2 §2: a refund of 8% of the deposit, the platform fee raised after signing to swallow the rest: held to the fee the review showed, exit 3; trades --verify says the same', async () => {
    await sb.control('/fail-next-swap', { count: 1 });
    await sb.control('/lies', { lie: 'short-refund' });
    const env = envFor(sb.url);
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json'], { env });
    expect(r.code, r.stderr).toBe(3);
    const out = json(r);
    expect(out.verification.verdict).toBe('contradicted');
    const deposit = BigInt(out.intent.amountLamports);
    // The service now reports a fee of 92% and a refund of 8%, which agree with each other and with the chain.
    expect(BigInt(out.trade.platformFeeLamports)).toBe(deposit - (deposit * 8n) / 100n);
    expect(lastJsonError(r).message).toMatch(
      /refund \w+ should be at least [\d.]+ SOL back to your wallet, but the chain shows: pays [\d.]+ SOL to your wallet, less than the deposit less the platform fee shown before signing/,
    );
    const again = await runCli(['trades', out.intent.id, '--verify', '--json'], { env });
    expect(again.code, again.stderr).toBe(3);
    expect(lastJsonError(again).code).toBe('CHAIN_CONTRADICTS_SERVICE');
    // Another machine, whose journal never saw the review: the refund is on chain, its amount only the service's word — never "every claim verified".
    const elsewhere = await runCli(['trades', out.intent.id, '--verify'], { env: envFor(sb.url, freshHome()) });
    expect(elsewhere.code, elsewhere.stderr).toBe(3);
    expect(elsewhere.stdout).not.toContain('every claim verified');
    expect(elsewhere.stdout).toContain("on chain, but not every claim: some are only the service's word");
    expect(elsewhere.stderr).toContain('not every claim is proven on chain');
  });

  it('the service lies about a refund (phantom-refund): exit 3, not a refunded buy; attack-log-2 E1b, G: malformed swap signatures beside it change nothing of that and leave no damaged journal line', async () => {
    await sb.control('/fail-next-swap', { count: 1 });
    await sb.control('/lies', { lie: 'phantom-refund' });
    const p = await tamperProxy();
    p.rewrite('GET', /^\/api\/v1\/trades\/[^/]+$/, (body) => {
      body.data.signatures.swaps = [...body.data.signatures.swaps, '1111', ''];
      return body;
    });
    const home = freshHome();
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json'], { env: envFor(p.url, home) });
    expect(r.code, r.stderr).toBe(3);
    expect(json(r).intent.status).toBe('refunded');
    expect(lastJsonError(r).code).toBe('CHAIN_CONTRADICTS_SERVICE');
    const checks = json(r).verification.checks;
    expect(checks.find((c: any) => c.role === 'refund').chain).toBe('not on chain');
    expect(checks.filter((c: any) => c.signature === null).map((c: any) => c.chain)).toEqual([
      'the service names "1111" as the swap, which names no transaction (not asked of the chain)',
      'the service names "" as the swap, which names no transaction (not asked of the chain)',
    ]);
    expect(r.stderr).not.toContain('WrongSize');
    const again = await runInProcess(['trades', json(r).intent.id, '--verify', '--json'], envFor(p.url, home));
    expect(again.code, again.stderr).toBe(3);
    expect(lastJsonError(again).code).toBe('CHAIN_CONTRADICTS_SERVICE');
    expect(again.stderr).not.toContain('damaged');
  });

  it('an honest refund is verified: exit 4 as a refunded buy', async () => {
    await sb.control('/fail-next-swap', { count: 1 });
    const r = await buy();
    expect(r.code, r.stderr).toBe(4);
    const v = json(r).verification;
    expect(v.verdict).toBe('verified');
    expect(v.checks.map((c: any) => [c.role, c.mark])).toEqual([
      ['deposit', 'verified'],
      ['swap', 'verified'],
      ['refund', 'verified'],
    ]);
    // Another machine, whose journal never saw the review: the whole deposit back, on chain, proves the buy owes nothing more.
    const elsewhere = await runInProcess(['trades', json(r).intent.id, '--verify'], envFor(sb.url, freshHome()));
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.stdout.replace(/\n {13}/g, ' ')).toContain(
      'the whole deposit back, so this buy owes nothing more',
    );
    expect(elsewhere.stdout).toContain('every claim verified on chain');
  });

  it('an RPC that reads only the mint: the trade completes with a warning; trades --verify with an unreachable one is exit 3', async () => {
    const url = await closedPortUrl();
    const home = freshHome();
    const p = await tamperProxy();
    let forge: ((trade: any) => void) | null = null;
    p.rewrite('GET', /^\/api\/v1\/trades\/[^/]+$/, (body) => (forge?.(body.data), body));
    p.rewrite('GET', /^\/api\/v1\/trades\/[^/]+\/status$/, (body) => (forge?.(body.data), body));
    const r = await runCli(['buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json'], {
      env: { ...envFor(p.url, home), TRADER_RPC_URL: await mintOnlyRpc() },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).verification).toMatchObject({ verdict: 'unchecked' });
    const id = json(r).intent.id;
    const ok = await runCli(['trades', id, '--verify'], { env: envFor(p.url, home) });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.split('\n')[0]).toBe(`Buy ${id}`); // which trade was checked heads the claims (trial 4)
    // The read of this buy answered with another id (a line break and a verdict of the service's
    // making in it), or this tool's buy called a sell (attack-log-3 F4, F4b): exit 3, shown or
    // verified, never a heading or a verdict of another trade.
    forge = (trade) => (trade.id = `${trade.id}\nOn chain (127.0.0.1): every claim verified on chain`);
    const forged = await runCli(['trades', id, '--verify'], { env: envFor(p.url, home) });
    expect([forged.code, forged.stdout]).toEqual([3, '']);
    expect(forged.stderr).toContain(`the service answered the read of trade "${id}" with trade "${id}\\nOn chain`);
    forge = (trade) => (trade.side = 'sell');
    for (const args of [
      ['trades', id, '--verify'],
      ['trades', id],
      ['trades', id, '--status'],
    ]) {
      const sold = await runCli(args, { env: envFor(p.url, home) });
      expect([sold.code, sold.stdout], sold.stderr).toEqual([3, '']);
      expect(sold.stderr).toContain(
        `the service reports trade ${id} as a sell, but this tool made it as a buy (its journal)`,
      );
    }
    // A read whose transactions are another trade's is contradicted, and not kept as this trade's:
    // that trade still verifies afterwards (attack-log-4 R4-4).
    forge = null;
    const other = await runCli(['buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json'], { env: envFor(p.url, home) });
    expect(other.code, other.stderr).toBe(0);
    const { id: otherId } = json(other).intent;
    const otherSwap = json(other).trade.signatures.swaps[0];
    forge = (trade) => (trade.id === id ? (trade.signatures.swaps = [otherSwap]) : null);
    const borrowed = await runCli(['trades', id, '--verify'], { env: envFor(p.url, home) });
    expect(borrowed.code, borrowed.stderr).toBe(3);
    expect(borrowed.stderr).toContain(`already proved trade ${otherId}`);
    forge = null;
    const honest = await runCli(['trades', otherId, '--verify'], { env: envFor(p.url, home) });
    expect(honest.code, honest.stderr).toBe(0);
    expect(honest.stdout).toContain('every claim verified on chain');
    // At 80 columns each claim is a block of lines: wrapped, never cut; piped, a signature wider than the line stays whole.
    expect(ok.stdout).toMatch(/^WHAT {9}deposit$/m);
    expect(ok.stdout).not.toContain('…');
    const signatures = [...ok.stdout.matchAll(/^SIGNATURE {4}(\w+)$/gm)].map((m) => m[1]!);
    expect(signatures).toHaveLength(3);
    for (const line of ok.stdout.split('\n'))
      if (!signatures.some((sig) => line.includes(sig))) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(ok.stdout.replace(/\n {13}/g, ' ')).toMatch(
      /token account \w+ of the service's trading wallet \w+ \(not your wallet/,
    );
    expect(ok.stdout).toContain('every claim verified on chain');
    const down = await runCli(['trades', id, '--verify', '--json'], {
      env: { ...envFor(sb.url), TRADER_RPC_URL: url },
    });
    expect(down.code).toBe(3);
    expect(lastJsonError(down).code).toBe('CHAIN_UNREACHABLE');
  });

  it('a signed deposit not on chain yet: it may still land until its last valid block (exit 5 as before); never said to be unspent', async () => {
    await withDelays({ confirmSeconds: 1e6 }, async () => {
      const r = await runCli(['buy', sb.tokens[0]!.mint, '0.1sol', '--yes', '--json', '--timeout', '1'], {
        env: envFor(sb.url),
      });
      expect(r.code, r.stderr).toBe(5);
      const v = json(r).verification;
      expect(v.verdict).toBe('incomplete');
      expect(v.deposit).toMatchObject({ onChain: false, proven: false });
      expect(v.checks[0].chain).toContain(
        `its blockhash is still valid, so it may still land (the service gives block ${v.deposit.lastValidBlockHeight} as its last)`,
      );
    });
  });
});
