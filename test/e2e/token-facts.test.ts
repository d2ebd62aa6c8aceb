// A buy's token facts come from the chain (the mint account and its metadata, through
// --rpc-url), never from the service alone: a token new to the account is reviewed in whole
// tokens with its chain name (Token-2022 too); a mint the chain names as a token the user already
// traded, or a service that renames a token, is refused before signing, while the honest buy goes
// on; an RPC that cannot be read leaves the facts unconfirmed and the deposit's checks as they are.
import { describe, expect, it } from 'vitest';
import { freshHome, json, runCli } from '../helpers/cli.js';
import { lastJsonError } from '../helpers/cli-assert.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';
import { pinsFor, trustPath, writePins } from '../helpers/trust.js';
import { startMcp } from '../helpers/mcp-client.js';
import { hasTmux, startInTmux } from '../helpers/pty.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tokenFactsFingerprint } from '../../src/domain/token-binding.js';

let sb: TestSandbox;
const { envFor, tamperProxy } = sandboxForFile((started) => (sb = started));
const mintOf = (symbol: string) => sb.tokens.find((t: { symbol: string }) => t.symbol === symbol)!.mint;

/** What the sandbox saw for one buy: its deposits and cancels. */
async function seenFor(id: string) {
  const log = await sb.requests();
  return {
    deposits: log.filter((r) => r.method === 'POST' && r.path === `/api/v1/trade/buys/${id}/deposit`),
    cancels: log.filter((r) => r.method === 'POST' && r.path === `/api/v1/trade/buys/${id}/cancel`),
  };
}

/** The id of the buy a run created (from its resume line). */

