// A service that tags its deposits with an SPL Memo (the sandbox with its deposit memo on): the
// built binary shows the memo in the review and --json, signs it, and the buy completes; the
// chain's copy of the deposit is the transaction signed, memo included.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshHome, json, runCli } from '../helpers/cli.js';
import { sandboxForFile, type Home } from '../helpers/file-sandbox.js';
import { signings } from '../helpers/journal-file.js';
import type { TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
const { envFor } = sandboxForFile((started) => (sb = started));
const MEMO_V3 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

function home(): Home {
  const h = freshHome();
  mkdirSync(dirname(h.TRADER_CONFIG), { recursive: true, mode: 0o700 });
  writeFileSync(h.TRADER_CONFIG, JSON.stringify({ profiles: { default: { treasury: sb.treasury } } }), { mode: 0o600 });
  return h;
}

describe('deposits that carry a memo', () => {
  beforeAll(async () => {
    await sb.control('/deposit-memo', { on: true });
  });
  afterAll(async () => {
    await sb.control('/deposit-memo', { on: false });
  });

  it('the dry run shows the memo; the buy signs it and completes; the landed transaction carries it', async () => {
    const h = home();
    const mint = sb.tokens[1]!.mint;
    const dry = await runCli(['buy', mint, '0.01sol', '--dry-run', '--json'], { env: envFor(sb.url, h) });
    expect(dry.code, dry.stderr).toBe(0);
    const memo = json(dry).deposit.memo as string;
    expect(memo).toMatch(/^trader-sandbox:\S+$/);
    const human = await runCli(['buy', mint, '0.01sol', '--dry-run'], { env: envFor(sb.url, h) });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr + human.stdout).toMatch(/^Memo\s+"trader-sandbox:\S+" \(the$/m);
    const buy = await runCli(['buy', mint, '0.01sol', '--yes', '--json'], { env: envFor(sb.url, h) });
    expect(buy.code, buy.stderr).toBe(0);
    expect(json(buy).intent.status).toBe('completed');
    const [signed] = signings(h);
    const tx = VersionedTransaction.deserialize(Buffer.from(signed.transaction, 'base64'));
    const keys = tx.message.staticAccountKeys.map((k) => k.toBase58());
    const memoIx = tx.message.compiledInstructions.find((i) => keys[i.programIdIndex] === MEMO_V3)!;
    expect(Buffer.from(memoIx.data).toString('utf8')).toBe(`trader-sandbox:${json(buy).intent.id}`);
    const res = await fetch(sb.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'getTransaction',
        params: [signed.signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }],
      }),
    });
    const answer = (await res.json()) as {
      result: {
        transaction: {
          signatures: string[];
          message: {
            accountKeys: string[];
            recentBlockhash: string;
            instructions: Array<{ programIdIndex: number; data: string }>;
          };
        };
      };
    };
    expect(answer.result, JSON.stringify(answer)).toBeTruthy();
    const landed = answer.result.transaction;
    // The chain's copy is the transaction signed: its signature, keys, blockhash and the memo's text.
    expect(landed.signatures).toEqual(tx.signatures.map((sig) => bs58.encode(sig)));
    expect(landed.message.accountKeys).toEqual(keys);
    expect(landed.message.recentBlockhash).toBe(tx.message.recentBlockhash);
    const landedMemo = landed.message.instructions.find(
      (i) => landed.message.accountKeys[i.programIdIndex] === MEMO_V3,
    )!;
    expect(Buffer.from(bs58.decode(landedMemo.data)).toString('utf8')).toBe(`trader-sandbox:${json(buy).intent.id}`);
  });
});
