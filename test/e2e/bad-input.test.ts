// Malformed input never reaches the service: every argument and option of every command, given
// a bad value, is exit 2 with a one-line error and ZERO requests in the sandbox's log. Then the
// local refusals before a trade: no TTY without --yes, --json without --yes, keypair problems,
// profile limits, and a keypair that is not the account's wallet.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trusted } from '../helpers/trust.js';
import { expectJsonError, lines } from '../helpers/cli-assert.js';
import { freshHome, runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { completeBuy, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

let sb: TestSandbox;
let env: Record<string, string>;
let M: string;
let dir: string;
const U = '3f0c2a9e-1b2c-4d5e-8f90-0123456789ab';
const U64_PLUS_ONE = '18446744073709551616';

beforeAll(async () => {
  sb = await startTestSandbox();
  M = sb.tokens[0]!.mint;
  await completeBuy(sb, { mint: M }); // something to sell, so a bad sell is refused for its input alone
  env = trusted({
    ...freshHome(),
    TRADER_BASE_URL: sb.url,
    TRADER_API_KEY: sb.apiKey,
    TRADER_KEYPAIR: sb.keypairPath,
    TRADER_RPC_URL: sb.rpcUrl,
  });
  dir = tempDir('trader-bad-input-');
});
afterAll(async () => {
  await sb?.close();
});

/** Runs `fn` over `items` with at most `n` at a time (2 cores: a few processes at once is fastest). */
async function pool<T, R>(items: T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

interface Case {
  args: string[];
  /** What the one error line must say. */
  says?: RegExp;
  env?: Record<string, string>;
}

// Buy and sell cases carry --yes so the argument, not the missing confirmation, is what is refused.
const buy = (amount: string, ...more: string[]): Case => ({
  args: ['buy', M, amount, '--yes', ...more],
  says: /amount/,
});
const sell = (amount: string, ...more: string[]): Case => ({
  args: ['sell', M, amount, '--yes', ...more],
  says: /amount/,
});
const cases = (): Case[] => [
  // buy <amount>
  ...[
    '',
    '0',
    '-1',
    '1.5',
    '1e9',
    '0x10',
    '1,00',
    ' 1',
    '1 ',
    U64_PLUS_ONE,
    '0.0000000001sol',
    'abc',
    '.5sol',
    '1sol2',
    '0sol',
    '-0.1sol',
    '１００',
  ].map((a) => (a.startsWith('-') ? { ...buy(a), says: /invalid amount "-[0-9.]+(sol)?": it is negative/ } : buy(a))),
  // buy <token>: neither a mint, nor a symbol, nor a mint prefix (those are looked up, so not here)
  ...[
    '',
    'not base58 0OIl',
    '1!1',
    `${M}x`,
    `${M} `,
    '1'.repeat(45),
    'O'.repeat(44),
    `${M.slice(0, 20)}/`,
    'x'.repeat(17) + '-',
  ].map((m) => ({
    args: ['buy', m, '1000', '--yes'],
    says: /mint/,
  })),
  // buy options
  ...['10001', '1.5', 'abc', '', '1e2', '-1'].map((v) => ({
    args: ['buy', M, '1000', '--yes', '--slippage-bps', v],
    says: /slippage-bps/,
  })),
  ...['-1', 'abc', '1.5', U64_PLUS_ONE, ''].map((v) => ({
    args: ['buy', M, '1000', '--yes', '--max-fee-lamports', v],
    says: /max-fee-lamports/,
  })),
  ...['a b', '', 'x'.repeat(129), 'key/with/slash', 'ключ'].map((v) => ({
    args: ['buy', M, '1000', '--yes', '--idempotency-key', v],
    says: /idempotency-key/,
  })),
  { args: ['buy', M], says: /missing required argument 'amount'/ },
  { args: ['buy', M, '1000', 'extra', '--yes'], says: /too many arguments/ },
  // sell <amount>
  ...['0%', '101%', '50.5%', '-5%', '-5', 'abc', '0', '1.5', '', U64_PLUS_ONE, '1e3', '%', 'all%', 'ALLL'].map((a) =>
    a.startsWith('-') ? { ...sell(a), says: /invalid amount "-5%?": it is negative/ } : sell(a),
  ),
  // sell <amount> in whole tokens: what the parser alone refuses (unit and places need the holding)
  ...[
    '0tokens',
    '0.0sgld',
    '.5tokens',
    '05tokens',
    '1.5.5tokens',
    '1.5 tokens',
    '1.5tokens!',
    `1${'x'.repeat(17)}`,
  ].map((a) => sell(a)),
  { ...sell('-1.5tokens'), says: /invalid amount "-1\.5tokens": it is negative/ },
  {
    ...sell('1.5'),
    says: /invalid amount "1\.5": a number with decimal places is whole tokens and needs the unit: 1\.5tokens; use raw token units/,
  },
  // sell <token> and options
  ...['not a mint!', '', '0'.repeat(40), 'WOOF/../x'].map((t) => ({ args: ['sell', t, '10', '--yes'], says: /token/ })),
  ...['abc', '-1', '0.0000000001', '1e-3', ''].map((v) => ({
    args: ['sell', M, '10', '--yes', '--min-sol', v],
    says: /min-sol/,
  })),
  ...['10001', '-1', '1.5'].map((v) => ({
    args: ['sell', M, '10', '--yes', '--slippage-bps', v],
    says: /slippage-bps/,
  })),
  { args: ['sell', M, '10', '--yes', '--idempotency-key', 'has spaces'], says: /idempotency-key/ },
  // cancel <buyId>
  ...['not-a-uuid', '', `${U}x`, 'sell_abc', '../me', U.replace(/-/g, ''), `${U.slice(0, -1)}g`].map((id) => ({
    args: ['cancel', id],
    says: /buy id/,
  })),
  // positions [id] and options
  ...['not-a-uuid', '../activity', `${U} `, '%2e%2e'].map((id) => ({ args: ['positions', id], says: /position id/ })),
  ...['0', '101', 'abc', '1.5', '-1', '', '1e1', ' 5'].flatMap((v) => [
    { args: ['positions', '--limit', v], says: /--limit|option/ },
    { args: ['activity', '--limit', v], says: /--limit|option/ },
  ]),
  ...['foo', '', 'OPEN', 'open,closed'].map((v) => ({ args: ['positions', '--status', v], says: /--status/ })),
  { args: ['positions', '--cursor', ''], says: /--cursor/ },
  { args: ['positions', '--cursor', 'a\u0007b'], says: /--cursor/ },
  // activity options
  ...['foo', 'buy,foo', '', 'buy,,sell', 'BUY'].map((v) => ({ args: ['activity', '--type', v], says: /--type/ })),
  { args: ['activity', '--cursor', ''], says: /--cursor/ },
  // pnl options
  ...['yesterday', '', '2026-13-01', '2026-02-30', '2026-01-01T00:00', '01/02/2026', '2026-1-1'].map((v) => ({
    args: ['pnl', '--since', v],
    says: /--since/,
  })),
  ...['', 'a b', 'x'.repeat(65), 'ab\u0007'].map((v) => ({ args: ['pnl', '--token', v], says: /--token/ })),
  // trades <id> and options
  ...['', 'a b', '../x', 'sell_', 'sell_a/b', 'x'.repeat(201), '-x', '.hidden', 'id?x=1', 'id#frag'].map((id) => ({
    args: ['trades', '--', id],
    says: /id/,
  })),
  ...['1', '0', '-1', 'abc', '1.9', ''].map((v) => ({
    args: ['trades', U, '--watch', '--interval', v],
    says: /--interval|option/,
  })),
  // global options
  ...['-1', 'abc', '0', '', '1e3'].map((v) => ({ args: ['--timeout', v, 'me'], says: /--timeout|option/ })),
  ...['abc', '-5', '0', 'NaN', 'Infinity'].map((v) => ({
    args: ['me', '--request-timeout', v],
    says: /--request-timeout|option/,
  })),
  { args: ['me'], env: { TRADER_TIMEOUT: 'soon' }, says: /TRADER_TIMEOUT/ },
  { args: ['me', '--base-url', 'not a url'], says: /url/i },
  { args: ['me', '--base-url', 'ftp://127.0.0.1/'], says: /url|http/i },
  { args: ['me', '--base-url', 'http://example.com'], says: /http|insecure/i },
  { args: ['me'], env: { TRADER_API_KEY: 'has space' }, says: /API key/ },
  // commands and options that do not exist
  { args: ['by', M, '1'], says: /unknown command 'by'.*buy/ },
  { args: ['posistions'], says: /unknown command.*positions/ },
  { args: ['me', '--bogus'], says: /unknown option '--bogus'/ },
  { args: ['buy', M, '1000', '--yes', '--slipage-bps', '5'], says: /unknown option '--slipage-bps'.*slippage-bps/ },
  { args: ['me', 'extra'], says: /too many arguments/ },
  { args: ['positions', U, U], says: /too many arguments/ },
  { args: ['trades', '--watch'], says: /--watch follows one trade/ },
  { args: ['trades', U, '--limit', '5'], says: /--limit is for the list/ },
  ...['0', '101', 'x'].map((v) => ({ args: ['trades', '--limit', v], says: /--limit/ })),
  { args: ['cancel'], says: /missing required argument/ },
  { args: ['completion', 'powershell'], says: /bash|zsh|fish/ },
  { args: ['sandbox', '--port', '70000'], says: /--port/ },
  // An empty flag never falls back to the environment or the profile.
  ...['--base-url', '--api-key', '--profile', '--treasury'].map((flag) => ({
    args: [flag, '', 'me'],
    says: new RegExp(`${flag} was given an empty value`),
  })),
  { args: ['buy', M, '1000', '--yes', '--keypair', ''], says: /--keypair was given an empty value/ },
];

describe('every malformed argument: exit 2, one line, no request', () => {
  // Every case runs in-process (src/run.ts: the same parsing, checks and error lines as the
  // binary, without a process start each), in human and in --json mode; what each argument is
  // parsed into, and each message, is the table tier's (test/unit/argv.test.ts). A sample also
  // runs through the built binary, to show main.ts adds nothing between.
  const run = (c: Case, i: number, extra: string[] = []) =>
    // A distinct key per case, so a request that leaks names its case in the log (keyPrefix).
    runInProcess([...c.args, ...extra], { PATH: process.env.PATH, ...env, TRADER_API_KEY: keyOf(i), ...c.env });
  const keyOf = (i: number) => `c${String(i).padStart(5, '0')}${'x'.repeat(30)}`;
  const leaks = async (all: Case[]) =>
    (await sb.requests()).map((q) => {
      const i = Number(/^c(\d{5})/.exec(q.keyPrefix ?? '')?.[1] ?? NaN);
      return `a request reached the sandbox: ${q.method} ${q.path} from ${JSON.stringify(all[i]?.args ?? q.keyPrefix)}`;
    });

  it('human mode', async () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(140);
    await sb.clearRequests();
    const results = await pool(all, 1, (c, i) => run(c, i));
    const problems: string[] = [];
    results.forEach((r, i) => {
      const c = all[i]!;
      const errLines = lines(r.stderr);
      const what = `trader ${JSON.stringify(c.args)}${c.env ? ` ${JSON.stringify(c.env)}` : ''}: exit ${r.code}, stderr ${JSON.stringify(r.stderr)}`;
      if (r.code !== 2) problems.push(`${what} — expected exit 2`);
      else if (errLines.length !== 1 || !errLines[0]!.startsWith('error: '))
        problems.push(`${what} — expected one "error:" line`);
      else if (c.says && !c.says.test(errLines[0]!)) problems.push(`${what} — expected it to say ${c.says}`);
      else if (/\bundefined\b|\bat .+:\d+:\d+/.test(r.stderr)) problems.push(`${what} — undefined or a stack trace`);
      if (r.stdout !== '') problems.push(`${what} — stdout not empty: ${JSON.stringify(r.stdout.slice(0, 200))}`);
    });
    problems.push(...(await leaks(all)));
    expect(problems).toEqual([]);
  });

  it('--json mode: stdout empty, stderr one {"error"} line with status null', async () => {
    const all = cases();
    await sb.clearRequests();
    const results = await pool(all, 1, (c, i) => run(c, i, ['--json']));
    results.forEach((r, i) => {
      const label = JSON.stringify(all[i]!.args);
      expect(r.stdout, label).toBe('');
      expect(lines(r.stderr), label).toHaveLength(1);
      const err = expectJsonError(r, 2);
      expect(err.status, label).toBeNull();
      expect(err.requestId, label).toBeNull();
    });
    expect(await leaks(all)).toEqual([]);
  });

  it('the same through the built binary (a sample, both modes): exit 2, one line, no request', async () => {
    const picked = cases().filter((_, i) => i % 12 === 5);
    await sb.clearRequests();
    const results = await pool(picked, 4, (c, i) =>
      runCli(i % 2 ? [...c.args, '--json'] : c.args, { env: { ...env, ...c.env } }),
    );
    results.forEach((r, i) => {
      const c = picked[i]!;
      const label = JSON.stringify(c.args);
      expect(r.code, `${label}: ${r.stderr}`).toBe(2);
      expect(lines(r.stderr), label).toHaveLength(1);
      if (i % 2) expect(expectJsonError(r, 2).status, label).toBeNull();
      else {
        expect(r.stderr, label).toMatch(/^error: /);
        if (c.says) expect(r.stderr, label).toMatch(c.says);
      }
      expect(r.stdout, label).toBe('');
    });
    expect(await sb.requests()).toEqual([]);
  });
});

it('no command at all: the help on stdout, exit 0 (so `trader | less` works), as for a group alone (`trader config`); with --json no help (it is no JSON document): exit 2, one JSON error line, stdout empty', async () => {
  await sb.clearRequests();
  const [bare, help, group, groupHelp, machine, groupMachine] = await Promise.all([
    runCli([], { env }),
    runCli(['--help'], { env }),
    runCli(['config'], { env }),
    runCli(['config', '--help'], { env }),
    runCli(['--json'], { env }),
    runCli(['config', '--json'], { env }),
  ]);
  expect(bare.code, bare.stderr).toBe(0);
  expect(bare.stderr).toBe('');
  expect(bare.stdout).toMatch(/^Usage: trader \[options\] <command>\n/);
  expect(bare.stdout).toBe(help.stdout);
  expect(group.code, group.stderr).toBe(0);
  expect(group.stderr).toBe('');
  expect(group.stdout).toMatch(/^Usage: trader config /);
  expect(group.stdout).toBe(groupHelp.stdout);
  for (const r of [machine, groupMachine]) {
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)).toHaveLength(1);
    expect(expectJsonError(r, 2)).toMatchObject({
      code: 'USAGE',
      message: 'no command given (run with --help for usage)',
    });
  }
  expect(await sb.requests()).toEqual([]);
});

