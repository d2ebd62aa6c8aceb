// The trust store: pins are per service (a sandbox pin never applies to another base URL) and
// made only by a person (here by the accept commands, which work without a terminal and print
// what they pin; the prompt's pins in prompt and screens-80x24 tests); `config trust` lists what
// is trusted and by which act; a `config set` made while a trade runs is never lost. (Mutual
// exclusion and re-reading under the lock: test/unit/locked-file.test.ts.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, json, runCli } from '../helpers/cli.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';
import { pinsFor } from '../helpers/trust.js';

let sb: TestSandbox;
const { envFor, tamperProxy: proxy } = sandboxForFile((started) => (sb = started));

const profileOf = (home: { TRADER_CONFIG: string }) =>
  JSON.parse(readFileSync(home.TRADER_CONFIG, 'utf8')).profiles.default;

describe('pins are per service', () => {
  it('a treasury pinned for the sandbox does not apply to another base URL; another profile of the same service shares it', async () => {
    const home = freshHome();
    const env = envFor(sb.url, home, { untrusted: true });
    const pin = await runCli(['config', 'trust', 'accept-treasury', sb.treasury, '--json'], { env });
    expect(pin.code, pin.stderr).toBe(0);
    expect(json(pin)).toMatchObject({ treasury: sb.treasury, replaced: null });
    expect(pinsFor(home, sb.url).treasury).toMatchObject({ address: sb.treasury, by: 'accept-command' });
    const other = await proxy();
    expect(pinsFor(home, other.url)).toEqual({});
    const elsewhere = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], {
      env: { ...env, TRADER_BASE_URL: other.url },
    });
    expect(elsewhere.code, elsewhere.stderr).toBe(6);
    expect(lastJsonError(elsewhere).code).toBe('TREASURY_NOT_PINNED');
    // The same service under another profile is not new.
    const again = await runCli(['--profile', 'second', 'buy', sb.tokens[0]!.mint, '0.01sol', '--dry-run'], { env });
    expect(again.code, again.stderr).toBe(0);
  });
});

