// verifyTrade and the deposit evidence over a fake ChainReader: which claims contradict the
// chain, when a signed deposit is proven unspent, and that an unreadable chain is never a verdict.
import { describe, expect, it } from 'vitest';
import type { Trade } from '../../src/api/types.js';
import { ChainUnavailableError, type ChainReader } from '../../src/chain/chain-reader.js';
import type { ChainTransaction } from '../../src/chain/chain-transaction.js';
import { chainProvesAbsent, depositEvidence } from '../../src/chain/deposit-absence.js';
import { contradictionLine, verifyTrade } from '../../src/chain/verify-trade.js';

const OWNER = 'HfN7ZkA5rSuKREztxSha9cVyXcVrMEeF8Fj5ia9vV3GC';
const TREASURY = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const POOL = 'DRpbCBMxVnDK7maPM5tGv6MvB3v1sRMC86PZ8okm21hy';

/** A transaction moving `lamports` from → to, the fee paid by `from`. */
function transfer(signature: string, from: string, to: string, lamports: bigint, fee = 5_000n): ChainTransaction {
  return { signature, slot: 7, err: null, fee, accounts: [from, to], preBalances: [10n ** 12n, 10n ** 9n], postBalances: [10n ** 12n - lamports - fee, 10n ** 9n + lamports] };
}

function reader(txs: ChainTransaction[], height = 1_000, down = false): ChainReader {
  const fail = () => {
    throw new ChainUnavailableError('reading from rpc.example failed: connection refused (ECONNREFUSED)');
  };
  return {
    host: 'rpc.example',
    balance: async () => (down ? fail() : 0n),
    blockHeight: async () => (down ? fail() : height),
    rentExemptMinimum: async () => 890_880n,
    tokenBalances: async () => new Map(),
    transaction: async (sig) => (down ? fail() : (txs.find((t) => t.signature === sig) ?? null)),
  };
}

function trade(over: Partial<Trade> & { signatures?: Partial<Trade['signatures']> } = {}): Trade {
  const { signatures, ...rest } = over;
  return {
    id: 'b1',
    side: 'buy',
    status: 'completed',
    stage: 'completed',
    terminal: true,
    inputMint: 'So11111111111111111111111111111111111111112',
    outputMint: POOL,
    inputAmount: '100000000',
    expectedOutputAmount: '1000',
    minimumOutputAmount: '990',
    receivedOutputAmount: '1000',
    slippageBps: 100,
    platformFeeLamports: '1000000',
    signatures: { deposit: 'dep', swaps: ['swap'], payouts: [], refund: null, ...signatures },
    refund: null,
    failure: null,
    createdAt: '2026-11-25T00:00:00Z',
    expiresAt: null,
    completedAt: null,
    ...rest,
  };
}

const deposit = transfer('dep', OWNER, TREASURY, 100_000_000n);
const swap = transfer('swap', TREASURY, POOL, 99_000_000n);

