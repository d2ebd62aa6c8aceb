import {
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import bs58 from 'bs58';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_START_BALANCE_LAMPORTS } from '../../src/domain/defaults.js';
import { DEFAULT_START_BALANCE_LAMPORTS } from '../../src/sandbox/wallet.js';
import {
  completeBuy,
  newKey,
  signDeposit,
  signMessage,
  startTestSandbox,
  type TestSandbox,
} from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await startTestSandbox();
});
afterEach(async () => {
  await sb.close();
});

async function createBuy(amountLamports = '100000000', extra: Record<string, unknown> = {}) {
  const res = await sb.call('POST', '/trade/buys', {
    body: { mint: sb.tokens[0]!.mint, amountLamports, idempotencyKey: newKey(), ...extra },
  });
  expect(res.status).toBe(201);
  return res.body.data as { intent: any; deposit: { transaction: string; lastValidBlockHeight: number } };
}

/** Rebuild the deposit with other instructions / payer, signed by `signer`. */
function forgedDeposit(
  original: string,
  signer: Keypair,
  change: { to?: PublicKey; lamports?: bigint; extraTransfer?: boolean; payer?: Keypair },
): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(original, 'base64'));
  const payer = change.payer ?? signer;
  const ixs = [
    SystemProgram.transfer({
      fromPubkey: payer.publicKey,
      toPubkey: change.to ?? new PublicKey(sb.treasury),
      lamports: change.lamports ?? 100_000_000n,
    }),
  ];
  if (change.extraTransfer) {
    ixs.push(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1n }),
    );
  }
  const msg = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: tx.message.recentBlockhash,
    instructions: ixs,
  }).compileToV0Message();
  const forged = new VersionedTransaction(msg);
  forged.sign([signer]);
  return Buffer.from(forged.serialize()).toString('base64');
}

async function status(id: string) {
  return (await sb.call('GET', `/trade/buys/${id}`)).body.data.intent.status as string;
}