describe('config trust: what is trusted and by which act', () => {
  it('the treasury and the wording by accept commands, no token recorded by an unattended sell; a bad fingerprint or mint is exit 2; forget wording asks a person again', async () => {
    const home = freshHome();
    const p = await proxy();
    const env = envFor(p.url, home, { untrusted: true });
    const token = sb.tokens[1]!;
    await completeBuy(sb, { mint: token.mint, amountLamports: '200000000' });
    const pinned = await runCli(['config', 'trust', 'accept-treasury', sb.treasury, '--json'], { env });
    expect(pinned.code, pinned.stderr).toBe(0);
    // Under --json the grant is a field of the result, with its undo; nothing else is printed.
    expect(json(pinned).granted).toEqual({
      what: 'treasury',
      address: sb.treasury,
      service: `${p.url}/api/v1`,
      undo: 'trader config trust forget treasury',
    });
    expect(pinned.stderr).toBe('');
    const sell = () => runCli(['sell', token.mint, '10%', '--yes', '--json'], { env });
    const refused = await sell();
    expect(refused.code, refused.stderr).toBe(6);
    const { fingerprint, command, code } = lastJsonError(refused);
    expect(code).toBe('WORDING_NOT_APPROVED');
    expect(command).toBe(`trader config trust accept-wording ${fingerprint}`);
    expect(p.seen.filter((r) => r.path.endsWith('/authorize'))).toEqual([]);

    const pending = await runCli(['config', 'trust'], { env });
    expect(pending.code, pending.stderr).toBe(0);
    expect(pending.stdout).toContain(`A sell wording ${fingerprint} was refused`);
    expect(pending.stdout).toContain('│ Minimum proceeds: ⟦minimum in SOL⟧ SOL (⟦minimum in lamports⟧ lamports)');
    expect(pending.stdout).toContain(`trader config trust accept-wording ${fingerprint}`);
    for (const [args, what] of [
      [['accept-wording', '0000000000000000'], 'NO_SUCH_WORDING'],
      [['accept-token', token.mint, '0000000000000000'], 'NO_SUCH_TOKEN_FACTS'],
      [['accept-treasury', 'not-an-address'], 'USAGE'],
      // One mint the store does not hold, or no mint at all: nothing changed.
      [['forget', 'token', token.mint], 'NO_SUCH_TOKEN'],
      [['forget', 'token', 'not-a-mint'], 'USAGE'],
    ] as const) {
      const before = pinsFor(home, p.url);
      const bad = await runCli(['config', 'trust', ...args, '--json'], { env });
      expect(bad.code, `${args.join(' ')}: ${bad.stderr}`).toBe(2);
      expect(lastJsonError(bad).code).toBe(what);
      expect(pinsFor(home, p.url)).toEqual(before);
    }
    const accept = await runCli(['config', 'trust', 'accept-wording', fingerprint!], { env });
    expect(accept.code, accept.stderr).toBe(0);
    expect(accept.stdout).toContain(
      `Approved sell wording ${fingerprint} (unattended sells must match it); undo:\n  trader config trust forget wording\n`,
    );
    expect(accept.stdout).toContain('│ Authorization: ⟦the authorization id (sell_ + base58 22)⟧');
    const sold = await sell();
    expect(sold.code, sold.stderr).toBe(0);

    const shown = await runCli(['config', 'trust', '--json'], { env });
    expect(json(shown)).toMatchObject({
      treasury: { address: sb.treasury, by: 'accept-command' },
      sellTemplate: { fingerprint, by: 'accept-command', text: expect.stringContaining('Mint: ⟦the mint⟧') },
    });
    // The sell ran unattended (--yes): it recorded no token facts (attack-2 §3).
    expect(json(shown).tokens).toBeUndefined();
    const human = await runCli(['config', 'trust'], { env });
    // Laid out to 80 columns, broken only between values: each field's lines joined to read it whole.
    const fields = human.stdout.replace(/\n {14}(?=\S)/g, ' ');
    expect(fields).toMatch(
      new RegExp(`\\(pinned by an accept command \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\S+\\)$`, 'm'),
    );
    expect(fields).toMatch(new RegExp(`^Treasury +${sb.treasury} \\(pinned by an accept command `, 'm'));
    expect(fields).toMatch(new RegExp(`^Sell wording +${fingerprint} \\(approved by an accept command `, 'm'));
    expect(fields).not.toMatch(/^Token /m);

    const forgot = await runCli(['config', 'trust', 'forget', 'wording', '--json'], { env });
    expect(json(forgot)).toMatchObject({ forgot: 'wording', hadPin: true });
    expect(lastJsonError(await sell()).code).toBe('WORDING_NOT_APPROVED');
  });
});

