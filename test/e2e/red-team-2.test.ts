// Issue 22, the second black-box red team (/work/redteam2-findings.json): what it got signed
// unattended, end to end through a hostile service in front of the sandbox. Each class is
// refused with nothing authorized (and, for a typed symbol, nothing created), and the honest
// control sell completes in the same test.
import { beforeAll, describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, json, runCli } from '../helpers/cli.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import { completeBuy, type TestSandbox } from '../helpers/sandbox.js';
import { expectEachRefused, expectHonestControl, startRewordingService, type HostileCase } from '../helpers/rewording-service.js';
import { pinsFor } from '../helpers/trust.js';

let sb: TestSandbox;
const { envFor, closeAfterAll } = sandboxForFile((started) => (sb = started));
const SELL_AMOUNT = '123450000';

beforeAll(async () => {
  await completeBuy(sb, { mint: sb.tokens[0]!.mint, amountLamports: '500000000' });
  await completeBuy(sb, { mint: sb.tokens[1]!.mint, amountLamports: '500000000' });
});

/** How many sells and buys the sandbox has been asked to create. */
async function created(): Promise<number> {
  return (await sb.requests()).filter((r) => r.method === 'POST' && /\/trade\/(sells|buys)$/.test(r.path)).length;
}

describe('class A: one token passed off as another already pinned', () => {
  it('after an honest WOOF sell pinned it, the SGLD mint relabelled WOOF: by mint exit 6, by symbol exit 2 (sell and buy), nothing authorized or created; the control sells', async () => {
    const [woof, sgld] = [sb.tokens[0]!, sb.tokens[1]!];
    expect(woof.symbol).toBe('WOOF');
    const home = freshHome();
    const service = await startRewordingService(sb, (a) => a.message);
    closeAfterAll(() => service.close());
    const env = envFor(service.url, home);
    const sellWoof = () => runCli(['sell', woof.mint, SELL_AMOUNT, '--yes', '--json'], { env });

    const first = await sellWoof();
    expect(first.code, first.stderr).toBe(0);
    expect(pinsFor(home, service.url).tokens?.[woof.mint]).toMatchObject({ symbol: 'WOOF', name: woof.name });
    expect(service.authorized).toHaveLength(1);

    const relabel = (symbol: string, name: string, realWoof?: { symbol: string; name: string }) => ({
      holding: (h: any) => {
        if (h.mint === sgld.mint) Object.assign(h, { symbol, name });
        if (h.mint === woof.mint && realWoof) Object.assign(h, realWoof);
      },
      authorization: (a: any) => void (a.message = a.message.replaceAll(sgld.symbol, symbol).replaceAll(sgld.name, name)),
    });
    const byMint: Array<[string, ReturnType<typeof relabel>, RegExp]> = [
      ['symbol and name of WOOF', relabel('WOOF', woof.name), /the symbol "WOOF", which is pinned for token/],
      ['the symbol WOOF only', relabel('WOOF', sgld.name), /the symbol "WOOF", which is pinned for token/],
      ['the name of WOOF only', relabel(sgld.symbol, woof.name), /the name "Woof Sandbox Dog", which is pinned for token/],
    ];
    for (const [label, tamper, says] of byMint) {
      service.tamper(tamper);
      const r = await runCli(['sell', sgld.mint, '100000', '--yes', '--json'], { env });
      expect(r.code, `${label}: ${r.stderr}`).toBe(6);
      const err = lastJsonError(r);
      expect(err.code, label).toBe('REFUSED_TO_SIGN');
      expect(err.message, label).toMatch(says);
      expect(err.message, label).toContain(sgld.mint);
      expect(err.message, label).toContain(woof.mint);
      expect(err.message, label).toContain('trader config trust forget tokens');
      expect(service.authorized, label).toHaveLength(1);
    }

    // `trader sell WOOF` / `trader buy WOOF` with the real WOOF relabelled: the symbol's pin wins, exit 2 before anything is created.
    service.tamper(relabel('WOOF', woof.name, { symbol: 'DOGE9', name: 'Other Dog' }));
    for (const args of [['sell', 'WOOF', '1%'], ['sell', 'woof', '1%'], ['buy', 'WOOF', '0.01sol']]) {
      const before = await created();
      const r = await runCli([...args, '--yes', '--json'], { env });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      const err = lastJsonError(r);
      expect(err.code, `${args.join(' ')}: ${err.message}`).toBe('TOKEN_PINNED_ELSEWHERE');
      expect(err.message).toContain(woof.mint);
      expect(err.message).toContain(sgld.mint);
      expect(err.message).toContain('trader config trust forget tokens');
      expect(await created(), args.join(' ')).toBe(before);
    }
    expect(service.authorized).toHaveLength(1);

    // A buy by mint of the SGLD mint the service calls WOOF: refused before signing (the chain
    // says SGLD, and WOOF is pinned for another mint); nothing is pinned for it.
    const sgldPin = pinsFor(home, service.url).tokens?.[sgld.mint];
    const buy = await runCli(['buy', sgld.mint, '0.01sol', '--yes', '--json'], { env });
    expect(buy.code, buy.stderr).toBe(6);
    expect(lastJsonError(buy).message).toContain(`the service gives token ${sgld.mint} the symbol "WOOF", but its metaplex metadata on chain says "SGLD"`);
    expect(lastJsonError(buy).message).toContain(`the service gives token ${sgld.mint} the symbol "WOOF", which is pinned for token ${woof.mint}`);
    expect(json(buy).intent.status).toBe('cancelled');
    expect(pinsFor(home, service.url).tokens?.[sgld.mint]).toEqual(sgldPin);

    // The real WOOF still held beside the impostor: `sell WOOF` means the pinned WOOF, and sells it.
    service.tamper(relabel('WOOF', woof.name));
    const pinnedOne = await runCli(['sell', 'WOOF', '1%', '--yes', '--json'], { env });
    expect(pinnedOne.code, pinnedOne.stderr).toBe(0);
    expect(json(pinnedOne).authorization.mint).toBe(woof.mint);
    expect(service.authorized).toHaveLength(2);

    service.tamper(null);
    const control = await runCli(['sell', 'WOOF', '1%', '--yes', '--json'], { env });
    expect(control.code, control.stderr).toBe(0);
    expect(json(control).sell.status).toBe('completed');
    expect(service.authorized).toHaveLength(3);
  });
});

