// The sell-message wording is pinned per service like a known host: the first sell pins it and
// shows it; a changed wording is refused under --yes with the command that accepts it, signed
// after that command; at the prompt the change is shown old against new with its own
// default-No question. A service that rewords its messages stands in for a real one.
import { beforeAll, describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, json, runCli } from '../helpers/cli.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { hasTmux, startInTmux, type PtySession } from '../helpers/pty.js';
import { startRewordingService, type RewordingService } from '../helpers/rewording-service.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';
import { pinsFor } from '../helpers/trust.js';

let sb: TestSandbox;
let token: { mint: string; symbol: string; decimals: number };
const { envFor, closeAfterAll } = sandboxForFile((started) => (sb = started));

beforeAll(async () => {
  token = sb.tokens[0]!;
  await completeBuy(sb, { mint: token.mint, amountLamports: '500000000' });
});

/** 1,000 WOOF: enough for a minimum above 0 lamports (a sale with no floor is refused). */
const SELL_RAW = '100000000';
const sol = (lamports: string) => (BigInt(lamports) / 1_000_000_000n).toString() + '.' + (BigInt(lamports) % 1_000_000_000n).toString().padStart(9, '0');
/** Wording A: one line. */
const wordingA = (a: any) => `Sell ${a.amount} raw units of ${a.mint} for at least ${a.minimumOutputLamports} lamports`;
/** Wording B: the same facts, worded otherwise. */
const wordingB = (a: any) => `Authorize the sale of ${a.amount} raw units of ${a.mint}.\nMinimum proceeds: ${sol(a.minimumOutputLamports)} SOL`;

async function service(reword: (a: any) => string): Promise<RewordingService> {
  const s = await startRewordingService(sb, reword);
  closeAfterAll(() => s.close());
  return s;
}

describe('the wording is pinned per service', () => {
  it('first sell pins and shows it; a changed wording is refused under --yes (exit 6, nothing signed); accepted with the command the refusal names, then signed', async () => {
    const home = freshHome();
    const s = await service(wordingA);
    const env = envFor(s.url, home);

    const first = await runCli(['sell', token.mint, SELL_RAW, '--yes'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('First sell with this service');
    expect(first.stderr).toContain('Sell {amount.raw} raw units of {mint} for at least {minimum.lamports} lamports');
    const pinned = pinsFor(home, s.url).sellWording!;
    expect(pinned.text).toBe('Sell {amount.raw} raw units of {mint} for at least {minimum.lamports} lamports');
    expect(s.signedReworded).toHaveLength(1);

    // The same wording again: signed, no question.
    const same = await runCli(['sell', token.mint, SELL_RAW, '--yes', '--json'], { env });
    expect(same.code, same.stderr).toBe(0);
    expect(s.signedReworded).toHaveLength(2);

    // The service changes its wording: refused, and kept for the user to read.
    s.reword(wordingB);
    const changed = await runCli(['sell', token.mint, SELL_RAW, '--yes', '--json'], { env });
    expect(changed.code, changed.stderr).toBe(6);
    const err = lastJsonError(changed);
    expect(err.code).toBe('REFUSED_TO_SIGN');
    expect(err.message).toContain(`the service's sell message wording changed: "Sell {amount.raw} raw units of {mint} for at least {minimum.lamports} lamports" became "Authorize the sale of {amount.raw} raw units of {mint}. / Minimum proceeds: {minimum.sol} SOL"`);
    const fingerprint = /accept-wording ([0-9a-f]{16})/.exec(err.message)?.[1];
    expect(fingerprint, err.message).toBeDefined();
    expect(s.authorized).toHaveLength(2);
    expect(pinsFor(home, s.url).sellWording).toEqual(pinned);

    // `config trust` shows it; a wrong fingerprint is refused; the right one pins it.
    const show = await runCli(['config', 'trust'], { env });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain(`A changed sell wording ${fingerprint} was refused`);
    expect(show.stdout).toContain('│ Minimum proceeds: {minimum.sol} SOL');
    const wrong = await runCli(['config', 'trust', 'accept-wording', '0000000000000000'], { env });
    expect(wrong.code).toBe(2);
    const accept = await runCli(['config', 'trust', 'accept-wording', fingerprint!], { env });
    expect(accept.code, accept.stderr).toBe(0);
    expect(pinsFor(home, s.url).sellWording?.fingerprint).toBe(fingerprint);

    const after = await runCli(['sell', token.mint, SELL_RAW, '--yes', '--json'], { env });
    expect(after.code, after.stderr).toBe(0);
    expect(json(after).sell.status).toBe('completed');
    expect(s.signedReworded.at(-1)).toMatch(/^Authorize the sale of 100000000 raw units/);
  });

  it('pins belong to a service, not a profile: another base URL starts fresh; another profile does not', async () => {
    const home = freshHome();
    const a = await service(wordingA);
    const b = await service(wordingB);
    expect((await runCli(['sell', token.mint, SELL_RAW, '--yes', '--json'], { env: envFor(a.url, home) })).code).toBe(0);
    // Another service (the sandbox on another address) is a first use of its own.
    const other = await runCli(['sell', token.mint, SELL_RAW, '--yes', '--json'], { env: envFor(b.url, home) });
    expect(other.code, other.stderr).toBe(0);
    expect(pinsFor(home, b.url).sellWording?.text).toContain('Minimum proceeds: {minimum.sol} SOL');
    expect(pinsFor(home, a.url).sellWording?.text).toContain('for at least {minimum.lamports} lamports');
    // A second profile for service A is not a first use: B's wording through A's URL is refused.
    a.reword(wordingB);
    const otherProfile = await runCli(['--profile', 'second', 'sell', token.mint, SELL_RAW, '--yes', '--json'], { env: envFor(a.url, home) });
    expect(otherProfile.code, otherProfile.stderr).toBe(6);
    expect(lastJsonError(otherProfile).message).toContain('wording changed');
  });
});

const TMUX = hasTmux();

describe.skipIf(!TMUX)('a changed wording at the prompt', () => {
  it('is shown old against new with its own default-No question; Enter there signs nothing', async () => {
    const home = freshHome();
    const s = await service(wordingA);
    const env = envFor(s.url, home);
    expect((await runCli(['sell', token.mint, SELL_RAW, '--yes'], { env })).code).toBe(0);
    s.reword(wordingB);

    const pty: PtySession = await startInTmux(['sell', token.mint, SELL_RAW], { ...env, NO_COLOR: '1' });
    closeAfterAll(() => pty.close());
    const review = await pty.waitFor('Sign this message and sell? (y/N)');
    expect(review).toMatch(/The service's message wording changed since it was pinned \([0-9a-f]{16} → [0-9a-f]{16}\):/);
    expect(review).toContain('- Sell {amount.raw} raw units of {mint} for at least {minimum.lamports} lamports');
    expect(review).toContain('+ Authorize the sale of {amount.raw} raw units of {mint}.');
    expect(review).toContain('+ Minimum proceeds: {minimum.sol} SOL');
    await pty.keys('y', 'Enter');
    await pty.waitFor("Accept the service's changed message wording (shown above) for this service, and sign? (y/N)");
    await pty.keys('Enter');
    expect(await pty.exitCode()).toBe(4);
    expect(await pty.screen()).toMatch(/Declined; nothing was signed; the message was not accepted/);
    expect(s.authorized).toHaveLength(1);
    expect(pinsFor(home, s.url).sellWording?.text).toContain('for at least {minimum.lamports} lamports');
  });
});
