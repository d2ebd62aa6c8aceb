// Facts a person bound hold (issue 33): WOOF's facts pinned (5 decimals; as a buy signed at the
// prompt records them, or as a person confirmed them), then the RPC and the service both change
// one of them. Every trade of it — buy and sell, --yes, --dry-run, --json, MCP — is refused before
// anything is created (exit 6, BOUND_FACTS_CHANGED), naming the mint, the fact, the bound value
// and the chain's: the service sees no buy, no sell, no deposit, no authorize. Amounts are counted
// in the bound decimals: `sell WOOF 1.5woof` is 150,000 raw units, never 150,000,000.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, json, runCli } from '../helpers/cli.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { startMcp } from '../helpers/mcp-client.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';
import type { TamperProxy } from '../helpers/tamper-proxy.js';
import { writePins } from '../helpers/trust.js';
import { formatTokenAmount, toDecimalString } from '../../src/domain/amounts.js';

let sb: TestSandbox;
const { envFor, tamperProxy } = sandboxForFile((started) => (sb = started));
const woofMint = () => sb.tokens.find((t: { symbol: string }) => t.symbol === 'WOOF')!.mint;
const WOOF = { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 };
type Facts = typeof WOOF;

/** The sandbox's chain (its RPC) states `facts` for WOOF's mint. */
const chainSays = (facts: Facts) => sb.control('/chain/tokens', { mint: woofMint(), ...facts });

/** A proxy whose lists (holdings, positions, activity) give WOOF's mint `change`, as its chain now does. */
async function lyingService(change: Partial<Facts>): Promise<TamperProxy> {
  const mint = woofMint();
  const relabel = (o: any): any => {
    if (Array.isArray(o)) return o.map(relabel);
    if (o === null || typeof o !== 'object') return o;
    const out = Object.fromEntries(Object.entries(o).map(([k, v]) => [k, relabel(v)]));
    if (out.mint !== mint) return out;
    for (const [k, v] of Object.entries(change)) if (k in out) out[k] = v;
    if (out.token && typeof out.token === 'object') out.token = { ...out.token, ...change };
    return out;
  };
  const proxy = await tamperProxy();
  for (const path of [/^\/api\/v1\/holdings$/, /^\/api\/v1\/positions$/, /^\/api\/v1\/activity$/])
    proxy.rewrite('GET', path, relabel);
  return proxy;
}

/** A home that holds WOOF's facts as bound `by`, and the sandbox's treasury, wording and symbols (WOOF bound to its mint). */
function boundHome(by: string, url: string) {
  const home = freshHome();
  const env = envFor(url, home);
  writePins(home, url, { tokens: { [woofMint()]: { ...WOOF, at: '2026-01-01T00:00:00.000Z', by } } });
  return { home, env };
}

const posts = (proxy: TamperProxy) => proxy.seen.filter((r) => r.method === 'POST').map((r) => r.path);

