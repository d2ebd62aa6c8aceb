import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { completeBuy, newKey, startTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

describe('--state persistence', () => {
  it('restores keys, wallet, trades, positions, activity, pools and clock after a restart', async () => {
    const dir = tempDir('sandbox-state-');
    const statePath = join(dir, 'state.json');
    const first = await startTestSandbox({ statePath });
    const { intent, positionId } = await completeBuy(first);
    const pending = await first.call('POST', '/trade/buys', {
      body: { mint: first.tokens[1]!.mint, amountLamports: '100000000', idempotencyKey: 'persist-me' },
    });
    await first.advance(30);
    const tokensBefore = await first.control('/tokens');
    const clockBefore = await first.control('/clock');
    await first.close();
    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    expect(readFileSync(statePath, 'utf8')).toContain('$bigint');

    const second = await startTestSandbox({ statePath });
    try {
      expect([second.apiKey, second.readOnlyApiKey, second.otherApiKey, second.walletAddress]).toEqual([
        first.apiKey,
        first.readOnlyApiKey,
        first.otherApiKey,
        first.walletAddress,
      ]);
      // The generated key file went with the first sandbox; the restart wrote the same key again.
      expect(existsSync(first.keypairPath)).toBe(false);
      expect(JSON.parse(readFileSync(second.keypairPath, 'utf8'))).toEqual(Array.from(first.keypair.secretKey));
      expect((await second.call('GET', `/trade/buys/${intent.id}`)).body.data.intent.status).toBe('completed');
      expect((await second.call('GET', `/positions/${positionId}`)).body.data.status).toBe('open');
      expect((await second.call('GET', '/activity')).body.data.map((e: any) => e.type)).toEqual(['buy', 'deposit']);
      const replay = await second.call('POST', '/trade/buys', {
        body: { mint: first.tokens[1]!.mint, amountLamports: '100000000', idempotencyKey: 'persist-me' },
      });
      expect(replay.status).toBe(200);
      expect(replay.body.data).toEqual(pending.body.data);
      expect(await second.control('/tokens')).toEqual(tokensBefore);
      expect((await second.control('/clock')).offsetSeconds).toBe(clockBefore.offsetSeconds);
      expect((await second.call('GET', '/points')).body.data.totalPoints).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('uses a given keypair file and refuses a different one for an existing state', async () => {
    const dir = tempDir('sandbox-state-');
    const kp = Keypair.generate();
    const keypairPath = join(dir, 'id.json');
    writeFileSync(keypairPath, JSON.stringify(Array.from(kp.secretKey)));
    const statePath = join(dir, 'state.json');
    const sb = await startTestSandbox({ statePath, keypairPath });
    expect(sb.walletAddress).toBe(kp.publicKey.toBase58());
    expect(sb.keypairPath).toBe(keypairPath);
    await sb.call('POST', '/trade/buys', {
      body: { mint: sb.tokens[0]!.mint, amountLamports: '100000000', idempotencyKey: newKey() },
    });
    await sb.close();
    const otherPath = join(dir, 'other.json');
    writeFileSync(otherPath, JSON.stringify(Array.from(Keypair.generate().secretKey)));
    await expect(startTestSandbox({ statePath, keypairPath: otherPath })).rejects.toThrow(/belongs to wallet/);
  });

  it('generates a 0600 keypair file and random keys per start without --state', async () => {
    const a = await startTestSandbox();
    const b = await startTestSandbox();
    try {
      expect(statSync(a.keypairPath).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(a.keypairPath, 'utf8'))).toHaveLength(64);
      expect(a.apiKey).not.toBe(b.apiKey);
      expect(a.apiKey).toMatch(/^sk_sandbox_[1-9A-HJ-NP-Za-km-z]{32}$/);
      expect(a.walletAddress).not.toBe(b.walletAddress);
      expect(a.tokens.map((t) => t.mint)).toEqual(b.tokens.map((t) => t.mint));
      expect(a.treasury).toBe(b.treasury);
      expect(new Set(a.tokens.map((t) => t.decimals)).size).toBeGreaterThanOrEqual(3);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