describe('buy create', () => {
  it('returns an awaiting_deposit intent and an unsigned v0 deposit paying exactly the amount to the treasury', async () => {
    // The sandbox's clock runs with real time: what the create stamps lies between a read of the
    // clock before it and one after it, however slow the machine.
    const clockBefore = await sb.control('/clock');
    const { intent, deposit } = await createBuy('250000000');
    const clockAfter = await sb.control('/clock');
    const [before, after] = [Date.parse(clockBefore.now), Date.parse(clockAfter.now)];
    expect(intent).toMatchObject({
      status: 'awaiting_deposit',
      outputMint: sb.tokens[0]!.mint,
      amountLamports: '250000000',
    });
    expect(intent.id).toMatch(/^[0-9a-f-]{36}$/);
    // Ten minutes on the sandbox's clock from the create.
    const expires = Date.parse(intent.depositExpiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 600_000);
    expect(expires).toBeLessThanOrEqual(after + 600_000);
    const tx = VersionedTransaction.deserialize(Buffer.from(deposit.transaction, 'base64'));
    expect(tx.version).toBe(0);
    expect(tx.message.staticAccountKeys[0]!.toBase58()).toBe(sb.walletAddress);
    expect(tx.message.header.numRequiredSignatures).toBe(1);
    expect(tx.signatures[0]!.every((b) => b === 0)).toBe(true);
    const programs = tx.message.compiledInstructions.map((ix) =>
      tx.message.staticAccountKeys[ix.programIdIndex]!.toBase58(),
    );
    expect(programs).toEqual([
      'ComputeBudget111111111111111111111111111111',
      'ComputeBudget111111111111111111111111111111',
      SystemProgram.programId.toBase58(),
    ]);
    const transfer = Buffer.from(tx.message.compiledInstructions[2]!.data);
    expect(transfer.readBigUInt64LE(4)).toBe(250_000_000n);
    expect(tx.message.staticAccountKeys[tx.message.compiledInstructions[2]!.accountKeyIndexes[1]!]!.toBase58()).toBe(
      sb.treasury,
    );
    // 150 blocks after the block height at the create.
    expect(deposit.lastValidBlockHeight).toBeGreaterThanOrEqual(clockBefore.blockHeight + 150);
    expect(deposit.lastValidBlockHeight).toBeLessThanOrEqual(clockAfter.blockHeight + 150);
  });

  it('locks the minimum output by slippage (default 100 bps) with bigint rounding down', async () => {
    const a = await createBuy('100000000');
    const b = await createBuy('100000000', { slippageBps: 500 });
    const trade = (await sb.call('GET', `/trades/${a.intent.id}`)).body.data;
    expect(trade.slippageBps).toBe(100);
    expect(trade.platformFeeLamports).toBe('1000000');
    expect(BigInt(trade.minimumOutputAmount)).toBe((BigInt(trade.expectedOutputAmount) * 9900n) / 10000n);
    expect(BigInt(b.intent.minimumOutputAmount)).toBeLessThan(BigInt(a.intent.minimumOutputAmount));
  });

  it('is idempotent: same key returns the original intent and deposit (200), different parameters 409', async () => {
    const key = newKey();
    const body = { mint: sb.tokens[1]!.mint, amountLamports: '100000000', idempotencyKey: key };
    const first = await sb.call('POST', '/trade/buys', { body });
    const again = await sb.call('POST', '/trade/buys', { body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    const other = await sb.call('POST', '/trade/buys', { body: { ...body, amountLamports: '200000000' } });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const positions = await sb.call('GET', '/positions');
    expect(positions.body.data).toHaveLength(1);
  });

  it('a larger order gets a worse average price (constant-product pool)', async () => {
    const small = await createBuy('100000000');
    const big = await createBuy('100000000000');
    const perLamportSmall = Number(small.intent.minimumOutputAmount) / 1e8;
    const perLamportBig = Number(big.intent.minimumOutputAmount) / 1e11;
    expect(perLamportBig).toBeLessThan(perLamportSmall * 0.95);
  });
});

describe('buy deposit (safety rules 1, 2 and 4)', () => {
  it('rejects a deposit paid and signed by another wallet; the intent stays awaiting_deposit', async () => {
    const { intent, deposit } = await createBuy();
    const stranger = Keypair.generate();
    const res = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: forgedDeposit(deposit.transaction, stranger, {}) },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('WRONG_SIGNER');
    expect(await status(intent.id)).toBe('awaiting_deposit');
  });

  it('rejects a deposit whose owner signature is not valid', async () => {
    const { intent, deposit } = await createBuy();
    const tx = VersionedTransaction.deserialize(Buffer.from(deposit.transaction, 'base64'));
    tx.signatures[0] = new Uint8Array(64).fill(7);
    const res = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: Buffer.from(tx.serialize()).toString('base64') },
    });
    expect(res.body.error.code).toBe('INVALID_SIGNATURE');
    const unsigned = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: deposit.transaction },
    });
    expect(unsigned.status).toBe(422);
    expect(await status(intent.id)).toBe('awaiting_deposit');
  });

  it.each([
    ['WRONG_AMOUNT', { lamports: 99_999_999n }],
    ['WRONG_RECIPIENT', { to: Keypair.generate().publicKey }],
    ['UNEXPECTED_INSTRUCTION', { extraTransfer: true }],
  ] as const)('rejects %s and keeps the intent awaiting_deposit', async (code, change) => {
    const { intent, deposit } = await createBuy();
    const res = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: forgedDeposit(deposit.transaction, sb.keypair, change) },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe(code);
    expect(await status(intent.id)).toBe('awaiting_deposit');
    // The right deposit still goes through afterwards.
    const ok = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: signDeposit(deposit.transaction, sb.keypair) },
    });
    expect(ok.status).toBe(200);
  });

  it('rejects garbage and non-base64 transactions with 400', async () => {
    const { intent } = await createBuy();
    for (const signedTransaction of ['not base64!!', 'AAAA', 42]) {
      const res = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, { body: { signedTransaction } });
      expect(res.status).toBe(400);
    }
    expect(await status(intent.id)).toBe('awaiting_deposit');
  });

  it('accepts the deposit once: a second submit is 409 DEPOSIT_ALREADY_ACCEPTED', async () => {
    const { intent, deposit } = await createBuy();
    const signed = signDeposit(deposit.transaction, sb.keypair);
    const first = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, { body: { signedTransaction: signed } });
    expect(first.status).toBe(200);
    expect(first.body.data.intent.status).toBe('deposit_submitted');
    const second = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, { body: { signedTransaction: signed } });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('DEPOSIT_ALREADY_ACCEPTED');
  });

  it('rejects a deposit whose blockhash has expired (150 blocks)', async () => {
    const { intent, deposit } = await createBuy();
    await sb.advance(61);
    const res = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: signDeposit(deposit.transaction, sb.keypair) },
    });
    expect(res.body.error.code).toBe('BLOCKHASH_EXPIRED');
    expect(await status(intent.id)).toBe('awaiting_deposit');
  });
});

