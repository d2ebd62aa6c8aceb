// The trust store and the config under concurrency: pins are per service (a sandbox pin never
// applies to another base URL), two first-use buys started at once cannot pin two treasuries,
// and a `config set` made while a trade runs is never lost. (Mutual exclusion and re-reading
// under the lock are tested deterministically in test/unit/locked-file.test.ts.)
import { readFileSync } from 'node:fs';
import { Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/cli.js';
import { sandboxForFile } from '../helpers/file-sandbox.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { pinsFor } from '../helpers/trust.js';

let sb: TestSandbox;
const { envFor, tamperProxy: proxy } = sandboxForFile((started) => (sb = started));

const profileOf = (home: { TRADER_CONFIG: string }) => JSON.parse(readFileSync(home.TRADER_CONFIG, 'utf8')).profiles.default;

describe('pins are per service', () => {
  it('a treasury pinned against the sandbox does not apply to another base URL, nor does one pinned elsewhere apply to the sandbox', async () => {
    const home = freshHome();
    const buy = await runCli(['buy', sb.tokens[0]!.mint, '0.01sol', '--yes', '--json'], { env: envFor(sb.url, home) });
    expect(buy.code, buy.stderr).toBe(0);
    expect(pinsFor(home, sb.url).treasury?.address).toBe(sb.treasury);
    const other = await proxy();
    expect(pinsFor(home, other.url)).toEqual({});
    // The same service under another profile is not a first use.
    const again = await runCli(['--profile', 'second', 'buy', sb.tokens[0]!.mint, '0.01sol', '--yes'], { env: envFor(sb.url, home) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('first use');
    expect(again.stderr).not.toContain('Pinned treasury');
  });
});

describe('concurrency', () => {
  it('two first-use buys started at once, one deposit paying another address: one treasury is pinned and the other buy is refused unsigned', async () => {
    const home = freshHome();
    const p = await proxy();
    const stranger = Keypair.generate().publicKey;
    let creates = 0;
    p.rewrite('POST', /^\/api\/v1\/trade\/buys$/, (body) => {
      if (++creates !== 2) return body;
      // The second buy's deposit pays someone else.
      const { intent, deposit } = body.data;
      const decoded = VersionedTransaction.deserialize(Buffer.from(deposit.transaction, 'base64'));
      const owner = new PublicKey(sb.walletAddress);
      const message = new TransactionMessage({
        payerKey: owner,
        recentBlockhash: decoded.message.recentBlockhash,
        instructions: [SystemProgram.transfer({ fromPubkey: owner, toPubkey: stranger, lamports: BigInt(intent.amountLamports) })],
      }).compileToV0Message();
      deposit.transaction = Buffer.from(new VersionedTransaction(message).serialize()).toString('base64');
      return body;
    });
    const args = ['buy', sb.tokens[1]!.mint, '0.01sol', '--yes', '--json'];
    const runs = await Promise.all([runCli(args, { env: envFor(p.url, home) }), runCli(args, { env: envFor(p.url, home) })]);
    const pinned = pinsFor(home, p.url).treasury?.address;
    expect([sb.treasury, stranger.toBase58()]).toContain(pinned);
    const deposits = p.seen.filter((r) => r.method === 'POST' && r.path.endsWith('/deposit'));
    // Exactly one run signed: the one whose recipient is the pinned treasury.
    expect(deposits, runs.map((r) => r.stderr).join('\n')).toHaveLength(1);
    const refused = runs.filter((r) => r.code === 6);
    expect(refused, runs.map((r) => r.stderr).join('\n')).toHaveLength(1);
    expect(refused[0]!.stderr).toMatch(/pinned treasury|pinned as this service's treasury meanwhile/);
  });

  it('a config set made while a first-use buy runs is kept, and so is the pin', async () => {
    const home = freshHome();
    let setting: Promise<unknown> | undefined;
    const buy = await runCli(['buy', sb.tokens[2]!.mint, '0.01sol', '--yes'], {
      env: envFor(sb.url, home),
      // Right after the pin, before the buy ends.
      whenStderr: { includes: 'Pinned treasury', then: () => (setting = runCli(['config', 'set', 'maxBuyLamports', '700000000'], { env: envFor(sb.url, home) })) },
    });
    expect(buy.code, buy.stderr).toBe(0);
    expect(((await setting) as { code: number }).code).toBe(0);
    expect(profileOf(home).maxBuyLamports).toBe('700000000');
    expect(pinsFor(home, sb.url).treasury?.address).toBe(sb.treasury);
  });
});

describe('token facts pinned on first trade', () => {
  it('a buy pins the token’s symbol and decimals; a sell after the service changed its decimals is refused unsigned (exit 6) naming the command that forgets them, which then works', async () => {
    const home = freshHome();
    const mint = sb.tokens[2]!.mint;
    // Pins are per service: everything goes through the proxy's base URL.
    const p = await proxy();
    const bought = await runCli(['buy', mint, '0.01sol', '--yes', '--json'], { env: envFor(p.url, home) });
    expect(bought.code, bought.stderr).toBe(0);
    const realDecimals = pinsFor(home, p.url).tokens?.[mint]?.decimals;
    expect(realDecimals).toEqual(expect.any(Number));
    // The service now says the token has other decimals: "whole tokens" in the message would mean another amount.
    const lie = (body: any) => {
      for (const h of body.data) if (h.mint === mint) h.decimals = realDecimals === 2 ? 3 : 2;
      return body;
    };
    p.rewrite('GET', /^\/api\/v1\/holdings/, lie);
    const sell = await runCli(['sell', mint, '50%', '--yes', '--json'], { env: envFor(p.url, home) });
    expect(sell.code, sell.stderr).toBe(6);
    expect(sell.stderr).toContain(`the service now gives token ${mint} decimals`);
    expect(sell.stderr).toContain('trader config trust forget tokens');
    expect(p.seen.filter((r) => r.path.endsWith('/authorize'))).toEqual([]);
    const forgot = await runCli(['config', 'trust', 'forget', 'tokens', '--json'], { env: envFor(p.url, home) });
    expect(forgot.code, forgot.stderr).toBe(0);
    expect(JSON.parse(forgot.stdout)).toMatchObject({ forgot: 'tokens', hadPin: true });
  });
});