describe('classes B, B2 and E: a look-alike currency, a scaling symbol, an address under another role', () => {
  it('after an honest pinned sell, each is refused with exit 6 and no authorize; the honest control sells', async () => {
    const [woof, sgld] = [sb.tokens[0]!, sb.tokens[1]!];
    const home = freshHome();
    const service = await startRewordingService(sb, (a) => a.message);
    closeAfterAll(() => service.close());
    const env = envFor(service.url, home);
    const sellWoof = () => runCli(['sell', woof.mint, SELL_AMOUNT, '--yes', '--json'], { env });
    const sellSgld = () => runCli(['sell', sgld.mint, '100000', '--yes', '--json'], { env });
    const first = await sellWoof();
    expect(first.code, first.stderr).toBe(0);
    expect(service.authorized).toHaveLength(1);

    const facts = (symbol: string, name: string) => ({
      holding: (h: any) => void (h.mint === sgld.mint && Object.assign(h, { symbol, name })),
      authorization: (a: any) => void (a.message = a.message.replaceAll(sgld.symbol, symbol).replaceAll(sgld.name, name)),
    });
    const cases: HostileCase[] = [
      ['symbol S0L', facts('S0L', sgld.name), sellSgld, /the token's symbol "S0L" names SOL/],
      ['symbol SOLs', facts('SOLs', sgld.name), sellSgld, /the token's symbol "SOLs" names SOL/],
      ['symbol KSOL', facts('KSOL', sgld.name), sellSgld, /the token's symbol "KSOL" names SOL/],
      ['symbol LAMP0RTS', facts('LAMP0RTS', sgld.name), sellSgld, /the token's symbol "LAMP0RTS" names lamports/],
      ['symbol WS0L, name Wrapped S0L', facts('WS0L', 'Wrapped S0L'), sellSgld, /the token's name "Wrapped S0L" names SOL/],
      ['symbol K', facts('K', sgld.name), sellSgld, /the token's symbol "K" reads as a suffix that scales the figure before it/],
      ['symbol E6', facts('E6', sgld.name), sellSgld, /the token's symbol "E6" reads as a suffix that scales/],
      ['name Thousand', facts(sgld.symbol, 'Thousand'), sellSgld, /the token's name "Thousand" reads as a suffix that scales/],
      [
        'Mint: <your wallet>, Token mint: <mint>',
        { authorization: (a: any) => void (a.message = `${a.message.replace(`Mint: ${a.mint}`, `Mint: ${sb.walletAddress}`)}\nToken mint: ${a.mint}`) },
        sellWoof,
        new RegExp(`the message labels your wallet ${sb.walletAddress} "Mint", the label of the token`),
      ],
    ];
    await expectEachRefused(service, cases);
    await expectHonestControl(service, sellWoof);
  });
});