describe('buy lifecycle', () => {
  it('confirms only when GET /trade/buys/{id} is read; /trades stays read-only; then swaps and completes with time', async () => {
    const { intent, deposit } = await createBuy();
    await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: signDeposit(deposit.transaction, sb.keypair) },
    });
    let pos = (await sb.call('GET', '/positions')).body.data[0];
    expect(pos.status).toBe('pending_funding');
    await sb.advance(10);
    const polled = await sb.call('GET', `/trades/${intent.id}/status`);
    expect(polled.body.data).toMatchObject({
      status: 'deposit_submitted',
      stage: 'confirming_deposit',
      terminal: false,
    });
    expect(polled.body.data.signatures.deposit).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/);
    const full = await sb.call('GET', `/trades/${intent.id}`);
    expect(full.body.data).toMatchObject({ status: 'deposit_submitted', stage: 'confirming_deposit' });
    expect((await sb.call('GET', '/activity')).body.data).toEqual([]);

    expect(await status(intent.id)).toBe('deposit_confirmed');
    pos = (await sb.call('GET', `/positions/${pos.id}`)).body.data;
    expect(pos.status).toBe('funded');
    expect((await sb.call('GET', '/activity', { query: { type: 'deposit' } })).body.data).toHaveLength(1);

    await sb.advance(2);
    const executing = (await sb.call('GET', `/trades/${intent.id}`)).body.data;
    expect(executing).toMatchObject({ status: 'swap_submitted', stage: 'executing', terminal: false });
    expect(executing.signatures.swaps).toHaveLength(1);

    await sb.advance(2);
    const done = (await sb.call('GET', `/trades/${intent.id}`)).body.data;
    expect(done).toMatchObject({ status: 'completed', stage: 'completed', terminal: true });
    expect(BigInt(done.receivedOutputAmount)).toBeGreaterThanOrEqual(BigInt(done.minimumOutputAmount));
    expect(done.completedAt).not.toBeNull();
    expect(await status(intent.id)).toBe('completed');

    pos = (await sb.call('GET', `/positions/${pos.id}`)).body.data;
    expect(pos).toMatchObject({
      status: 'open',
      boughtAmount: done.receivedOutputAmount,
      remainingAmount: done.receivedOutputAmount,
      soldAmount: '0',
      costLamports: '99000000',
      principalLamports: '100000000',
      buyTradeId: intent.id,
      buySignature: done.signatures.swaps[0],
    });
    const buys = (await sb.call('GET', '/activity', { query: { type: 'buy' } })).body.data;
    expect(buys).toHaveLength(1);
    // 0.099 SOL at $150 = $14.85 → 742.5 points.
    expect(buys[0]).toMatchObject({
      amount: done.receivedOutputAmount,
      solLamports: '99000000',
      usdValue: 14.85,
      points: 742.5,
    });
    const points = (await sb.call('GET', '/points')).body.data;
    expect(points).toMatchObject({ totalPoints: 742.5, volumeUsd: '14.85', completedSwaps: 1, pointsPerUsd: 50 });
    expect(points.rank).toBeGreaterThan(0);
  });

  it('cancel works only from awaiting_deposit', async () => {
    const a = await createBuy();
    const cancelled = await sb.call('POST', `/trade/buys/${a.intent.id}/cancel`, { body: {} });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.intent.status).toBe('cancelled');
    expect((await sb.call('GET', `/trades/${a.intent.id}/status`)).body.data).toMatchObject({
      stage: 'cancelled',
      terminal: true,
    });
    const again = await sb.call('POST', `/trade/buys/${a.intent.id}/cancel`);
    expect(again.status).toBe(409);
    const dep = await sb.call('POST', `/trade/buys/${a.intent.id}/deposit`, {
      body: { signedTransaction: signDeposit(a.deposit.transaction, sb.keypair) },
    });
    expect(dep.status).toBe(409);
    const b = await createBuy();
    await sb.call('POST', `/trade/buys/${b.intent.id}/deposit`, {
      body: { signedTransaction: signDeposit(b.deposit.transaction, sb.keypair) },
    });
    const late = await sb.call('POST', `/trade/buys/${b.intent.id}/cancel`, { body: {} });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('INVALID_STATE');
    const positions = (await sb.call('GET', '/positions', { query: { status: 'cancelled' } })).body.data;
    expect(positions.map((p: any) => p.buyTradeId)).toEqual([a.intent.id]);
  });

  it('expires at 10 minutes without a deposit', async () => {
    const { intent, deposit } = await createBuy();
    await sb.advance(599);
    expect(await status(intent.id)).toBe('awaiting_deposit');
    await sb.advance(2);
    const t = (await sb.call('GET', `/trades/${intent.id}/status`)).body.data;
    expect(t).toMatchObject({ status: 'expired', stage: 'expired', terminal: true });
    expect(await status(intent.id)).toBe('expired');
    const dep = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: signDeposit(deposit.transaction, sb.keypair) },
    });
    expect(dep.status).toBe(410);
    expect(dep.body.error.code).toBe('INTENT_EXPIRED');
    expect((await sb.call('GET', '/positions')).body.data[0].status).toBe('cancelled');
  });

  it('expires when the deposit cannot confirm before depositExpiresAt', async () => {
    await sb.setDelays({ confirmSeconds: 3600 });
    const { intent, deposit } = await createBuy();
    await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: signDeposit(deposit.transaction, sb.keypair) },
    });
    await sb.advance(300);
    expect(await status(intent.id)).toBe('deposit_submitted');
    await sb.advance(301);
    expect(await status(intent.id)).toBe('expired');
  });

  it('a failed swap goes failed → refunding (recovering, in_progress, complete) → refunded', async () => {
    await sb.control('/fail-next-swap', {});
    const { intent, deposit } = await createBuy();
    await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: signDeposit(deposit.transaction, sb.keypair) },
    });
    await sb.advance(2.01);
    expect(await status(intent.id)).toBe('deposit_confirmed');
    await sb.advance(4);
    expect(await status(intent.id)).toBe('failed');
    let t = (await sb.call('GET', `/trades/${intent.id}`)).body.data;
    expect(t).toMatchObject({
      stage: 'refunding',
      terminal: false,
      refund: { state: 'recovering', amountLamports: '100000000' },
    });
    expect(t.failure.code).toBe('SWAP_FAILED');
    expect((await sb.call('GET', '/positions')).body.data[0].status).toBe('refund_pending');
    await sb.advance(2);
    t = (await sb.call('GET', `/trades/${intent.id}/status`)).body.data;
    expect(t.refund.state).toBe('in_progress');
    expect(t.signatures.refund).toEqual(expect.any(String));
    await sb.advance(2);
    t = (await sb.call('GET', `/trades/${intent.id}/status`)).body.data;
    expect(t).toMatchObject({ status: 'refunded', stage: 'refunded', terminal: true, refund: { state: 'complete' } });
    expect(await status(intent.id)).toBe('refunded');
    expect((await sb.call('GET', '/positions')).body.data[0].status).toBe('refunded');
    const refunds = (await sb.call('GET', '/activity', { query: { type: 'refund' } })).body.data;
    expect(refunds).toHaveLength(1);
    expect(refunds[0].solLamports).toBe('100000000');
    // The fault was used once: the next buy completes.
    const next = await completeBuy(sb);
    expect(next.intent.status).toBe('completed');
  });

  it('a buy whose price ran away before the swap fails SLIPPAGE_EXCEEDED and is refunded', async () => {
    const { intent, deposit } = await createBuy();
    await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: signDeposit(deposit.transaction, sb.keypair) },
    });
    await sb.advance(2.01);
    await sb.call('GET', `/trade/buys/${intent.id}`);
    await sb.control('/price', { mint: sb.tokens[0]!.mint, multiplier: 2 });
    await sb.advance(4);
    const t = (await sb.call('GET', `/trades/${intent.id}`)).body.data;
    expect(t.failure.code).toBe('SLIPPAGE_EXCEEDED');
    expect(t.stage).toBe('refunding');
  });
});

