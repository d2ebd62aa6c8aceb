// Token risks read from the chain, against the sandbox's risky tokens: `trader token` states them;
// a buy's review shows them one line each; a refuse-level risk (GRAB's permanent delegate, TOLL's
// 2.5% transfer fee) is refused unattended before anything is created (exit 6, naming the accept
// command and the fingerprint; the service sees no buy), asked at the prompt, accepted by a
// person's command and then signed, and asked again once the mint's facts change; a warn-level
// risk (ICE's mint and freeze authorities) is said, and refused unattended only under tokenRisk refuse.
// Risks that cannot be read (an RPC erroring for the mint alone) refuse every unattended run; at
// the prompt the question says a yes buys with them unknown.
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, json, runCli } from '../helpers/cli.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { startMcp } from '../helpers/mcp-client.js';
import { startRpcFaultProxy } from '../helpers/rpc-fault-proxy.js';
import { hasTmux, startInTmux, type PtySession } from '../helpers/pty.js';
import { pinsFor } from '../helpers/trust.js';
import type { TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
const { envFor, closeAfterAll } = sandboxForFile((started) => (sb = started));
const mintOf = (symbol: string) => sb.tokens.find((t: { symbol: string }) => t.symbol === symbol)!.mint;
const sessions: PtySession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
});

/** The buys the service saw created for a mint. */
async function buysOf(mint: string) {
  return (await sb.requests()).filter(
    (r) =>
      r.method === 'POST' && r.path === '/api/v1/trade/buys' && (r.body as { mint?: string } | null)?.mint === mint,
  );
}

