// The sandbox's chain through @solana/web3.js's own Connection (so every answer has the standard
// shape a real client validates): one ledger with the service — a deposit lowers the wallet's
// balance and lands when the service confirms it, a payout raises it — and the lies.
import { Connection, PublicKey, VersionedTransaction, type MessageV0 } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completeBuy,
  newKey,
  signDeposit,
  signMessage,
  startTestSandbox,
  type TestSandbox,
} from '../helpers/sandbox.js';

let sb: TestSandbox;
let chain: Connection;
beforeAll(async () => {
  sb = await startTestSandbox();
  await sb.setDelays({ confirmSeconds: 5, swapSeconds: 0, payoutSeconds: 0, refundSeconds: 0 });
  chain = new Connection(sb.rpcUrl, 'confirmed');
});
afterAll(() => sb.close());

const tx = (signature: string) =>
  chain.getTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' });

describe('the chain and the service share one ledger', () => {
  it('a deposit: the balance drops by amount + fee at once; the transaction lands when the deposit confirms, with the standard shape', async () => {
    const owner = new PublicKey(sb.walletAddress);
    const before = BigInt(await chain.getBalance(owner));
    const created = await sb.call('POST', '/trade/buys', {
      body: { mint: sb.tokens[0]!.mint, amountLamports: '100000000', idempotencyKey: newKey() },
    });
    const id = created.body.data.intent.id;
    const dep = await sb.call('POST', `/trade/buys/${id}/deposit`, {
      body: { signedTransaction: signDeposit(created.body.data.deposit.transaction, sb.keypair) },
    });
    expect(dep.status).toBe(200);
    expect(BigInt(await chain.getBalance(owner))).toBe(before - 100_005_500n);
    const signature = (await sb.call('GET', `/trades/${id}`)).body.data.signatures.deposit;
    expect(await tx(signature)).toBeNull();
    expect((await chain.getSignatureStatuses([signature])).value).toEqual([null]);
    await sb.advance(5);
    await sb.call('GET', `/trade/buys/${id}`);
    const landed = (await tx(signature))!;
    expect(landed.meta!.err).toBeNull();
    expect(landed.meta!.fee).toBe(5_500);
    const keys = landed.transaction.message.getAccountKeys().staticAccountKeys.map((k) => k.toBase58());
    expect(keys.slice(0, 2)).toEqual([sb.walletAddress, sb.treasury]);
    expect(landed.meta!.preBalances[0]! - landed.meta!.postBalances[0]!).toBe(100_005_500);
    expect(landed.meta!.postBalances[1]! - landed.meta!.preBalances[1]!).toBe(100_000_000);
    expect((await chain.getSignatureStatuses([signature])).value[0]).toMatchObject({
      err: null,
      confirmationStatus: 'finalized',
    });
    // Block height follows the sandbox clock (real time too), so it is read before and after.
    const low = await chain.getBlockHeight();
    const { blockhash, lastValidBlockHeight } = await chain.getLatestBlockhash();
    const epoch = await chain.getEpochInfo();
    const high = await chain.getBlockHeight();
    expect(blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(lastValidBlockHeight - 150).toBeGreaterThanOrEqual(low);
    expect(lastValidBlockHeight - 150).toBeLessThanOrEqual(high);
    expect(epoch.blockHeight).toBeGreaterThanOrEqual(low);
    expect(epoch.blockHeight).toBeLessThanOrEqual(high);
    expect(await chain.getMinimumBalanceForRentExemption(0)).toBe(890_880);
  });

  it('isBlockhashValid answers over the blockhashes it issued: valid through their last valid block, then not; one it never issued is not valid', async () => {
    const { blockhash } = await chain.getLatestBlockhash();
    expect((await chain.isBlockhashValid(blockhash)).value).toBe(true);
    // Another cluster's blockhash (well formed, never issued here).
    expect((await chain.isBlockhashValid('GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi')).value).toBe(false);
    // 150 blocks of 400 ms: 59 s in it is still valid (147 blocks), 61 s in it is not (152).
    await sb.advance(59);
    expect((await chain.isBlockhashValid(blockhash)).value).toBe(true);
    await sb.advance(2);
    expect((await chain.isBlockhashValid(blockhash)).value).toBe(false);
    const bad = await fetch(sb.rpcUrl, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'isBlockhashValid', params: [42] }),
    });
    expect((await bad.json()).error).toMatchObject({ code: -32602 });
  });

  /** Buys token 1, then sells all of it; `before`: the wallet's balance between the two. */
  async function sellAll(): Promise<{ payout: string; received: bigint; minimum: bigint; before: bigint }> {
    const mint = sb.tokens[1]!.mint;
    await sb.setDelays({ confirmSeconds: 0 });
    await completeBuy(sb, { mint });
    const before = BigInt(await chain.getBalance(new PublicKey(sb.walletAddress)));
    const held = (await sb.call('GET', '/holdings')).body.data.find((h: any) => h.mint === mint);
    const a = (await sb.call('POST', '/trade/sells', { body: { mint, amount: held.amount, idempotencyKey: newKey() } }))
      .body.data.authorization;
    await sb.call('POST', `/trade/sells/${a.id}/authorize`, {
      body: { signature: signMessage(a.message, sb.keypair) },
    });
    const trade = (await sb.call('GET', `/trades/${a.id}`)).body.data;
    return {
      payout: trade.signatures.payouts[0],
      received: BigInt(trade.receivedOutputAmount),
      minimum: BigInt(a.minimumOutputLamports),
      before,
    };
  }

  it('a payout raises the balance by what the service reports, in a transaction to the wallet', async () => {
    const owner = new PublicKey(sb.walletAddress);
    const { payout, received, before } = await sellAll();
    expect(BigInt(await chain.getBalance(owner))).toBe(before + received);
    const t = (await tx(payout))!;
    const i = t.transaction.message
      .getAccountKeys()
      .staticAccountKeys.findIndex((k) => k.toBase58() === sb.walletAddress);
    expect(BigInt(t.meta!.postBalances[i]! - t.meta!.preBalances[i]!)).toBe(received);
  });

  it('lies: a phantom payout is not on chain; a short one pays half the minimum; one elsewhere pays another wallet; each told once', async () => {
    const owner = new PublicKey(sb.walletAddress);
    await sb.control('/lies', { lies: ['phantom-payout', 'short-payout', 'payout-elsewhere'] });
    const phantom = await sellAll();
    expect(await tx(phantom.payout)).toBeNull();
    expect(BigInt(await chain.getBalance(owner))).toBe(phantom.before);

    const short = await sellAll();
    expect(BigInt(await chain.getBalance(owner))).toBe(short.before + short.minimum / 2n);

    const elsewhere = await sellAll();
    const keys = (await tx(elsewhere.payout))!.transaction.message
      .getAccountKeys()
      .staticAccountKeys.map((k) => k.toBase58());
    expect(keys).not.toContain(sb.walletAddress);
    expect(BigInt(await chain.getBalance(owner))).toBe(elsewhere.before);
    expect(await sb.control('/lies')).toEqual([]);
    await expect(sb.control('/lies', { lie: 'nope' })).rejects.toThrow(/unknown lie "nope"/);
  });
});