describe('verifyTrade', () => {
  it('a completed buy with its deposit and swap on chain is verified', async () => {
    const v = await verifyTrade(reader([deposit, swap]), { trade: trade(), owner: OWNER, treasury: TREASURY, signedDeposit: { signature: 'dep', lastValidBlockHeight: 900 } });
    expect(v.verdict).toBe('verified');
    expect(v.checks.map((c) => c.mark)).toEqual(['verified', 'verified']);
  });

  it('the service naming another deposit than the one signed contradicts it', async () => {
    const v = await verifyTrade(reader([deposit, swap]), { trade: trade({ signatures: { deposit: 'other' } }), owner: OWNER, treasury: TREASURY, signedDeposit: { signature: 'dep', lastValidBlockHeight: 900 } });
    expect(v.verdict).toBe('contradicted');
    expect(contradictionLine(v)).toBe('the chain contradicts the service: deposit other should be the deposit you signed, dep, but the chain shows: the service names another transaction as your deposit');
  });

  it('a buy the service calls expired while its deposit is on chain contradicts it', async () => {
    const v = await verifyTrade(reader([deposit]), { trade: trade({ stage: 'expired', status: 'expired', signatures: { swaps: [] } }), owner: OWNER, treasury: TREASURY });
    expect(v.verdict).toBe('contradicted');
    expect(v.checks[0]!.chain).toMatch(/^the deposit is on chain: 0\.1 SOL from your wallet/);
  });

  it('a deposit the service says confirmed but the chain lacks contradicts it', async () => {
    const v = await verifyTrade(reader([swap]), { trade: trade(), owner: OWNER, treasury: TREASURY });
    expect(v.checks[0]).toMatchObject({ role: 'deposit', mark: 'not-found' });
    expect(v.verdict).toBe('contradicted');
  });

  it('a signed deposit not on chain: pending up to its last valid block, proven absent one block past it', async () => {
    const submitted = trade({ stage: 'confirming_deposit', status: 'deposit_submitted', signatures: { deposit: null, swaps: [] } });
    const at = await verifyTrade(reader([], 900), { trade: submitted, owner: OWNER, treasury: TREASURY, signedDeposit: { signature: 'dep', lastValidBlockHeight: 900 } });
    expect(at).toMatchObject({ verdict: 'incomplete', deposit: { onChain: false, proven: false, lastValidBlockHeight: 900, blockHeight: 900 } });
    const past = await verifyTrade(reader([], 901), { trade: submitted, owner: OWNER, treasury: TREASURY, signedDeposit: { signature: 'dep', lastValidBlockHeight: 900 } });
    expect(past).toMatchObject({ verdict: 'verified', deposit: { proven: true } });
  });

  it('sell payouts: at least the signed minimum in all, to the owner; a completed sell with no payout contradicts', async () => {
    const sell = (payouts: string[]) => trade({ side: 'sell', inputAmount: '5', signatures: { deposit: null, swaps: [], payouts } });
    const p1 = transfer('p1', TREASURY, OWNER, 30n);
    const p2 = transfer('p2', TREASURY, OWNER, 30n);
    expect((await verifyTrade(reader([p1, p2]), { trade: sell(['p1', 'p2']), owner: OWNER, treasury: null, signedMinimumLamports: 60n })).verdict).toBe('verified');
    const short = await verifyTrade(reader([p1, p2]), { trade: sell(['p1', 'p2']), owner: OWNER, treasury: null, signedMinimumLamports: 61n });
    expect(short.verdict).toBe('contradicted');
    expect(contradictionLine(short)).toContain('the payouts pay 0.00000006 SOL in all, less than the signed minimum');
    const none = await verifyTrade(reader([]), { trade: sell([]), owner: OWNER, treasury: null, signedMinimumLamports: 1n });
    expect(none.checks).toEqual([expect.objectContaining({ signature: null, mark: 'not-found' })]);
  });

  it('a refund under way and not on chain yet is pending; reported complete it must be there', async () => {
    const refunding = trade({ stage: 'refunding', status: 'failed', failure: { code: 'X', reason: null }, refund: { state: 'in_progress', amountLamports: '100000000' }, signatures: { swaps: [], refund: 'r' } });
    expect((await verifyTrade(reader([deposit]), { trade: refunding, owner: OWNER, treasury: TREASURY })).verdict).toBe('incomplete');
    const refunded = { ...refunding, stage: 'refunded' as const, refund: { state: 'complete', amountLamports: '100000000' } };
    expect((await verifyTrade(reader([deposit]), { trade: refunded, owner: OWNER, treasury: TREASURY })).verdict).toBe('contradicted');
  });

  it('an unreadable chain is "unchecked" with the reason, never a verdict on the service', async () => {
    const v = await verifyTrade(reader([], 0, true), { trade: trade(), owner: OWNER, treasury: TREASURY });
    expect(v).toEqual({ rpc: 'rpc.example', verdict: 'unchecked', checks: [], reason: 'reading from rpc.example failed: connection refused (ECONNREFUSED)' });
  });
});

describe('deposit evidence: "nothing was spent" only when the chain proves it', () => {
  it('absent at its last valid block: may still land; one block past: proven; on chain: spent; unreadable: unknown', async () => {
    const at = await depositEvidence(async () => reader([], 900), 'dep', 900);
    expect(at.kind).toBe('may-land');
    expect(chainProvesAbsent(at)).toEqual({ provesAbsent: null, unchecked: null });
    const past = await depositEvidence(async () => reader([], 901), 'dep', 900);
    expect(past.kind).toBe('proven-absent');
    expect(chainProvesAbsent(past)).toEqual({ provesAbsent: true, unchecked: null });
    expect(chainProvesAbsent(await depositEvidence(async () => reader([deposit], 901), 'dep', 900))).toEqual({ provesAbsent: false, unchecked: null });
    const down = await depositEvidence(async () => reader([], 0, true), 'dep', 900);
    expect(down.kind).toBe('unknown');
    expect(chainProvesAbsent(down)).toEqual({ provesAbsent: null, unchecked: expect.stringContaining('connection refused') });
  });
});