/** A profile file holding `profile` as the default profile. */
function withProfile(env: Record<string, string>, profile: Record<string, string | number>): Record<string, string> {
  writeFileSync(env.TRADER_CONFIG!, JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
  return env;
}

describe('trader token', () => {
  it('GRAB: Token-2022, its permanent delegate and metadata authority; a refuse-level risk and the accept command (--json)', async () => {
    const mint = mintOf('GRAB');
    const r = await runCli(['token', mint, '--json'], { env: envFor(sb.url) });
    expect(r.code, r.stderr).toBe(0);
    const doc = json(r);
    expect(doc).toMatchObject({
      mint,
      program: 'token-2022',
      decimals: 6,
      mintAuthority: null,
      freezeAuthority: null,
      metadata: { source: 'token-2022', symbol: 'GRAB', mutable: true },
    });
    expect(doc.extensions.map((e: { name: string }) => e.name)).toEqual([
      'PermanentDelegate',
      'MetadataPointer',
      'TokenMetadata',
    ]);
    expect(doc.risks).toEqual([
      { kind: 'permanent-delegate', level: 'refuse', says: expect.stringContaining('permanent delegate') },
    ]);
    expect(doc.acceptCommand).toBe(`trader config trust accept-risks ${mint} ${doc.risksFingerprint}`);
    // For a person: the refusal said as one, and the accept command alone on its line (a terminal never breaks it).
    const human = await runCli(['token', mint], { env: { ...envFor(sb.url), NO_COLOR: '1' } });
    expect(human.stdout).toContain(
      `A buy of it is refused until a person accepts these risks, at the buy's prompt or as read here:\n  ${doc.acceptCommand}\n`,
    );
  });

  it('ICE: SPL Token with live mint and freeze authorities: two warnings; WOOF: none', async () => {
    const ice = json(await runCli(['token', mintOf('ICE'), '--json'], { env: envFor(sb.url) }));
    expect(ice.risks.map((r: { kind: string; level: string }) => `${r.level} ${r.kind}`)).toEqual([
      'warn mint-authority',
      'warn freeze-authority',
    ]);
    expect(ice.acceptCommand).toBeNull();
    const woof = await runCli(['token', mintOf('WOOF')], { env: envFor(sb.url) });
    expect(woof.stdout).toMatch(/^Risks\s+none read on chain$/m);
    expect(woof.stdout).toMatch(/^Mint authority\s+none: the supply is fixed$/m);
  });

  it('TOLL (250 bps): refuse-level at the default 100 bps; maxTransferFeeBps 250 makes it a warning, 249 keeps it refused', async () => {
    const levels = async (profile: Record<string, string | number>) => {
      const env = withProfile(envFor(sb.url), profile);
      return json(await runCli(['token', mintOf('TOLL'), '--json'], { env })).risks.map(
        (r: { level: string }) => r.level,
      );
    };
    expect(await levels({})).toEqual(['refuse']);
    expect(await levels({ maxTransferFeeBps: 250 })).toEqual(['warn']);
    expect(await levels({ maxTransferFeeBps: 249 })).toEqual(['refuse']);
  });
});

describe('a buy of a risky token', () => {
  it('GRAB under --yes, --dry-run and --json: exit 6 naming accept-risks and the fingerprint; the service saw no buy of it', async () => {
    const mint = mintOf('GRAB');
    const { risksFingerprint } = json(await runCli(['token', mint, '--json'], { env: envFor(sb.url) }));
    for (const flags of [['--yes'], ['--dry-run'], ['--yes', '--json']]) {
      const r = await runCli(['buy', mint, '0.1sol', ...flags], { env: envFor(sb.url) });
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr + r.stdout).toContain(`trader config trust accept-risks ${mint} ${risksFingerprint}`);
      expect(r.stderr + r.stdout).toContain('permanent delegate');
    }
    expect(await buysOf(mint)).toHaveLength(0);
  });

  it("TOLL: accepted by the person's command, then bought unattended; its review and --json carry the risk; a changed mint asks again", async () => {
    const mint = mintOf('TOLL');
    const home = freshHome();
    const env = envFor(sb.url, home);
    const { risksFingerprint } = json(await runCli(['token', mint, '--json'], { env }));
    // A fingerprint that is not the mint's now accepts nothing.
    const wrong = await runCli(['config', 'trust', 'accept-risks', mint, '0000000000000000'], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`fingerprint now ${risksFingerprint}`);
    const ok = await runCli(['config', 'trust', 'accept-risks', mint, risksFingerprint], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(
      `Accepted the risks of ${mint.slice(0, 8)}… as read (${risksFingerprint}); undo:\n  trader config trust forget token ${mint}\n`,
    );
    expect(pinsFor(home, sb.url).acceptedRisks?.[mint]).toMatchObject({
      fingerprint: risksFingerprint,
      by: 'accept-command',
    });

    const bought = await runCli(['buy', mint, '0.1sol', '--yes'], { env });
    expect(bought.code, bought.stderr).toBe(0);
    expect(bought.stderr).toMatch(/^Risk\s+refuse: transfer fee 2\.5% of every transfer/m);
    expect(bought.stderr).toMatch(
      new RegExp(`^Accept\\s+you accepted these risks \\(fingerprint ${risksFingerprint}\\)$`, 'm'),
    );
    const dry = json(await runCli(['buy', mint, '0.1sol', '--dry-run', '--json'], { env }));
    expect(dry.quote.token.risks).toMatchObject({
      fingerprint: risksFingerprint,
      accepted: true,
      askAccept: false,
      risks: [{ kind: 'transfer-fee', level: 'refuse' }],
    });

    // The issuer re-enables a mint authority: another question for a person.
    await sb.control('/chain/tokens', {
      mint,
      program: 'token-2022',
      decimals: 6,
      metadata: 'token-2022',
      symbol: 'TOLL',
      name: 'Toll Fee Sandbox',
      transferFeeBps: 250,
      transferFeeMax: '5000000000',
      mintAuthority: mintOf('WOOF'),
    });
    const again = await runCli(['buy', mint, '0.1sol', '--yes'], { env });
    expect(again.code, again.stderr).toBe(6);
    const now = json(await runCli(['token', mint, '--json'], { env })).risksFingerprint;
    expect(now).not.toBe(risksFingerprint);
    expect(again.stderr).toContain(`accept-risks ${mint} ${now}`);
    expect(again.stderr).toContain('mint authority');
  });

  it('ICE (warn only): bought under --yes with its warnings in the review; refused under tokenRisk refuse until accepted', async () => {
    const mint = mintOf('ICE');
    const warned = await runCli(['buy', mint, '0.1sol', '--yes'], { env: envFor(sb.url) });
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toMatch(/^Risk\s+warn: freeze authority/m);
    const before = (await buysOf(mint)).length;
    const env = withProfile(envFor(sb.url), { tokenRisk: 'refuse' });
    const refused = await runCli(['buy', mint, '0.1sol', '--yes'], { env });
    expect(refused.code, refused.stderr).toBe(6);
    expect(refused.stderr).toContain('freeze authority');
    expect(await buysOf(mint)).toHaveLength(before);
    const fingerprint = json(await runCli(['token', mint, '--json'], { env })).risksFingerprint;
    expect((await runCli(['config', 'trust', 'accept-risks', mint, fingerprint], { env })).code).toBe(0);
    expect((await runCli(['buy', mint, '0.1sol', '--yes'], { env })).code).toBe(0);
  });

  it.skipIf(!hasTmux())(
    'GRAB at the prompt: the review says a yes accepts its risks; yes signs and records the acceptance',
    async () => {
      const mint = mintOf('GRAB');
      const home = freshHome();
      const env = { ...envFor(sb.url, home), NO_COLOR: '1' };
      const s = await startInTmux(['buy', mint, '0.1sol'], env);
      sessions.push(s);
      const review = await s.waitFor('Accept its risks, and sign and send this deposit? (y/N)');
      expect(review).toMatch(/^Risk\s+refuse: permanent delegate/m);
      expect(review).toMatch(/^Accept\s+yes accepts these risks of this mint \(fingerprint [0-9a-f]{16}\)$/m);
      await s.keys('y', 'Enter');
      expect(await s.exitCode()).toBe(0);
      const fingerprint = /fingerprint ([0-9a-f]{16})/.exec(review)![1];
      expect(pinsFor(home, sb.url).acceptedRisks?.[mint]).toMatchObject({ fingerprint, by: 'prompt' });
    },
  );
});

/** An RPC in front of the sandbox's that answers every read naming `mint` with JSON-RPC -32005 "node is behind". */
async function rpcBehindFor(mint: string): Promise<string> {
  const proxy = await startRpcFaultProxy(sb.url, (body) => body.includes(mint));
  closeAfterAll(() => proxy.close());
  return proxy.rpcUrl;
}

describe("a buy whose mint's risks cannot be read", () => {
  it('GRAB, the RPC erroring for its mint: --dry-run, --yes, --json, tokenRisk refuse and MCP are exit 6 TOKEN_RISKS_UNREAD saying why and what a person can do; the service saw no buy', async () => {
    const mint = mintOf('GRAB');
    const home = freshHome();
    const env = { ...envFor(sb.url, home), TRADER_RPC_URL: await rpcBehindFor(mint) };
    const before = (await buysOf(mint)).length;
    for (const flags of [['--dry-run'], ['--yes'], ['--yes', '--json'], ['--dry-run', '--json']]) {
      const r = await runCli(['buy', mint, '0.01sol', ...flags], { env });
      expect(r.code, `${flags.join(' ')}\n${r.stderr}`).toBe(6);
      expect(r.stdout).toBe('');
      const said = (flags.includes('--json') ? lastJsonError(r).message : r.stderr).replace(/\s+/g, ' ');
      if (flags.includes('--json'))
        expect(lastJsonError(r)).toMatchObject({ code: 'TOKEN_RISKS_UNREAD', category: 'refused_to_sign' });
      expect(said).toContain(`the risks of token ${mint} could not be read on chain`);
      expect(said).toContain('node is behind');
      expect(said).toContain(
        'retry with an RPC that answers (--rpc-url, TRADER_RPC_URL), or buy it at the prompt (without --yes)',
      );
    }
    // The strictest policy changes nothing: unknown is refused under every policy.
    const strict = await runCli(['buy', mint, '0.01sol', '--yes'], { env: withProfile(env, { tokenRisk: 'refuse' }) });
    expect(strict.code, strict.stderr).toBe(6);
    writeFileSync(
      env.TRADER_CONFIG!,
      JSON.stringify({
        profiles: {
          default: {
            maxBuyLamports: '200000000',
            maxSlippageBps: 500,
            maxDailyBuyLamports: '10000000000',
            maxDailySellLamports: '10000000000',
          },
        },
      }),
      { mode: 0o600 },
    );
    const agent = await startMcp({ env, args: ['--allow-trading', '--no-confirm'] });
    try {
      const result = await agent.call('buy', { token: mint, amount: '0.01sol' });
      expect(result.isError, JSON.stringify(result.structuredContent)).toBe(true);
      expect(result.structuredContent.error).toMatchObject({ code: 'TOKEN_RISKS_UNREAD' });
    } finally {
      await agent.close();
    }
    expect(await buysOf(mint)).toHaveLength(before);
    expect(pinsFor(home, sb.url).acceptedRisks?.[mint]).toBeUndefined();
  }, 60_000);

  it.skipIf(!hasTmux())(
    'GRAB at the prompt: the review says its risks were not read, the question that a yes buys with them unknown; yes buys and accepts nothing',
    async () => {
      const mint = mintOf('GRAB');
      const home = freshHome();
      const env = { ...envFor(sb.url, home), NO_COLOR: '1', TRADER_RPC_URL: await rpcBehindFor(mint) };
      const s = await startInTmux(['buy', mint, '0.01sol'], env);
      sessions.push(s);
      const review = await s.waitFor('Sign and send this deposit, buying with its risks unknown? (y/N)');
      expect(review).toMatch(/^Risks\s+not read: the mint could not be read on chain$/m);
      await s.keys('y', 'Enter');
      expect(await s.exitCode()).toBe(0);
      expect(pinsFor(home, sb.url).acceptedRisks?.[mint]).toBeUndefined();
    },
  );
});