describe('accept-token confirms the facts a person read, by their fingerprint (attack-3 F8)', () => {
  it('a service that swaps ZED for WOOF between the refusal a person read and their accept: exit 2, the facts now kept shown, nothing confirmed or bound; the facts read are confirmed', async () => {
    // A token the chain states no symbol or name for: the service's facts wait for a person.
    const zed = (await sb.control('/tokens', { symbol: 'ZED', name: 'Zed Token', decimals: 6 })).mint;
    await sb.control('/chain/tokens', { mint: zed, metadata: 'none' });
    await completeBuy(sb, { mint: zed, amountLamports: '100000000' });
    let swapped = false;
    const p = await proxy();
    p.rewrite('GET', /^\/api\/v1\/holdings$/, (body) => ({
      ...body,
      data: body.data.map((h: { mint: string }) =>
        swapped && h.mint === zed ? { ...h, symbol: 'WOOF', name: 'Woof Sandbox Dog' } : h,
      ),
    }));
    const home = freshHome();
    const env = envFor(p.url, home, { untrusted: true });
    const sell = () => runCli(['sell', zed, '50%', '--yes', '--json'], { env });
    const refused = await sell();
    expect(refused.code, refused.stderr).toBe(6);
    const read = lastJsonError(refused);
    expect(read).toMatchObject({
      code: 'TOKEN_FACTS_UNCONFIRMED',
      command: `trader config trust accept-token ${zed} ${read.fingerprint}`,
    });
    expect(read.message).toContain(
      `the token facts kept for you (fingerprint ${read.fingerprint}): symbol "ZED", name "Zed Token", 6 decimals`,
    );
    const listed = await runCli(['config', 'trust'], { env });
    expect(listed.stdout).toContain(`Token facts ${read.fingerprint} refused at`);
    expect(listed.stdout.replace(/\s+/g, ' ')).toContain(
      `${zed}: ZED (Zed Token), 6 decimals If they are right, confirm them with: trader config trust accept-token ${zed} ${read.fingerprint}`,
    );

    // Meanwhile a refused trade (a cron'd --yes sell) keeps the service's new facts for the mint.
    swapped = true;
    const later = lastJsonError(await sell());
    expect(later.code).toBe('TOKEN_FACTS_UNCONFIRMED');
    expect(later.fingerprint).not.toBe(read.fingerprint);
    expect(json(await runCli(['config', 'trust', '--json'], { env })).pendingTokens[zed]).toMatchObject({
      symbol: 'WOOF',
      fingerprint: later.fingerprint,
    });

    const accept = await runCli(['config', 'trust', 'accept-token', zed, read.fingerprint!], { env });
    expect(accept.code, accept.stderr).toBe(2);
    expect(accept.stderr).toContain(
      `the token facts of ${zed} waiting for ${p.url}/api/v1 are not the ones with fingerprint ${read.fingerprint} (a later refusal keeps its own): they are now WOOF (Woof Sandbox Dog), 6 decimals (fingerprint ${later.fingerprint}, kept `,
    );
    expect(
      lastJsonError(await runCli(['config', 'trust', 'accept-token', zed, read.fingerprint!, '--json'], { env })).code,
    ).toBe('TOKEN_FACTS_CHANGED');
    expect(pinsFor(home, p.url)).toMatchObject({ pendingTokens: { [zed]: { symbol: 'WOOF' } } });
    expect(pinsFor(home, p.url).tokens).toBeUndefined();
    expect(pinsFor(home, p.url).symbols).toBeUndefined();

    // The honest control: the facts kept again are those read (the same fingerprint), and they are confirmed.
    swapped = false;
    expect(lastJsonError(await sell()).fingerprint).toBe(read.fingerprint);
    const confirmed = await runCli(['config', 'trust', 'accept-token', zed, read.fingerprint!, '--json'], { env });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(json(confirmed)).toMatchObject({
      mint: zed,
      fingerprint: read.fingerprint,
      token: { symbol: 'ZED', name: 'Zed Token', decimals: 6, by: 'accept-command' },
    });
    expect(pinsFor(home, p.url).symbols).toEqual({ zed: expect.objectContaining({ mint: zed, by: 'accept-command' }) });
    expect(json(confirmed).granted).toMatchObject({
      what: 'token-facts',
      mint: zed,
      symbol: 'ZED',
      undo: `trader config trust forget token ${zed}`,
    });
    // `config trust` writes the symbol as it was bound (ZED), not as compared (zed).
    const bound = await runCli(['config', 'trust'], { env: { ...env, COLUMNS: '250' } });
    expect(bound.stdout).toMatch(new RegExp(`^Symbol +ZED names ${zed} \\(bound by an accept command `, 'm'));
  });
});

describe('concurrency', () => {
  it('a config set made while a buy runs is kept, and so are the pins', async () => {
    const home = freshHome();
    let setting: Promise<unknown> | undefined;
    const buy = await runCli(['buy', sb.tokens[2]!.mint, '0.01sol', '--yes'], {
      env: envFor(sb.url, home),
      // Once the buy exists, before it ends.
      whenStderr: {
        includes: 'resume with',
        then: () => (setting = runCli(['config', 'set', 'maxBuyLamports', '700000000'], { env: envFor(sb.url, home) })),
      },
    });
    expect(buy.code, buy.stderr).toBe(0);
    expect(((await setting) as { code: number }).code).toBe(0);
    expect(profileOf(home).maxBuyLamports).toBe('700000000');
    expect(pinsFor(home, sb.url).treasury?.address).toBe(sb.treasury);
  });
});