describe('WOOF bound, then the RPC and the service change one of its facts: every trade refused before anything is created', () => {
  it.each([
    [
      'decimals',
      'chain',
      { decimals: 8 },
      5,
      8,
      "a mint's decimals cannot change on Solana, so a changed answer means a lying RPC or service",
    ],
    [
      'symbol',
      'accept-command',
      { symbol: 'W0OF' },
      'WOOF',
      'W0OF',
      "a token's symbol changes only if its metadata's update authority rewrites it; far more likely the RPC or the service lies",
    ],
    [
      'name',
      'prompt',
      { name: 'Woof Sandbox Dog v2' },
      'Woof Sandbox Dog',
      'Woof Sandbox Dog v2',
      "a token's name changes only if its metadata's update authority rewrites it; far more likely the RPC or the service lies",
    ],
  ] as const)(
    '%s (bound by %s): buy and sell, --yes, --dry-run and MCP, exit 6 BOUND_FACTS_CHANGED; the service sees nothing posted',
    async (fact, by, change, was, now, why) => {
      const mint = woofMint();
      await completeBuy(sb, { mint, amountLamports: '200000000' });
      const proxy = await lyingService(change);
      const { home, env } = boundHome(by, proxy.url);
      await chainSays({ ...WOOF, ...change });
      try {
        const said = `token ${mint} is bound to the ${fact} ${JSON.stringify(was)} (${by === 'chain' ? 'as the chain stated it at a trade you signed' : 'as you confirmed it'}), but the chain now says ${JSON.stringify(now)}: ${why}`;
        for (const args of [
          ['sell', 'WOOF', '1.5woof', '--yes', '--json'],
          ['sell', mint, '10%', '--dry-run', '--json'],
          ['buy', 'WOOF', '0.1sol', '--yes', '--json'],
          ['buy', mint, '0.1sol', '--dry-run', '--json'],
        ]) {
          const r = await runCli(args, { env });
          expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(6);
          expect(r.stdout).toBe('');
          const error = lastJsonError(r);
          expect(error).toMatchObject({
            code: 'BOUND_FACTS_CHANGED',
            category: 'refused_to_sign',
            retryable: false,
            facts: [{ mint, fact, bound: was, chain: now, by }],
          });
          expect(error.message).toContain(said);
          expect(error.message).toContain('nothing was created or signed; check the RPC');
          expect(error.message).toContain('`trader config trust forget tokens`');
        }
        // Human mode says the same, and what to do next.
        const human = await runCli(['sell', 'WOOF', '1.5woof', '--yes'], { env });
        expect(human.code, human.stderr).toBe(6);
        expect(human.stderr.replace(/\s+/g, ' ')).toContain(said);
        expect(human.stderr.replace(/\s+/g, ' ')).toContain(
          'check the RPC (--rpc-url, TRADER_RPC_URL) against another you trust',
        );

        // An agent, every elicitation accepted: refused alike.
        writeFileSync(
          home.TRADER_CONFIG,
          JSON.stringify({
            profiles: {
              default: {
                maxBuyLamports: '1000000000',
                maxSlippageBps: 500,
                maxDailyBuyLamports: '10000000000',
                maxDailySellLamports: '10000000000',
              },
            },
          }),
          { mode: 0o600 },
        );
        const agent = await startMcp({
          env,
          args: ['--allow-trading'],
          answer: () => ({ action: 'accept', content: { confirm: true, approve: true } }),
        });
        try {
          for (const [tool, amount] of [
            ['buy', '0.1sol'],
            ['sell', '1.5woof'],
          ] as const) {
            const result = await agent.call(tool, { token: 'WOOF', amount });
            expect(result.structuredContent.error, JSON.stringify(result.structuredContent)).toMatchObject({
              code: 'BOUND_FACTS_CHANGED',
              facts: [{ mint, fact, bound: was, chain: now }],
            });
          }
        } finally {
          await agent.close();
        }
        // Nothing created: no buy, no sell, no deposit, no authorize.
        expect(posts(proxy)).toEqual([]);
      } finally {
        await chainSays(WOOF);
      }
    },
    90_000,
  );

  it('the honest control: the chain states the bound facts again, and the same sell goes on, 1.5 WOOF counted as 150,000 raw units', async () => {
    const mint = woofMint();
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const proxy = await tamperProxy();
    const { env } = boundHome('chain', proxy.url);
    const r = await runCli(['sell', 'WOOF', '1.5woof', '--yes', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).authorization.amount).toBe('150000');
    expect(posts(proxy).filter((p) => p.endsWith('/authorize'))).toHaveLength(1);
  });

  it('an RPC that cannot be read and a service saying 8 decimals: the recorded 5 count the amount (150,000 raw units), and the sell is refused before signing', async () => {
    const mint = woofMint();
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const proxy = await lyingService({ decimals: 8 });
    const env = { ...boundHome('chain', proxy.url).env, TRADER_RPC_URL: 'http://127.0.0.1:1/' };
    // With no chain, the symbol is only the service's word: the amount is written in tokens.
    const r = await runCli(['sell', 'WOOF', '1.5tokens', '--yes', '--json'], { env });
    expect(r.code, r.stderr).toBe(6);
    expect(lastJsonError(r).message).toContain(
      `the service gives token ${mint} the decimals 8, but the chain said at a trade you signed 5`,
    );
    const created = proxy.seen.filter((s) => s.method === 'POST' && s.path === '/api/v1/trade/sells');
    expect(created.map((s) => (s.body as { amount: string }).amount)).toEqual(['150000']);
    expect(posts(proxy).filter((p) => p.endsWith('/authorize'))).toEqual([]);
  });
});

