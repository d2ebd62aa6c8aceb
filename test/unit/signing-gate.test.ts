// The signing gate: one signature per trade, recorded before it is made, whatever the order of
// the runs that ask for it. The journal here is in memory (the file's lock: journal.test.ts; two
// processes at once: e2e/signing-races.test.ts).
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { ApiError, RefusedToSignError, UsageError } from '../../src/domain/errors.js';
import type { JournalRecord } from '../../src/journal/records.js';
import type { ToSign } from '../../src/journal/recorder.js';
import { signedAlready, signThroughGate } from '../../src/trade/signing-gate.js';
import { memoryRecorder } from '../helpers/memory-journal.js';
import { testSigner } from '../helpers/signer.js';
import { AMOUNT, budget, build, owner, transfer } from './tx-fixtures.js';
import { firstSignature } from '../../src/chain/deposit-signature.js';

const signer = () => testSigner(owner.secretKey);
const deposit = (transaction: string, provenDead: string[] = []): ToSign => ({
  kind: 'deposit',
  transaction,
  blockhash: 'B',
  lastValidBlockHeight: 90,
  blockhashKnownBeforeSigning: true,
  amountLamports: AMOUNT,
  platformFeeLamports: null,
  provenDead,
});
const sell = (message: string): ToSign => ({ kind: 'sell', message, minimumOutputLamports: 5n });
/** A journal that knows trade `id` (created), with `records` on disk. */
function journal(id = 'buy_1', records: JournalRecord[] = []) {
  const j = memoryRecorder({}, {}, { records });
  j.recorder.created({ id, idempotencyKey: 'k', resumed: false, request: { mint: 'M', amount: 1n }, quote: {} });
  return j;
}
const SIGN = { kind: 'sign' } as const;
const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('the signing gate', () => {
  it('records before-signing, signs, records the signature; the deposit carries a signature that verifies over its message', async () => {
    const j = journal();
    const tx = build([...budget(), transfer()]);
    const out = await signThroughGate(signer(), j.recorder, SIGN, deposit(tx));
    expect(j.calls.map((c) => c.call)).toEqual(['created', 'beforeSigning', 'signed']);
    expect(out.again).toBe(false);
    expect(out.signature).toBe(firstSignature(out.signed));
    expect(j.records.at(-1)).toMatchObject({ type: 'signed', signature: out.signature, transaction: out.signed });
    const sell1 = journal('sell_1');
    const s = await signThroughGate(signer(), sell1.recorder, SIGN, sell('Sell 1 WOOF'));
    expect(
      nacl.sign.detached.verify(
        new TextEncoder().encode('Sell 1 WOOF'),
        bs58.decode(s.signature),
        owner.publicKey.toBytes(),
      ),
    ).toBe(true);
    expect(sell1.records.map((r) => r.type)).toEqual(['before-signing', 'signed']);
    expect(sell1.records[0]).toMatchObject({ messageSha256: sha('Sell 1 WOOF'), minimumOutputLamports: '5' });
  });

  it('the same bytes again: the same signature back, nothing new recorded or counted; other bytes: exit 3 naming the first, nothing signed', async () => {
    const j = journal();
    const tx = build([...budget(), transfer()]);
    const first = await signThroughGate(signer(), j.recorder, SIGN, deposit(tx));
    const again = await signThroughGate(signer(), j.recorder, SIGN, deposit(tx));
    expect(again).toEqual({ ...first, again: true });
    expect(j.records).toHaveLength(2);
    // One micro-lamport more priority fee: another transaction for the same buy.
    const other = build([...budget(200_000, 1_001n), transfer()]);
    const refused = signThroughGate(signer(), j.recorder, SIGN, deposit(other));
    await expect(refused).rejects.toThrow(ApiError);
    await expect(refused).rejects.toMatchObject({
      code: 'SERVICE_CONTRADICTION',
      exitCode: 3,
      message: expect.stringContaining(`a deposit other than the one signed for it at `),
    });
    await expect(refused).rejects.toMatchObject({
      message: expect.stringContaining(`(${first.signature}); one buy is signed once`),
    });
    expect(j.records).toHaveLength(2);
    expect(signedAlready(j.recorder, deposit(tx))).toBe(true);
    expect(() => signedAlready(j.recorder, deposit(other))).toThrow(/one buy is signed once/);
    const s = journal('sell_1');
    await signThroughGate(signer(), s.recorder, SIGN, sell('Sell 1 WOOF'));
    await expect(signThroughGate(signer(), s.recorder, SIGN, sell('Sell 1 WOOF '))).rejects.toMatchObject({
      code: 'SERVICE_CONTRADICTION',
      message: expect.stringContaining('one authorization is signed once'),
    });
  });

  it('two runs racing on one trade with different bytes: exactly one signature leaves', async () => {
    const j = journal();
    const a = build([...budget(), transfer()]);
    const b = build([...budget(200_000, 1_001n), transfer()]);
    const results = await Promise.allSettled([
      signThroughGate(signer(), j.recorder, SIGN, deposit(a)),
      signThroughGate(signer(), j.recorder, SIGN, deposit(b)),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(j.records.filter((r) => r.type === 'signed')).toHaveLength(1);
  });

  it('what does not stand in the way: a before-signing with no signature after it (the run stopped between), a deposit the chain proved dead', async () => {
    const base = {
      v: 1 as const,
      at: '2030-01-01T00:00:00.000Z',
      service: 'memory',
      wallet: 'memory',
      side: 'buy' as const,
      trade: 'buy_1',
    };
    const cut: JournalRecord = {
      ...base,
      type: 'before-signing',
      messageSha256: 'a'.repeat(64),
      blockhash: 'B',
      lastValidBlockHeight: 1,
      blockhashKnownBeforeSigning: true,
      amountLamports: '1',
    };
    const j = journal('buy_1', [cut]);
    expect((await signThroughGate(signer(), j.recorder, SIGN, deposit(build([...budget(), transfer()])))).again).toBe(
      false,
    );
    const dead = journal('buy_1', [cut, { ...base, type: 'signed', messageSha256: 'a'.repeat(64), signature: 'DEAD' }]);
    await expect(
      signThroughGate(signer(), dead.recorder, SIGN, deposit(build([...budget(), transfer()]))),
    ).rejects.toThrow(/one buy is signed once/);
    expect(
      (await signThroughGate(signer(), dead.recorder, SIGN, deposit(build([...budget(), transfer()]), ['DEAD']))).again,
    ).toBe(false);
    // An earlier version's record (signed when written) stands in the way unless proven dead.
    const old = journal('buy_1', [
      {
        ...base,
        type: 'before-signing',
        signature: 'OLD',
        blockhash: 'B',
        lastValidBlockHeight: 1,
        blockhashKnownBeforeSigning: true,
        amountLamports: '1',
      },
    ]);
    await expect(
      signThroughGate(signer(), old.recorder, SIGN, deposit(build([...budget(), transfer()]))),
    ).rejects.toThrow(/\(OLD\); one buy is signed once/);
    expect(
      (await signThroughGate(signer(), old.recorder, SIGN, deposit(build([...budget(), transfer()]), ['OLD']))).again,
    ).toBe(false);
  });

  it('a verdict other than sign, a daily limit passed: nothing unlocked, recorded or signed', async () => {
    const s = signer();
    const j = journal();
    await expect(
      signThroughGate(
        s,
        j.recorder,
        { kind: 'refused', reasons: ['the deposit pays a stranger'] },
        deposit(build([...budget(), transfer()])),
      ),
    ).rejects.toThrow(RefusedToSignError);
    expect(s.unlocked.n).toBe(0);
    const capped = memoryRecorder({
      beforeSigning: 'a buy of 0.1 SOL would go over the daily limit; nothing was signed',
    });
    capped.recorder.created({
      id: 'buy_1',
      idempotencyKey: 'k',
      resumed: false,
      request: { mint: 'M', amount: 1n },
      quote: {},
    });
    await expect(signThroughGate(s, capped.recorder, SIGN, deposit(build([...budget(), transfer()])))).rejects.toThrow(
      UsageError,
    );
    expect(capped.records).toEqual([]);
    expect(j.records).toEqual([]);
  });
});