describe('before a trade', () => {
  const write = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content, { mode: 0o600 });
    return path;
  };

  it('no TTY and no --yes, or --json without --yes: exit 2 naming --yes, no request', async () => {
    await sb.clearRequests();
    const [b, s, bj, sj] = await Promise.all([
      runCli(['buy', M, '0.1sol'], { env }),
      runCli(['sell', M, 'all'], { env }),
      runCli(['buy', M, '0.1sol', '--json'], { env }),
      runCli(['sell', M, '50%', '--json'], { env }),
    ]);
    for (const r of [b, s]) {
      expect(r.code, r.stderr).toBe(2);
      expect(lines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(/--yes/);
    }
    for (const r of [bj, sj]) expect(expectJsonError(r, 2).message).toMatch(/--yes/);
    expect(await sb.requests()).toEqual([]);
    // A dry run signs nothing, so it needs no --yes; it never deposits.
    const dryRun = await runCli(['buy', M, '0.1sol', '--dry-run', '--json'], { env });
    expect(dryRun.code, dryRun.stderr).toBe(0);
    const posts = (await sb.requests()).filter((q) => q.method === 'POST').map((q) => q.path);
    expect(posts.some((p) => p.endsWith('/deposit'))).toBe(false);
  });

  it('keypair file missing, not JSON, wrong length, wrong second half: exit 2, no request', async () => {
    const real = JSON.parse(readFileSync(sb.keypairPath, 'utf8')) as number[];
    const flipped = [...real];
    flipped[63] = (flipped[63]! + 1) % 256;
    const files = {
      missing: join(dir, 'nope.json'),
      notJson: write('not-json.json', 'this is not json [1,2'),
      short: write('short.json', JSON.stringify(real.slice(0, 32))),
      notBytes: write('not-bytes.json', JSON.stringify(real.map((v, i) => (i === 5 ? 256 : v)))),
      wrongHalf: write('wrong-half.json', JSON.stringify(flipped)),
      directory: dir,
    };
    await sb.clearRequests();
    const entries = Object.entries(files);
    const results = await Promise.all(
      entries.flatMap(([, path]) => [
        runCli(['buy', M, '0.1sol', '--yes', '--keypair', path], { env }),
        runCli(['sell', M, 'all', '--yes', '--json'], { env: { ...env, TRADER_KEYPAIR: path } }),
      ]),
    );
    results.forEach((r, i) => {
      const [name, path] = entries[Math.floor(i / 2)]!;
      if (i % 2 === 0) {
        expect(r.code, `${name}: ${r.stderr}`).toBe(2);
        expect(lines(r.stderr), name).toHaveLength(1);
        expect(r.stderr, name).toContain(path);
      } else {
        expect(expectJsonError(r, 2).code, name).toBe('KEYPAIR');
      }
      expect(r.stderr, name).not.toMatch(/\[1,2|this is not json/); // the file's content is never echoed
    });
    expect(results[8]!.stderr).toMatch(/second half/);
    expect(await sb.requests()).toEqual([]);
  });

  it("a keypair that is not the account's wallet: exit 2 naming both addresses; only GET /me was sent", async () => {
    const stranger = Keypair.generate();
    const path = write('stranger.json', JSON.stringify(Array.from(stranger.secretKey)));
    await sb.clearRequests();
    const [b, s] = await Promise.all([
      runCli(['buy', M, '0.1sol', '--yes', '--keypair', path], { env }),
      runCli(['sell', M, 'all', '--yes', '--keypair', path, '--json'], { env }),
    ]);
    expect(b.code, b.stderr).toBe(2);
    expect(lines(b.stderr)).toHaveLength(1);
    expect(b.stderr).toContain(stranger.publicKey.toBase58());
    expect(b.stderr).toContain(sb.walletAddress);
    const err = expectJsonError(s, 2);
    expect(err.message).toContain(stranger.publicKey.toBase58());
    expect(err.message).toContain(sb.walletAddress);
    const seen = (await sb.requests()).map((q) => `${q.method} ${q.path}`);
    expect(seen.length).toBeGreaterThan(0);
    expect(
      seen.every((p) => p === 'GET /api/v1/me'),
      seen.join(', '),
    ).toBe(true);
  });

  it("over the profile's maxBuyLamports or maxSlippageBps: exit 2, no request", async () => {
    const h = freshHome();
    writeFileSync(
      h.TRADER_CONFIG,
      JSON.stringify({ profiles: { default: { maxBuyLamports: '100000000', maxSlippageBps: 200 } } }),
      { mode: 0o600 },
    );
    const e = trusted({ ...env, ...h });
    await sb.clearRequests();
    const [overBuy, atBuy, overSlip, sellSlip] = await Promise.all([
      runCli(['buy', M, '0.100000001sol', '--yes'], { env: e }),
      runCli(['buy', M, '0.1sol', '--dry-run', '--json'], { env: e }),
      runCli(['buy', M, '1000', '--yes', '--slippage-bps', '201'], { env: e }),
      runCli(['sell', M, 'all', '--yes', '--slippage-bps', '500', '--json'], { env: e }),
    ]);
    expect(overBuy.code, overBuy.stderr).toBe(2);
    expect(overBuy.stderr).toBe(
      `error: <amount> 0.100000001sol (100000001 lamports) is over profile "default"'s maxBuyLamports, 0.1 SOL (100000000 lamports); nothing was sent\na person may raise it: trader config set maxBuyLamports <n>sol\n`,
    );
    expect(overSlip.code, overSlip.stderr).toBe(2);
    expect(overSlip.stderr).toBe(
      `error: --slippage-bps 201 is over profile "default"'s maxSlippageBps (200); nothing was sent\na person may raise it: trader config set maxSlippageBps <bps>\n`,
    );
    expect(expectJsonError(sellSlip, 2).code).toBe('OVER_LIMIT');
    expect(atBuy.code, atBuy.stderr).toBe(0); // exactly at the limit is allowed
    const seen = await sb.requests();
    expect(seen.every((q) => q.keyPrefix !== null)).toBe(true);
    expect(seen.length).toBeGreaterThan(0); // the dry run's
    expect(
      seen
        .filter((q) => q.method === 'POST' && q.path === '/api/v1/trade/buys')
        .map((q) => (q.body as { amountLamports: string }).amountLamports),
    ).toEqual(['100000000']);
  });
});