describe('a token new to the account, bought by its mint', () => {
  it('MOON (a Token-2022 mint with its metadata in the mint): reviewed in whole tokens with its chain name, then bought', async () => {
    const mint = mintOf('MOON');
    const r = await runCli(['buy', mint, '0.1sol', '--yes'], { env: envFor(sb.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^Buy\\s+MOON \\(Moon Sandbox\\) ${mint}$`, 'm'));
    expect(r.stderr).toMatch(/^Token facts\s+new to this account; decimals, symbol and name from the chain$/m);
    // 8 decimals: whole MOON with a fraction, and a price per MOON.
    expect(r.stderr).toMatch(/^Expected out\s+[\d,]+\.\d{1,8} MOON$/m);
    expect(r.stderr).toMatch(/^Price\s+[\d.]+ SOL per MOON/m);
    expect(r.stderr).not.toContain('raw units');
    expect(r.stdout).toMatch(new RegExp(`^Token\\s+MOON \\(Moon Sandbox\\) ${mint}$`, 'm'));
  });

  it('--dry-run --json: the quote says each fact came from the chain', async () => {
    const mint = mintOf('BRIX');
    const r = await runCli(['buy', mint, '0.1sol', '--dry-run', '--json'], { env: envFor(sb.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).quote.token).toEqual({
      mint,
      symbol: 'BRIX',
      name: 'Brix Protocol',
      decimals: 9,
      seenBefore: false,
      source: { decimals: 'chain', symbol: 'chain', name: 'chain' },
      unbound: [],
      chainUnread: null,
      risks: { risks: [], fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/), accepted: false, askAccept: false },
    });
  });
});

describe('an impostor mint is refused before signing; the honest buy goes on', () => {
  const home = freshHome();

  it('the real WOOF buy (the honest control) signs; unattended, it records nothing: WOOF names its mint by a person’s word only', async () => {
    const woof = mintOf('WOOF');
    const env = envFor(sb.url, home);
    const before = pinsFor(home, sb.url);
    const r = await runCli(['buy', woof, '0.1sol', '--yes', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).intent.status).toBe('completed');
    expect((await seenFor(json(r).intent.id)).deposits).toHaveLength(1);
    expect(pinsFor(home, sb.url)).toEqual(before);
    // A person confirms WOOF's facts (as at a prompt, or with accept-token): from now on no other mint passes for it.
    writePins(home, sb.url, {
      tokens: {
        [woof]: {
          symbol: 'WOOF',
          name: 'Woof Sandbox Dog',
          decimals: 5,
          at: '2026-01-01T00:00:00.000Z',
          by: 'accept-command',
        },
      },
    });
  });

  it('a mint the chain (and the service) call WOOF: exit 6 before signing, naming both mints; no deposit, the intent cancelled', async () => {
    const woof = mintOf('WOOF');
    // Anyone can make a mint whose metadata says WOOF; this service trades one.
    const impostor = (await sb.control('/tokens', { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 })).mint;
    expect(await sb.control('/chain/tokens')).toContainEqual(
      expect.objectContaining({ mint: impostor, metadata: expect.objectContaining({ symbol: 'WOOF' }) }),
    );
    const r = await runCli(['buy', impostor, '0.1sol', '--yes', '--json'], { env: envFor(sb.url, home) });
    expect(r.code, r.stderr).toBe(6);
    const error = lastJsonError(r);
    expect(error.message).toContain(
      `the chain gives token ${impostor} the symbol "WOOF", which is pinned for token ${woof}: it would pass for that token`,
    );
    expect(error.message).toContain('the buy intent was cancelled; nothing was signed');
    const id = error.tradeId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await seenFor(id)).toMatchObject({ deposits: [], cancels: [expect.anything()] });
    // Nothing of the impostor is recorded: the real WOOF keeps its name.
    expect(pinsFor(home, sb.url).tokens?.[impostor]).toBeUndefined();
  });

  it('a token the service lists as WOFF whose chain metadata says WOOF: refused, --json says so', async () => {
    const woof = mintOf('WOOF');
    const impostor = (await sb.control('/tokens', { symbol: 'WOFF', name: 'Woff', decimals: 5 })).mint;
    await sb.control('/chain/tokens', { mint: impostor, symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 });
    const r = await runCli(['buy', impostor, '0.1sol', '--yes', '--json'], { env: envFor(sb.url, home) });
    expect(r.code, r.stderr).toBe(6);
    const error = lastJsonError(r);
    expect(error.code).toBe('REFUSED_TO_SIGN');
    expect(error.message).toContain(
      `the chain gives token ${impostor} the symbol "WOOF", which is pinned for token ${woof}`,
    );
    expect(error.message).toContain(
      `the chain gives token ${impostor} the name "Woof Sandbox Dog", which is pinned for token ${woof}`,
    );
    expect(json(r).intent.status).toBe('cancelled');
    expect((await seenFor(json(r).intent.id)).deposits).toEqual([]);
  });

  it.each([
    [
      "WOOF and a zero-width space, its name WOOF's with tag characters (attack-1 §7)",
      'WOOFZ',
      '\u200B',
      '\u{E0020}\u{E0041}',
      '<U+200B>',
      '<U+E0020><U+E0041>',
    ],
    [
      "WOOF and a BRAILLE PATTERN BLANK, its name WOOF's with one too (attack-3 F9)",
      'WOOFB',
      '\u2800',
      '\u2800',
      '<U+2800>',
      '<U+2800>',
    ],
  ])(
    'an impostor whose chain symbol is %s: refused as passing for WOOF; shown with what cannot be seen named, never raw',
    async (_what, listed, inSymbol, inName, symbolShown, nameShown) => {
      const woof = mintOf('WOOF');
      const impostor = (await sb.control('/tokens', { symbol: listed, name: 'Woofz', decimals: 5 })).mint;
      await sb.control('/chain/tokens', {
        mint: impostor,
        symbol: `WOOF${inSymbol}`,
        name: `Woof Sandbox Dog${inName}`,
        decimals: 5,
      });
      const r = await runCli(['buy', impostor, '0.1sol', '--dry-run'], { env: envFor(sb.url, home) });
      expect(r.code, r.stderr).toBe(6);
      const out = r.stdout + r.stderr;
      expect(out).toContain(
        `the chain gives token ${impostor} the symbol "WOOF${symbolShown}", which is pinned for token ${woof}: it would pass for that token`,
      );
      expect(out).toContain(`the name "Woof Sandbox Dog${nameShown}", which is pinned for token ${woof}`);
      expect(out).toContain(`WOOF${symbolShown} (Woof Sandbox Dog${nameShown})`);
      expect(out).toMatch(/^Buy\s+.*WOOF<U\+/m);
      expect(out).not.toMatch(/[\u200B\u2800\u{E0000}-\u{E007F}]/u);
    },
  );

  it('an impostor whose chain symbol is WOOF in Latin small capitals, its name under a combining low line (attack-3 F9): refused as passing for WOOF', async () => {
    const woof = mintOf('WOOF');
    const impostor = (await sb.control('/tokens', { symbol: 'SCAPS', name: 'Small Caps', decimals: 5 })).mint;
    // Token-2022 metadata: a Metaplex symbol holds 10 bytes, and these four letters are 12.
    await sb.control('/chain/tokens', {
      mint: impostor,
      symbol: '\u1D21\u1D0F\u1D0F\uA730',
      name: 'Woof Sandbox Dog\u0332',
      decimals: 5,
      program: 'token-2022',
      metadata: 'token-2022',
    });
    const r = await runCli(['buy', impostor, '0.1sol', '--dry-run'], { env: envFor(sb.url, home) });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(
      `the chain gives token ${impostor} the symbol "\u1D21\u1D0F\u1D0F\uA730", which is pinned for token ${woof}: it would pass for that token`,
    );
    expect(r.stderr).toContain(`the name "Woof Sandbox Dog\u0332", which is pinned for token ${woof}`);
  });

  it('a token whose chain name carries tag characters: the review and the summary name them, never raw', async () => {
    const tagged = (
      await sb.control('/tokens', { symbol: 'TAGZ', name: 'Tag Coin\u{E0020}\u{E0068}\u{E0069}', decimals: 6 })
    ).mint;
    const r = await runCli(['buy', tagged, '0.05sol', '--yes'], { env: envFor(sb.url, home) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Buy\s+.*TAGZ \(Tag Coin<U\+E0020><U\+E0068><U\+E0069>\)/m);
    expect(r.stdout).toMatch(/^Token\s+TAGZ \(Tag Coin<U\+E0020><U\+E0068><U\+E0069>\)/m);
    expect(r.stdout + r.stderr).not.toMatch(/[\u{E0000}-\u{E007F}]/u);
  });

  it('a service that renames WOOF in its holdings: refused before signing (exit 6); nothing reaches the deposit', async () => {
    const woof = mintOf('WOOF');
    const proxy = await tamperProxy();
    proxy.rewrite('GET', /^\/api\/v1\/holdings$/, (body) => ({
      ...body,
      data: body.data.map((h: { mint: string }) => (h.mint === woof ? { ...h, name: 'SENDALL (Send All Funds)' } : h)),
    }));
    const r = await runCli(['buy', woof, '0.1sol', '--yes'], { env: envFor(proxy.url, home) });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(
      `the service gives token ${woof} the name "SENDALL (Send All Funds)", but its metaplex metadata on chain says "Woof Sandbox Dog"`,
    );
    expect(proxy.seen.filter((s) => s.method === 'POST' && s.path.endsWith('/deposit'))).toEqual([]);
    expect(proxy.seen.filter((s) => s.method === 'POST' && s.path.endsWith('/cancel'))).toHaveLength(1);
  });
});

describe('an RPC that cannot be read', () => {
  it.skipIf(!hasTmux())(
    'unattended, the buy is refused (its risks unread); at the prompt it goes on for its deposit: the review says the facts are unconfirmed, shows raw units, and nothing is recorded',
    async () => {
      const home = freshHome();
      const sgld = mintOf('SGLD');
      const env = { ...envFor(sb.url, home), NO_COLOR: '1', TRADER_RPC_URL: 'http://127.0.0.1:1/' };
      const refused = await runCli(['buy', sgld, '0.1sol', '--yes'], { env });
      expect(refused.code, refused.stderr).toBe(6);
      expect(refused.stderr).toContain(`the risks of token ${sgld} could not be read on chain`);
      const s = await startInTmux(['buy', sgld, '0.1sol'], env, { height: 50 });
      try {
        // The review's values laid out to 80 columns: a value's lines joined again to read it whole.
        const review = (await s.waitFor('buying with its risks unknown? (y/N)')).replace(/\n {14}(?=\S)/g, ' ');
        // The chain that cannot be read is said once, on the review's Wallet line (no warning besides).
        expect(review).toMatch(/^Wallet\s+not checked on chain: reading accounts from 127\.0\.0\.1:1 failed: /m);
        expect(review).not.toMatch(/^warning: not checked on chain/m);
        expect(review).toMatch(
          /^Token facts\s+new to this account; unconfirmed: the chain could not be read; nothing is pinned from the service alone$/m,
        );
        expect(review).toMatch(/^Expected out\s+[\d,]+ raw units$/m);
        expect(review).toMatch(
          /^Not known\s+the token's decimals \(the chain could not be read\): amounts in raw units, no price$/m,
        );
        await s.keys('y', 'Enter');
        expect(await s.exitCode()).toBe(0);
      } finally {
        await s.close();
      }
      expect(pinsFor(home, sb.url).tokens).toBeUndefined();
    },
  );
});

describe('a typed symbol names a mint only by your word (attack-1 §5)', () => {
  it('lists that pass an impostor off as WOOF: refused unattended before anything is created (--yes, --dry-run, MCP), naming the mint and the ways to bind; a WOOF you bound by trading its mint is the real one whatever the lists say', async () => {
    const woof = mintOf('WOOF');
    // The account has traded WOOF; anyone can make a mint whose chain metadata says WOOF.
    await completeBuy(sb, { mint: woof, amountLamports: '100000000' });
    const impostor = (await sb.control('/tokens', { symbol: 'WOOFX', name: 'Woofx', decimals: 5 })).mint;
    await sb.control('/chain/tokens', { mint: impostor, symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 });
    // The service's lists: the real WOOF's mint replaced by the impostor's, which they call WOOF.
    const proxy = await tamperProxy();
    const relabel = (o: any): any => {
      if (Array.isArray(o)) return o.map(relabel);
      if (o === null || typeof o !== 'object')
        return o === woof ? impostor : o === 'WOOFX' ? 'WOOF' : o === 'Woofx' ? 'Woof Sandbox Dog' : o;
      return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, relabel(v)]));
    };
    // Other tokens this sandbox calls WOOF (earlier tests' impostors) are left out: the lists name one WOOF, the impostor.
    const oneWoof = (body: any) => {
      const out = relabel(body);
      out.data = out.data.filter((e: any) => (e.symbol ?? e.token?.symbol) !== 'WOOF' || e.mint === impostor);
      return out;
    };
    for (const path of [/^\/api\/v1\/holdings$/, /^\/api\/v1\/positions$/, /^\/api\/v1\/activity$/])
      proxy.rewrite('GET', path, oneWoof);
    const home = freshHome();
    const env = envFor(proxy.url, home, { untrusted: true });
    expect((await runCli(['config', 'trust', 'accept-treasury', sb.treasury], { env })).code).toBe(0);
    const buys = () => proxy.seen.filter((r) => r.method === 'POST' && r.path === '/api/v1/trade/buys');
    // The facts kept for a person, named by their fingerprint in the command.
    const kept = tokenFactsFingerprint(impostor, { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 });

    for (const flag of ['--yes', '--dry-run']) {
      const r = await runCli(['buy', 'WOOF', '0.05sol', flag, '--json'], { env });
      expect(r.code, r.stderr).toBe(6);
      expect(lastJsonError(r)).toMatchObject({
        code: 'SYMBOL_NOT_BOUND',
        category: 'refused_to_sign',
        command: `trader config trust accept-token ${impostor} ${kept}`,
        fingerprint: kept,
      });
      expect(lastJsonError(r).message).toContain(
        `"WOOF" is only the service's name for token ${impostor} (WOOF, Woof Sandbox Dog, as the service's lists and the chain name it)`,
      );
    }
    // `config trust` says of the kept facts what the refusal said: the source is kept with them.
    const kept1 = await runCli(['config', 'trust'], { env: { ...env, COLUMNS: '250' } });
    expect(kept1.stdout).toContain(
      `(as the service's lists and the chain name it): ${impostor}: WOOF (Woof Sandbox Dog), 5 decimals`,
    );
    expect(kept1.stdout).not.toContain('neither the chain nor you');
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
      answer: () => ({ action: 'accept', content: { confirm: true } }),
    });
    try {
      const viaMcp = await agent.call('buy', { token: 'WOOF', amount: '0.05sol' });
      // For the person's own terminal: with the config file the MCP client's env named.
      expect(viaMcp.structuredContent.error).toMatchObject({
        code: 'SYMBOL_NOT_BOUND',
        command: `TRADER_CONFIG=${home.TRADER_CONFIG} trader config trust accept-token ${impostor} ${kept}`,
      });
    } finally {
      await agent.close();
    }
    expect(buys()).toEqual([]);
    expect(pinsFor(home, proxy.url).symbols).toBeUndefined();

    // The person buys WOOF by the mint they typed, unattended: that is a trade, not a binding (attack-2 §3); WOOF stays unbound.
    const byMint = await runCli(['buy', woof, '0.05sol', '--yes', '--json'], { env });
    expect(byMint.code, byMint.stderr).toBe(0);
    expect(pinsFor(home, proxy.url).symbols).toBeUndefined();
    expect(pinsFor(home, proxy.url).tokens).toBeUndefined();
    const bySymbol = await runCli(['buy', 'WOOF', '0.05sol', '--yes', '--json'], { env });
    expect(bySymbol.code, bySymbol.stderr).toBe(6);
    expect(lastJsonError(bySymbol)).toMatchObject({ code: 'SYMBOL_NOT_BOUND' });
    // forget token <mint>: the facts kept for that mint go; the rest of the store stays.
    const forgot = await runCli(['config', 'trust', 'forget', 'token', impostor, '--json'], { env });
    expect(json(forgot)).toMatchObject({ forgot: 'token', mint: impostor, hadPin: true });
    expect(pinsFor(home, proxy.url).pendingTokens).toBeUndefined();
    expect(pinsFor(home, proxy.url).treasury?.address).toBe(sb.treasury);
  });
});