describe("the owner wallet's SOL", () => {
  const balance = async () => BigInt((await sb.control('/balance')).lamports);

  it('a deposit beyond the balance is refused at submit (INSUFFICIENT_FUNDS) and nothing changes; after a top-up it goes through', async () => {
    await sb.control('/balance', { sol: '0.1' });
    const { intent, deposit } = await createBuy('100000000'); // 0.1 SOL: the network fee on top does not fit
    const signed = signDeposit(deposit.transaction, sb.keypair);
    const refused = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, { body: { signedTransaction: signed } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('INSUFFICIENT_FUNDS');
    expect(refused.body.error.message).toMatch(
      /insufficient funds: the wallet holds 0\.1 SOL and the deposit needs 0\.1000055 SOL/,
    );
    expect(await status(intent.id)).toBe('awaiting_deposit');
    expect(await balance()).toBe(100_000_000n);

    expect(await sb.control('/balance', { addSol: 1 })).toMatchObject({ walletAddress: sb.walletAddress, sol: '1.1' });
    const accepted = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, { body: { signedTransaction: signed } });
    expect(accepted.status).toBe(200);
    // The amount and the deposit's network fee (5,000 per signature + 10,000 CU × 50,000 µlamports).
    expect(await balance()).toBe(1_100_000_000n - 100_005_500n);
    expect(sb.walletLamports).toBe(1_100_000_000n - 100_005_500n);
  });

  it('starts at 100 SOL; a refund and a sell payout come back to the wallet; reset restores the start balance', async () => {
    // The sandbox's own start balance is the one `trader sandbox --balance-sol` says is its default.
    expect(DEFAULT_START_BALANCE_LAMPORTS).toBe(SANDBOX_START_BALANCE_LAMPORTS);
    expect(await balance()).toBe(100_000_000_000n);
    await sb.control('/fail-next-swap', {});
    const { intent, deposit } = await createBuy();
    await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: signDeposit(deposit.transaction, sb.keypair) },
    });
    await sb.advance(2.01);
    await status(intent.id);
    await sb.advance(8);
    expect(await status(intent.id)).toBe('refunded');
    expect(await balance()).toBe(100_000_000_000n - 5_500n);

    await completeBuy(sb);
    const afterBuy = await balance();
    const held = (await sb.call('GET', '/holdings')).body.data[0];
    const { authorization } = (
      await sb.call('POST', '/trade/sells', {
        body: { mint: held.mint, amount: held.amount, idempotencyKey: newKey() },
      })
    ).body.data;
    await sb.call('POST', `/trade/sells/${authorization.id}/authorize`, {
      body: { signature: signMessage(authorization.message, sb.keypair) },
    });
    await sb.advance(10);
    const sell = (await sb.call('GET', `/trade/sells/${authorization.id}`)).body.data.sell;
    expect(sell.status).toBe('completed');
    const paid = BigInt((await sb.call('GET', '/activity', { query: { type: 'payout' } })).body.data[0].solLamports);
    expect(await balance()).toBe(afterBuy + paid);

    await sb.control('/reset', {});
    expect(await balance()).toBe(100_000_000_000n);
    await expect(sb.control('/balance', { sol: '-1' })).rejects.toThrow(/400 VALIDATION_ERROR/);
  });

  it('--balance-sol (startBalanceLamports) sets the start balance', async () => {
    const small = await startTestSandbox({ startBalanceLamports: 2_000_000_000n });
    try {
      expect((await small.control('/balance')).sol).toBe('2');
    } finally {
      await small.close();
    }
  });
});

