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

const profileOf = (home: { TRADER_CONFIG: string }) => JSON.parse(readFileSync(home.TRADER_CONFIG, 'utf8')).profiles.default;

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
    const elsewhere = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: { ...env, TRADER_BASE_URL: other.url } });
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
    expect((await runCli(['config', 'trust', 'accept-treasury', sb.treasury], { env })).code).toBe(0);
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
      [['accept-token', token.mint], 'NO_SUCH_TOKEN_FACTS'],
      [['accept-treasury', 'not-an-address'], 'USAGE'],
    ] as const) {
      const bad = await runCli(['config', 'trust', ...args, '--json'], { env });
      expect(bad.code, `${args.join(' ')}: ${bad.stderr}`).toBe(2);
      expect(lastJsonError(bad).code).toBe(what);
    }
    const accept = await runCli(['config', 'trust', 'accept-wording', fingerprint!], { env });
    expect(accept.code, accept.stderr).toBe(0);
    expect(accept.stdout).toContain(`Approved sell wording ${fingerprint}`);
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
    expect(fields).toMatch(new RegExp(`\\(pinned by an accept command \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\S+\\)$`, 'm'));
    expect(fields).toMatch(new RegExp(`^Treasury +${sb.treasury} \\(pinned by an accept command `, 'm'));
    expect(fields).toMatch(new RegExp(`^Sell wording +${fingerprint} \\(approved by an accept command `, 'm'));
    expect(fields).not.toMatch(/^Token /m);

    const forgot = await runCli(['config', 'trust', 'forget', 'wording', '--json'], { env });
    expect(json(forgot)).toMatchObject({ forgot: 'wording', hadPin: true });
    expect(lastJsonError(await sell()).code).toBe('WORDING_NOT_APPROVED');
  });
});

describe('concurrency', () => {
  it('a config set made while a buy runs is kept, and so are the pins', async () => {
    const home = freshHome();
    let setting: Promise<unknown> | undefined;
    const buy = await runCli(['buy', sb.tokens[2]!.mint, '0.01sol', '--yes'], {
      env: envFor(sb.url, home),
      // Once the buy exists, before it ends.
      whenStderr: { includes: 'resume with', then: () => (setting = runCli(['config', 'set', 'maxBuyLamports', '700000000'], { env: envFor(sb.url, home) })) },
    });
    expect(buy.code, buy.stderr).toBe(0);
    expect(((await setting) as { code: number }).code).toBe(0);
    expect(profileOf(home).maxBuyLamports).toBe('700000000');
    expect(pinsFor(home, sb.url).treasury?.address).toBe(sb.treasury);
  });
});