describe('unattended runs never write trust (attack-2 §3)', () => {
  it('an agent buys, by its mint, a token whose chain symbol is WOOF, every elicitation accepted (with and without --no-confirm): trust.json is unchanged; `buy WOOF --yes` afterwards still refuses, and keeps the binding a person made', async () => {
    const woof = mintOf('WOOF');
    // Anyone can make a mint the chain and the service call WOOF; the agent is told its mint.
    const impostor = (await sb.control('/tokens', { symbol: 'WOOF', name: 'Woof Sandbox Dog', decimals: 5 })).mint;
    const home = freshHome();
    const env = envFor(sb.url, home, { untrusted: true });
    expect((await runCli(['config', 'trust', 'accept-treasury', sb.treasury], { env })).code).toBe(0);
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
    const before = readFileSync(trustPath(home), 'utf8');
    for (const args of [['--allow-trading'], ['--allow-trading', '--no-confirm']]) {
      const agent = await startMcp({ env, args, answer: () => ({ action: 'accept', content: { approve: true } }) });
      try {
        const bought = await agent.call('buy', { token: impostor, amount: '0.01sol' });
        expect(bought.structuredContent.error, JSON.stringify(bought.structuredContent)).toBeUndefined();
        expect(bought.structuredContent.intent.outputMint).toBe(impostor);
      } finally {
        await agent.close();
      }
      expect(readFileSync(trustPath(home), 'utf8')).toBe(before);
    }
    // --yes and --json alike: a trade of a typed mint writes no trust either.
    expect((await runCli(['buy', impostor, '0.01sol', '--yes', '--json'], { env })).code).toBe(0);
    expect(readFileSync(trustPath(home), 'utf8')).toBe(before);
    // Unbound, WOOF names no mint here: refused before anything is created (not bound, or two WOOFs held), never the impostor.
    const bySymbol = await runCli(['buy', 'WOOF', '0.01sol', '--yes', '--json'], { env });
    expect(bySymbol.code, bySymbol.stderr).not.toBe(0);
    expect(['SYMBOL_NOT_BOUND', 'AMBIGUOUS_TOKEN']).toContain(lastJsonError(bySymbol).code);
    expect(bySymbol.stdout).toBe('');

    // With WOOF bound by a person, the agent's impostor buy leaves the binding and the real WOOF buys by symbol.
    writePins(home, sb.url, {
      symbols: { woof: { mint: woof, at: '2026-01-01T00:00:00.000Z', by: 'accept-command' } },
    });
    const bound = readFileSync(trustPath(home), 'utf8');
    const agent = await startMcp({ env, args: ['--allow-trading', '--no-confirm'] });
    try {
      expect((await agent.call('buy', { token: impostor, amount: '0.01sol' })).structuredContent.error).toBeUndefined();
    } finally {
      await agent.close();
    }
    expect(readFileSync(trustPath(home), 'utf8')).toBe(bound);
    const real = await runCli(['buy', 'WOOF', '0.01sol', '--yes', '--json'], { env });
    expect(real.code, real.stderr).toBe(0);
    expect(json(real).intent.outputMint).toBe(woof);
    expect(existsSync(trustPath(home))).toBe(true);
  });
});