describe('WOOF bound at 5 decimals (the chain says 5), the service says 9: the read commands count in the bound 5, and say the service differs', () => {
  it('holdings, pnl, activity, positions and trades, --json and human: amounts in 5 decimals, one warning naming the mint, 5 and 9', async () => {
    const mint = woofMint();
    await completeBuy(sb, { mint, amountLamports: '200000000' });
    const sold = await runCli(['sell', mint, '10%', '--yes'], { env: envFor(sb.url) });
    expect(sold.code, sold.stderr).toBe(0);
    const held = (await sb.call('GET', '/holdings')).body.data.find((h: { mint: string }) => h.mint === mint);
    const sale = (await sb.call('GET', '/activity', { query: { type: 'sell', limit: 100 } })).body.data.find(
      (e: { mint: string }) => e.mint === mint,
    );
    const proxy = await lyingService({ decimals: 9 });
    const { env } = boundHome('chain', proxy.url);
    const warning = `the service gives token ${mint} 9 decimals, but it is bound to 5: its amounts are counted in the bound 5`;
    const warned = (r: { stderr: string }) => r.stderr.split('\n').filter((l) => l.includes(warning));

    const read = async (...args: string[]) => {
      const r = await runCli([...args, '--json'], { env });
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
      expect(
        warned(r).map((l) => JSON.parse(l)),
        args.join(' '),
      ).toEqual([{ warning }]);
      return json(r);
    };
    const holding = (await read('holdings')).find((h: { mint: string }) => h.mint === mint);
    expect(holding).toMatchObject({
      decimals: 5,
      amount: held.amount,
      balance: toDecimalString(BigInt(held.amount), 5),
    });
    expect((await read('pnl')).tokens.find((t: { mint: string }) => t.mint === mint)).toMatchObject({
      decimals: 5,
      amountDecimal: toDecimalString(BigInt(held.amount), 5),
    });
    expect((await read('activity', '--type', 'sell')).find((e: { id: string }) => e.id === sale.id)).toMatchObject({
      decimals: 5,
      amount: sale.amount,
    });
    const positions = (await read('positions')).filter((p: { mint: string }) => p.mint === mint);
    expect(positions.length).toBeGreaterThan(0);
    for (const p of positions) expect(p.token.decimals).toBe(5);
    for (const t of (await read('trades')).filter((t: { mint: string }) => t.mint === mint)) expect(t.decimals).toBe(5);

    // For people: the amounts in 5 decimals, never the service's 9; the warning once per command.
    for (const [args, raw] of [
      [['holdings'], held.amount],
      [['pnl'], held.amount],
      [['activity', '--type', 'sell'], sale.amount],
    ] as const) {
      const r = await runCli([...args], { env: { ...env, NO_COLOR: '1' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.replace(/\s+/g, ' '), args.join(' ')).toContain(formatTokenAmount(raw, 5));
      expect(r.stdout).not.toContain(formatTokenAmount(raw, 9));
      expect(warned(r), args.join(' ')).toHaveLength(1);
    }
  }, 60_000);

  it('the service agreeing with the bound 5: no warning', async () => {
    const proxy = await tamperProxy();
    const { env } = boundHome('chain', proxy.url);
    await completeBuy(sb, { mint: woofMint(), amountLamports: '100000000' });
    const r = await runCli(['holdings', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('decimals, but it is bound to');
  });
});

describe('trader token of a bound mint', () => {
  it('says where the chain now states a fact otherwise than bound (human and --json), and nothing where it agrees', async () => {
    const mint = woofMint();
    const { env } = boundHome('chain', sb.url);
    const agreeing = await runCli(['token', mint, '--json'], { env });
    expect(agreeing.code, agreeing.stderr).toBe(0);
    expect(json(agreeing).boundFactsChanged).toEqual([]);
    await chainSays({ ...WOOF, decimals: 9 });
    try {
      const doc = json(await runCli(['token', mint, '--json'], { env }));
      expect(doc.decimals).toBe(9);
      expect(doc.boundFactsChanged).toEqual([{ mint, fact: 'decimals', bound: 5, chain: 9, by: 'chain' }]);
      const human = await runCli(['token', mint], { env: { ...env, NO_COLOR: '1' } });
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout.replace(/\s+/g, ' ')).toContain(
        `Not as bound: token ${mint} is bound to the decimals 5 (as the chain stated it at a trade you signed), but the chain now says 9`,
      );
    } finally {
      await chainSays(WOOF);
    }
  });
});