/** One raw JSON-RPC call: the response's text (as a node wrote it) and its parse. */
async function rawRpc(method: string, params: unknown[]): Promise<{ text: string; body: any }> {
  const res = await fetch(sb.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await res.text();
  return { text, body: JSON.parse(text) };
}

describe('the chain answers as a node writes', () => {
  it('getTransaction of a deposit is the transaction that landed, byte for byte: signatures, keys, blockhash, instructions, lookups', async () => {
    await sb.setDelays({ confirmSeconds: 0 });
    const created = await sb.call('POST', '/trade/buys', {
      body: { mint: sb.tokens[0]!.mint, amountLamports: '100000000', idempotencyKey: newKey() },
    });
    const signed = signDeposit(created.body.data.deposit.transaction, sb.keypair);
    const id = created.body.data.intent.id;
    expect((await sb.call('POST', `/trade/buys/${id}/deposit`, { body: { signedTransaction: signed } })).status).toBe(
      200,
    );
    const sent = VersionedTransaction.deserialize(Buffer.from(signed, 'base64'));
    const signature = bs58.encode(sent.signatures[0]!);
    const landed = (await tx(signature))!;
    // The response's message and signatures serialize to the very bytes that were signed.
    const again = new VersionedTransaction(
      landed.transaction.message as MessageV0,
      landed.transaction.signatures.map((s) => bs58.decode(s)),
    );
    expect(Buffer.from(again.serialize()).toString('base64')).toBe(signed);
    const { body } = await rawRpc('getTransaction', [
      signature,
      { encoding: 'json', maxSupportedTransactionVersion: 0 },
    ]);
    const message = body.result.transaction.message;
    expect(body.result.version).toBe(0);
    expect(message.recentBlockhash).toBe(sent.message.recentBlockhash);
    expect(message.accountKeys).toEqual(sent.message.staticAccountKeys.map((k) => k.toBase58()));
    expect(message.header).toEqual(sent.message.header);
    expect(message.addressTableLookups).toEqual([]);
    expect(message.instructions).toEqual(
      sent.message.compiledInstructions.map((ix) => ({
        programIdIndex: ix.programIdIndex,
        accounts: ix.accountKeyIndexes,
        data: bs58.encode(ix.data),
        stackHeight: null,
      })),
    );
    // Balances line up with those keys: the owner paid amount + fee, the treasury got the amount, programs moved nothing.
    const change = message.accountKeys.map(
      (_: string, i: number) => body.result.meta.postBalances[i] - body.result.meta.preBalances[i],
    );
    expect(change).toEqual(
      message.accountKeys.map((k: string) =>
        k === sb.walletAddress ? -100_005_500 : k === sb.treasury ? 100_000_000 : 0,
      ),
    );
  });

  it('a failed swap: meta.err and the status are written as a node writes them, the program error code a number', async () => {
    await sb.setDelays({ confirmSeconds: 0, swapSeconds: 0 });
    await sb.control('/fail-next-swap', { count: 1 });
    const { intent } = await completeBuy(sb, { mint: sb.tokens[0]!.mint });
    const [swap] = (await sb.call('GET', `/trades/${intent.id}`)).body.data.signatures.swaps as string[];
    expect(swap).toBeDefined();
    const err = { InstructionError: [0, { Custom: 6001 }] };
    const { text, body } = await rawRpc('getTransaction', [
      swap,
      { encoding: 'json', maxSupportedTransactionVersion: 0 },
    ]);
    expect(body.result.meta).toMatchObject({ err, status: { Err: err } });
    expect(text).toContain('"err":{"InstructionError":[0,{"Custom":6001}]}');
    expect((await rawRpc('getSignatureStatuses', [[swap]])).body.result.value[0]).toMatchObject({
      err,
      status: { Err: err },
    });
  });

  it("u64 values are written to the digit: an account's rentEpoch is 18446744073709551615, not a rounded float", async () => {
    const { text, body } = await rawRpc('getAccountInfo', [sb.walletAddress, { encoding: 'base64' }]);
    expect(body.result.value).not.toBeNull();
    expect(text).toContain('"rentEpoch":18446744073709551615,');
    expect(text).not.toContain('18446744073709552000');
  });
});