describe('input only the service refuses, on a create (nothing created, nothing signed)', () => {
  it('400 and 422 are exit 2 / usage with the service reason; a 5xx on the same create stays exit 3 / service', async () => {
    const unknownMint = '11111111111111111111111111111111';
    // A 5xx for one sell create (its exact path is shared, so the fault counts this run only).
    await sb.control('/faults', {
      match: { method: 'POST', path: '/trade/sells', exact: true },
      status: 503,
      retryAfter: 0,
      count: 4,
    });
    const [small, smallSol, notTraded, human, busy] = await Promise.all([
      runCli(['buy', M, '999', '--yes', '--json'], { env }),
      runCli(['buy', M, '0.00001sol', '--yes', '--json'], { env }),
      runCli(['buy', unknownMint, '0.1sol', '--yes', '--json'], { env }),
      runCli(['buy', unknownMint, '0.1sol', '--yes'], { env }),
      runCli(['sell', M, '1000', '--yes', '--json'], { env }),
    ]);
    const a = expectJsonError(small, 2);
    expect(a).toMatchObject({ code: 'AMOUNT_TOO_SMALL', status: 400, category: 'usage', retryable: false });
    // A bare number is lamports: the refusal says so, with the SOL it meant and how to write SOL; typed in SOL, not.
    expect(a.message).toMatch(
      /^the service refused this buy: HTTP 400: amountLamports must be at least \d+; nothing was created or signed; a bare number is lamports: 999 = 999 lamports \(0\.000000999 SOL\); for SOL write 999sol$/,
    );
    expect(expectJsonError(smallSol, 2).message).toMatch(
      /^the service refused this buy: HTTP 400: amountLamports must be at least \d+; nothing was created or signed$/,
    );
    expect(a.requestId).toMatch(/^req_/);
    const b = expectJsonError(notTraded, 2);
    expect(b).toMatchObject({ code: 'UNKNOWN_TOKEN', status: 422, category: 'usage', retryable: false });
    expect(b.message).toContain(`does not trade mint ${unknownMint}`);
    expect(human.code).toBe(2);
    expect(lines(human.stderr)).toEqual([
      expect.stringMatching(/^error: the service refused this buy: HTTP 422: /),
      expect.stringMatching(/^request id: req_/),
    ]);
    expect(expectJsonError(busy, 3)).toMatchObject({ status: 503, category: 'service', retryable: true });
  });
});