describe('a memo on the deposit (depositMemo, POST /_sandbox/deposit-memo)', () => {
  const MEMO = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
  const memosOf = (transaction: string) => {
    const tx = VersionedTransaction.deserialize(Buffer.from(transaction, 'base64'));
    const keys = tx.message.staticAccountKeys.map((k) => k.toBase58());
    return tx.message.compiledInstructions
      .filter((ix) => keys[ix.programIdIndex] === MEMO)
      .map((ix) => ({ accounts: ix.accountKeyIndexes, text: Buffer.from(ix.data).toString('utf8') }));
  };

  it('off by default: the deposit carries no memo', async () => {
    const { deposit } = await createBuy();
    expect(memosOf(deposit.transaction)).toEqual([]);
    expect(await sb.control('/deposit-memo')).toEqual({ on: false });
  });

  it('on: the deposit carries one SPL Memo naming the intent, with no accounts; signed as it is, it settles and the chain shows it', async () => {
    const memoSb = await startTestSandbox({ depositMemo: true });
    try {
      await memoSb.setDelays({ confirmSeconds: 0, swapSeconds: 0 });
      const created = await memoSb.call('POST', '/trade/buys', {
        body: { mint: memoSb.tokens[0]!.mint, amountLamports: '100000000', idempotencyKey: newKey() },
      });
      const { intent, deposit } = created.body.data;
      expect(memosOf(deposit.transaction)).toEqual([{ accounts: [], text: `trader-sandbox:${intent.id}` }]);
      const before = memoSb.walletLamports;
      const signed = signDeposit(deposit.transaction, memoSb.keypair);
      expect(
        (await memoSb.call('POST', `/trade/buys/${intent.id}/deposit`, { body: { signedTransaction: signed } })).status,
      ).toBe(200);
      await memoSb.call('GET', `/trade/buys/${intent.id}`);
      await memoSb.advance(0.01);
      expect((await memoSb.call('GET', `/trade/buys/${intent.id}`)).body.data.intent.status).toBe('completed');
      // The memo's program costs more than a builtin: its limit has 20,000 units more, paid at the same price (1,000 lamports).
      expect(before - memoSb.walletLamports).toBe(100_000_000n + 6_500n);
      const signature = (await memoSb.call('GET', `/trades/${intent.id}`)).body.data.signatures.deposit;
      const rpc = await fetch(memoSb.rpcUrl, {
        method: 'POST',
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'getTransaction',
          params: [signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }],
        }),
      });
      const landed = ((await rpc.json()) as any).result;
      expect(landed.meta).toMatchObject({ err: null, fee: 6_500 });
      const keys: string[] = landed.transaction.message.accountKeys;
      expect(landed.transaction.message.instructions.filter((ix: any) => keys[ix.programIdIndex] === MEMO)).toEqual([
        {
          programIdIndex: keys.indexOf(MEMO),
          accounts: [],
          data: bs58.encode(Buffer.from(`trader-sandbox:${intent.id}`)),
          stackHeight: null,
        },
      ]);
    } finally {
      await memoSb.close();
    }
  });

  it('the control surface turns it on and off; anything but a boolean is refused', async () => {
    expect(await sb.control('/deposit-memo', { on: true })).toEqual({ on: true });
    const on = await createBuy();
    expect(memosOf(on.deposit.transaction)).toEqual([{ accounts: [], text: `trader-sandbox:${on.intent.id}` }]);
    await expect(sb.control('/deposit-memo', { on: 'yes' })).rejects.toThrow(/400 VALIDATION_ERROR: give on: true/);
    expect(await sb.control('/deposit-memo', { on: false })).toEqual({ on: false });
    expect(memosOf((await createBuy()).deposit.transaction)).toEqual([]);
  });

  it('the service refuses a memo that names an account: only a memo that touches nothing rides along', async () => {
    const { intent, deposit } = await createBuy();
    const tx = VersionedTransaction.deserialize(Buffer.from(deposit.transaction, 'base64'));
    const ixs = TransactionMessage.decompile(tx.message).instructions;
    const withAccount = new TransactionMessage({
      payerKey: sb.keypair.publicKey,
      recentBlockhash: tx.message.recentBlockhash,
      instructions: [
        ...ixs,
        new TransactionInstruction({
          programId: new PublicKey(MEMO),
          keys: [{ pubkey: sb.keypair.publicKey, isSigner: true, isWritable: false }],
          data: Buffer.from('hi'),
        }),
      ],
    }).compileToV0Message();
    const forged = new VersionedTransaction(withAccount);
    forged.sign([sb.keypair]);
    const res = await sb.call('POST', `/trade/buys/${intent.id}/deposit`, {
      body: { signedTransaction: Buffer.from(forged.serialize()).toString('base64') },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('UNEXPECTED_INSTRUCTION');
  });
});
