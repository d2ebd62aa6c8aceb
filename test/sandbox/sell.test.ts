import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { completeBuy, newKey, signMessage, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let mint: string;
let held: bigint;
let positionId: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  mint = sb.tokens[0]!.mint;
  const buy = await completeBuy(sb, { mint });
  positionId = buy.positionId;
  held = BigInt((await sb.call('GET', `/positions/${positionId}`)).body.data.remainingAmount);
});
afterEach(async () => {
  await sb.close();
});

async function createSell(amount: bigint, extra: Record<string, unknown> = {}) {
  const res = await sb.call('POST', '/trade/sells', {
    body: { mint, amount: amount.toString(), idempotencyKey: newKey('sell'), ...extra },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.authorization;
}

async function authorize(auth: { id: string; message: string }, keypair = sb.keypair) {
  return sb.call('POST', `/trade/sells/${auth.id}/authorize`, {
    body: { signature: signMessage(auth.message, keypair) },
  });
}

describe('sell authorization', () => {
  it('quotes, states token, amount and minimum in the message, and expires in 2 minutes', async () => {
    const auth = await createSell(held / 2n);
    expect(auth).toMatchObject({
      status: 'awaiting_signature',
      mint,
      amount: (held / 2n).toString(),
      positionId: null,
      slippageBps: 100,
      authorizedAt: null,
      signatureVerifiedAt: null,
      executionStarted: false,
      failureCode: null,
      failureReason: null,
    });
    expect(auth.id).toMatch(/^sell_/);
    expect(BigInt(auth.minimumOutputLamports)).toBe((BigInt(auth.expectedOutputLamports) * 9900n) / 10000n);
    expect(Date.parse(auth.expiresAt) - Date.parse(auth.createdAt)).toBe(120_000);
    const token = sb.tokens[0]!;
    expect(auth.message).toContain(mint);
    expect(auth.message).toContain(token.symbol);
    expect(auth.message).toContain(`${auth.amount} raw units`);
    expect(auth.message).toContain(`${auth.minimumOutputLamports} lamports`);
    expect(auth.message).toContain(auth.id);
    expect(auth.message).toMatch(/Minimum proceeds: 0\.\d+ SOL/);
  });

  it('is idempotent: replay is 200 with the same authorization; other parameters 409', async () => {
    const body = { mint, amount: '1000', idempotencyKey: newKey() };
    const first = await sb.call('POST', '/trade/sells', { body });
    const again = await sb.call('POST', '/trade/sells', { body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.data.authorization).toEqual(first.body.data.authorization);
    const other = await sb.call('POST', '/trade/sells', { body: { ...body, amount: '2000' } });
    expect(other.status).toBe(409);
  });

  it('refuses to sell more than held (422 INSUFFICIENT_BALANCE)', async () => {
    const res = await sb.call('POST', '/trade/sells', {
      body: { mint, amount: (held + 1n).toString(), idempotencyKey: newKey() },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INSUFFICIENT_BALANCE');
    const none = await sb.call('POST', '/trade/sells', {
      body: { mint: sb.tokens[1]!.mint, amount: '1', idempotencyKey: newKey() },
    });
    expect(none.body.error.code).toBe('INSUFFICIENT_BALANCE');
  });

  it('rejects a signature by another wallet or over another text; status stays awaiting_signature', async () => {
    const auth = await createSell(1000n);
    const wrongWallet = await authorize(auth, Keypair.generate());
    expect(wrongWallet.status).toBe(422);
    expect(wrongWallet.body.error.code).toBe('INVALID_SIGNATURE');
    const wrongText = await sb.call('POST', `/trade/sells/${auth.id}/authorize`, {
      body: { signature: signMessage(`${auth.message} `, sb.keypair) },
    });
    expect(wrongText.status).toBe(422);
    const garbage = await sb.call('POST', `/trade/sells/${auth.id}/authorize`, { body: { signature: '0OIl' } });
    expect(garbage.status).toBe(400);
    const short = await sb.call('POST', `/trade/sells/${auth.id}/authorize`, {
      body: { signature: bs58.encode(new Uint8Array(10)) },
    });
    expect(short.status).toBe(400);
    const read = await sb.call('GET', `/trade/sells/${auth.id}`);
    expect(read.body.data).toMatchObject({ authorization: { status: 'awaiting_signature' }, sell: null });
  });

  it('works once and expires after 2 minutes', async () => {
    const auth = await createSell(1000n);
    const ok = await authorize(auth);
    expect(ok.status).toBe(200);
    const twice = await authorize(auth);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('AUTHORIZATION_ALREADY_USED');

    const late = await createSell(1000n);
    await sb.advance(119);
    expect((await sb.call('GET', `/trade/sells/${late.id}`)).body.data.authorization.status).toBe('awaiting_signature');
    await sb.advance(1.5);
    const res = await authorize(late);
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe('AUTHORIZATION_EXPIRED');
    expect((await sb.call('GET', `/trade/sells/${late.id}`)).body.data.authorization.status).toBe('expired');
    expect((await sb.call('GET', `/trades/${late.id}/status`)).body.data).toMatchObject({
      stage: 'expired',
      terminal: true,
    });
  });

  it('fails pre-execution with QUOTE_BELOW_AUTHORIZED_MINIMUM when the price fell before signing: nothing sold or locked', async () => {
    const auth = await createSell(held);
    await sb.control('/price', { mint, multiplier: 0.5 });
    const res = await authorize(auth);
    expect(res.status).toBe(200);
    expect(res.body.data.sell).toBeNull();
    expect(res.body.data.authorization).toMatchObject({
      status: 'failed',
      failureCode: 'QUOTE_BELOW_AUTHORIZED_MINIMUM',
      executionStarted: false,
    });
    expect(res.body.data.authorization.failureReason).toEqual(expect.any(String));
    expect(res.body.data.authorization.authorizedAt).not.toBeNull();
    expect(res.body.data.authorization.signatureVerifiedAt).toBe(res.body.data.authorization.authorizedAt);
    const pos = (await sb.call('GET', `/positions/${positionId}`)).body.data;
    expect(pos).toMatchObject({ status: 'open', remainingAmount: held.toString(), soldAmount: '0' });
    const holding = (await sb.call('GET', '/holdings')).body.data[0];
    expect(holding.sellInProgress).toBe(false);
    expect((await sb.call('GET', `/trades/${auth.id}`)).body.data.failure.code).toBe('QUOTE_BELOW_AUTHORIZED_MINIMUM');
    // Not locked: a new sell of everything is accepted.
    await createSell(held);
  });
});

describe('sell execution', () => {
  it('full sell: swap_pending (holding locked, position closing) → payout → completed, position closed', async () => {
    const auth = await createSell(held);
    const res = await authorize(auth);
    expect(res.body.data.authorization).toMatchObject({ status: 'authorized', executionStarted: true });
    const sell = res.body.data.sell;
    expect(sell).toMatchObject({ status: 'swap_pending' });
    expect(sell.id).toMatch(/^sg_/);
    expect((await sb.call('GET', '/holdings')).body.data[0].sellInProgress).toBe(true);
    expect((await sb.call('GET', `/positions/${positionId}`)).body.data.status).toBe('closing');
    expect((await sb.call('GET', `/trades/${sell.id}/status`)).body.data).toMatchObject({
      side: 'sell',
      stage: 'executing',
      terminal: false,
    });

    await sb.advance(2);
    let got = (await sb.call('GET', `/trade/sells/${auth.id}`)).body.data;
    expect(got.sell.status).toBe('payout_pending');
    expect((await sb.call('GET', `/trades/${sell.id}`)).body.data.stage).toBe('settling');
    expect(BigInt(got.sell.receivedLamports)).toBeGreaterThanOrEqual(BigInt(auth.minimumOutputLamports));
    await sb.advance(2);
    got = (await sb.call('GET', `/trade/sells/${auth.id}`)).body.data;
    expect(got.sell).toMatchObject({ status: 'completed', payoutWallet: sb.walletAddress });
    const trade = (await sb.call('GET', `/trades/${auth.id}`)).body.data;
    expect(trade).toMatchObject({
      id: sell.id,
      side: 'sell',
      stage: 'completed',
      terminal: true,
      inputAmount: held.toString(),
    });
    expect(trade.signatures.swaps).toHaveLength(1);
    expect(trade.signatures.payouts).toHaveLength(1);
    expect((await sb.call('GET', `/positions/${positionId}`)).body.data).toMatchObject({
      status: 'closed',
      soldAmount: held.toString(),
      remainingAmount: '0',
    });
    expect((await sb.call('GET', '/holdings')).body.data).toEqual([]);
    const act = (await sb.call('GET', '/activity', { query: { type: 'sell,payout' } })).body.data;
    expect(act.map((e: any) => e.type)).toEqual(['payout', 'sell']);
    expect(act[1].points).toBeGreaterThan(0);
    expect(act[0].solLamports).toBe(got.sell.receivedLamports);
  });

  it('partial sells take from the oldest position first and leave the rest open', async () => {
    const second = await completeBuy(sb, { mint });
    const auth = await createSell(held + 5n);
    await authorize(auth);
    expect((await sb.call('GET', `/positions/${positionId}`)).body.data.status).toBe('closing');
    await sb.advance(5);
    const first = (await sb.call('GET', `/positions/${positionId}`)).body.data;
    const next = (await sb.call('GET', `/positions/${second.positionId}`)).body.data;
    expect(first).toMatchObject({ status: 'closed', remainingAmount: '0' });
    expect(next).toMatchObject({ status: 'open', soldAmount: '5' });
    expect(BigInt(next.remainingAmount)).toBe(BigInt(next.boughtAmount) - 5n);
    const holdings = (await sb.call('GET', '/holdings')).body.data;
    expect(holdings).toHaveLength(1);
    expect(holdings[0]).toMatchObject({ amount: next.remainingAmount, positionIds: [second.positionId] });
  });

  it('never sells below the signed minimum: PRICE_MOVED, nothing sold', async () => {
    const auth = await createSell(held);
    const res = await authorize(auth);
    await sb.control('/price', { mint, multiplier: 0.5 });
    await sb.advance(3);
    const got = (await sb.call('GET', `/trade/sells/${auth.id}`)).body.data;
    expect(got.sell).toMatchObject({ status: 'failed', failureCode: 'PRICE_MOVED', receivedLamports: null });
    const trade = (await sb.call('GET', `/trades/${res.body.data.sell.id}`)).body.data;
    expect(trade).toMatchObject({
      status: 'failed',
      stage: 'failed',
      terminal: true,
      failure: { code: 'PRICE_MOVED' },
    });
    expect((await sb.call('GET', `/positions/${positionId}`)).body.data).toMatchObject({
      status: 'open',
      remainingAmount: held.toString(),
      soldAmount: '0',
    });
    expect((await sb.call('GET', '/activity', { query: { type: 'sell,payout' } })).body.data).toEqual([]);
    expect((await sb.call('GET', '/holdings')).body.data[0]).toMatchObject({
      amount: held.toString(),
      sellInProgress: false,
    });
  });
});

describe('holdings (safety rule 6)', () => {
  it('aggregate open positions held by the service, not the wallet; another account sees none', async () => {
    await completeBuy(sb, { mint: sb.tokens[1]!.mint });
    const holdings = (await sb.call('GET', '/holdings')).body.data;
    expect(holdings).toHaveLength(2);
    expect(holdings[0].usdValue).toBeGreaterThanOrEqual(holdings[1].usdValue);
    for (const h of holdings) {
      const positions = await Promise.all(h.positionIds.map((id: string) => sb.call('GET', `/positions/${id}`)));
      const sum = positions.reduce((s, p) => s + BigInt(p.body.data.remainingAmount), 0n);
      expect(h.amount).toBe(sum.toString());
      expect(h.balance).toMatch(/^\d+(\.\d+)?$/);
      expect(Math.round(h.usdValue * 100)).toBe(h.usdValue * 100);
      expect(h.imageUrl).toMatch(/^https:\/\//);
    }
    const woof = holdings.find((h: any) => h.mint === mint);
    expect(woof.balance).toBe(
      `${held / 100000n}.${(held % 100000n).toString().padStart(5, '0')}`.replace(/\.?0+$/, ''),
    );
    expect((await sb.call('GET', '/holdings', { key: sb.otherApiKey })).body.data).toEqual([]);
    expect((await sb.call('GET', '/holdings')).body).not.toHaveProperty('pagination');
  });
});