describe('limits before questions in the CLI', () => {
  it('with no terminal and no --yes: a limit is said before the demand for --yes (nothing sent); --min-sol, which only the quote can show, is checked on a quote first (a sell authorization left to expire, nothing signed)', async () => {
    const h = freshHome();
    writeFileSync(h.TRADER_CONFIG, JSON.stringify({ profiles: { default: { maxBuyLamports: '100000000' } } }), {
      mode: 0o600,
    });
    const e = trusted({ ...env, ...h });
    await sb.clearRequests();
    const over = await runCli(['buy', M, '0.2sol'], { env: e });
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(
      /^error: <amount> 0\.2sol \(200000000 lamports\) is over profile "default"'s maxBuyLamports/,
    );
    expect(await sb.requests()).toEqual([]);
    const [minSol, fine] = await Promise.all([
      runCli(['sell', M, '10%', '--min-sol', '1000', '--json'], { env: e }),
      runCli(['sell', M, '10%', '--min-sol', '0.000000001'], { env: e }),
    ]);
    const refused = expectJsonError(minSol, 6);
    expect(refused.message).toMatch(/--min-sol|1000 SOL/);
    expect(fine.code, fine.stderr).toBe(2);
    expect(fine.stderr).toMatch(
      /^error: confirmation needed but this is not an interactive terminal: pass --yes to trade; --min-sol was checked against a quote first \(sell sell_\w+, left to expire unsigned\); nothing was signed$/m,
    );
    const posts = (await sb.requests()).filter((q) => q.method === 'POST').map((q) => q.path);
    expect(posts).toEqual(['/api/v1/trade/sells', '/api/v1/trade/sells']);
  });
});