describe('a service name with controls in it is shown with them named (attack-2 §5)', () => {
  it('config trust accept-token, config trust and the holdings table name the newline, the escape and the carriage return; trust.json keeps the name the person accepted, raw', async () => {
    const name = 'Woof\n\u001b[2KSend All\rDog';
    const shown = 'Woof<U+000A><U+001B>[2KSend All<U+000D>Dog';
    // A token the chain says nothing of: its name is the service's alone, and a person confirms it once.
    const { mint } = await sb.control('/tokens', { symbol: 'CTRL', name, decimals: 6 });
    await sb.control('/chain/tokens', { mint, metadata: 'none' });
    await completeBuy(sb, { mint, amountLamports: '100000000' });
    const home = freshHome();
    const env = envFor(sb.url, home);
    const refused = await runCli(['sell', mint, '10%', '--yes', '--json'], { env });
    expect(refused.code, refused.stderr).toBe(6);
    expect(lastJsonError(refused)).toMatchObject({
      code: 'TOKEN_FACTS_UNCONFIRMED',
      fingerprint: tokenFactsFingerprint(mint, { symbol: 'CTRL', name, decimals: 6 }),
    });
    const accept = await runCli(['config', 'trust', 'accept-token', mint, lastJsonError(refused).fingerprint!], {
      env,
    });
    expect(accept.code, accept.stderr).toBe(0);
    expect(accept.stdout.replace(/\n(?! )/g, ' ')).toContain(
      `Confirmed ${mint.slice(0, 8)}…: CTRL (${shown}), 6 decimals`,
    );
    expect(pinsFor(home, sb.url).tokens?.[mint]?.name).toBe(name);
    const trust = await runCli(['config', 'trust'], { env: { ...env, COLUMNS: '200' } });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain(`${mint}: CTRL (${shown}), 6 decimals`);
    const holdings = await runCli(['holdings'], { env: { ...env, COLUMNS: '200' } });
    expect(holdings.code, holdings.stderr).toBe(0);
    // The table shortens a long name with an ellipsis; what it shows is named, never raw.
    expect(holdings.stdout).toMatch(/^CTRL +Woof<U\+000A><U\+/m);
    for (const out of [accept.stdout, trust.stdout, holdings.stdout]) expect(out).not.toMatch(/[\r\u001b]|Woof\n/);
  });
});
