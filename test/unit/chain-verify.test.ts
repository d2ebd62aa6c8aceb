// verifyTrade and the deposit evidence over a fake ChainReader: which claims contradict the
// chain, when a signed deposit is proven unspent, and that an unreadable chain is never a verdict.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import type { Trade } from '../../src/api/types.js';
import { ChainUnavailableError, type ChainReader } from '../../src/chain/chain-reader.js';
import type { ChainTransaction } from '../../src/chain/chain-transaction.js';
import { chainProvesAbsent, depositEvidence } from '../../src/chain/deposit-absence.js';
import {
  CLOCK_ALLOWANCE_MS,
  contradictionLine,
  evidenceClaims,
  verifyTrade,
  withEvidenceConflicts,
} from '../../src/chain/verify-trade.js';
import type { JournalKnowledge } from '../../src/journal/other-trades.js';
import { formatSol } from '../../src/domain/amounts.js';
import { sideAsJournaled } from '../../src/trade/chain-verification.js';

/** A transaction signature (base58 of 64 bytes) that reads as its name when decoded. */
const sig = (name: string) => bs58.encode(Buffer.from(name.padEnd(64, '.')));
const [DEP, DEP2, SWAP, P, P1, P2, R, OWN, OTHER] = ['dep', 'dep2', 'swap', 'p', 'p1', 'p2', 'r', 'own', 'other'].map(
  sig,
);
const OWNER = 'HfN7ZkA5rSuKREztxSha9cVyXcVrMEeF8Fj5ia9vV3GC';
const TREASURY = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const POOL = 'DRpbCBMxVnDK7maPM5tGv6MvB3v1sRMC86PZ8okm21hy';

/** A transaction moving `lamports` from → to, the fee paid by `from`. */
function transfer(signature: string, from: string, to: string, lamports: bigint, fee = 5_000n): ChainTransaction {
  return {
    signature,
    slot: 7,
    blockTime: null,
    signers: 1,
    err: null,
    fee,
    accounts: [from, to],
    preBalances: [10n ** 12n, 10n ** 9n],
    postBalances: [10n ** 12n - lamports - fee, 10n ** 9n + lamports],
  };
}

/** The deposit's blockhash on the fake chain: valid up to block 950 (the chain's own answer). */
const BLOCKHASH = 'GHtXQBsoZHVnNFa9YevAzFr17DJjgHXk3ycTKD5xD3Zi';
/** What the fake chain was asked, in order. */
let asked: string[] = [];
/** Blocks the finalized view trails the newest (processed) one, as on Solana. */
const LAG = 32;

/** A chain whose newest block is `height`; its finalized view is LAG blocks behind. */
function reader(
  txs: ChainTransaction[],
  height = 1_000,
  down = false,
  blockhashes: Record<string, number> = { [BLOCKHASH]: 950 },
): ChainReader {
  const fail = () => {
    throw new ChainUnavailableError('reading from rpc.example failed: connection refused (ECONNREFUSED)');
  };
  asked = [];
  return {
    host: 'rpc.example',
    balance: async () => (down ? fail() : 0n),
    blockHeight: async (commitment = 'confirmed') =>
      down ? fail() : commitment === 'finalized' ? height - LAG : height,
    blockhashValid: async (hash, commitment) => {
      asked.push(`blockhash ${hash} at ${commitment}`);
      const seen = commitment === 'finalized' ? height - LAG : height;
      return down ? fail() : blockhashes[hash] !== undefined && seen <= blockhashes[hash]!;
    },
    rentExemptMinimum: async () => 890_880n,
    tokenBalances: async () => new Map(),
    transaction: async (sig) => {
      asked.push(`transaction ${sig}`);
      return down ? fail() : (txs.find((t) => t.signature === sig) ?? null);
    },
  };
}

/** The deposit this run signed; the service's lastValidBlockHeight (900) is only its word. */
const signedDep = (known = true) => ({
  signature: DEP,
  blockhash: BLOCKHASH,
  lastValidBlockHeight: 900,
  blockhashKnownBeforeSigning: known,
});

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
    signatures: { deposit: DEP, swaps: [SWAP], payouts: [], refund: null, ...signatures },
    refund: null,
    failure: null,
    createdAt: '2026-11-25T00:00:00Z',
    expiresAt: null,
    completedAt: null,
    ...rest,
  };
}

const deposit = transfer(DEP, OWNER, TREASURY, 100_000_000n);
/** The swap: its SOL to the pool, and `tokens` raw units of the output mint (POOL here) to the service's trading account TA (of wallet `holder`, TW unless given). */
const swapDelivering = (tokens: bigint | null, holder = 'TW'): ChainTransaction => ({
  ...transfer(SWAP, TREASURY, POOL, 99_000_000n),
  tokenBalances:
    tokens === null
      ? null
      : {
          pre: [{ account: 'TA', mint: POOL, owner: holder, amount: 5n, decimals: null }],
          post: [{ account: 'TA', mint: POOL, owner: holder, amount: 5n + tokens, decimals: null }],
        },
});
const swap = swapDelivering(1000n);

describe('verifyTrade', () => {
  it('a completed buy with its deposit and swap on chain is verified', async () => {
    const v = await verifyTrade(reader([deposit, swap]), {
      trade: trade(),
      owner: OWNER,
      treasury: TREASURY,
      signedDeposits: [signedDep()],
    });
    expect(v.verdict).toBe('verified');
    expect(v.checks.map((c) => c.mark)).toEqual(['verified', 'verified', 'verified']);
    expect(v.received).toEqual({ tokens: '1000' });
  });

  it("where the chain states the mint's decimals beside the balances, the swap's figure is in tokens too; where it does not, raw units alone", async () => {
    const withDecimals = (decimals: number | null): ChainTransaction => ({
      ...transfer(SWAP, TREASURY, POOL, 99_000_000n),
      tokenBalances: {
        pre: [{ account: 'TA', mint: POOL, owner: 'TW', amount: 5n, decimals }],
        post: [{ account: 'TA', mint: POOL, owner: 'TW', amount: 5n + 74_242_649_977n, decimals }],
      },
    });
    const said = async (decimals: number | null) =>
      (
        await verifyTrade(reader([deposit, withDecimals(decimals)]), {
          trade: trade({ receivedOutputAmount: '74242649977' }),
          owner: OWNER,
          treasury: TREASURY,
          signedDeposits: [signedDep()],
        })
      ).checks[2]!.chain;
    expect(await said(5)).toMatch(
      /^the swap delivers 742,426\.49977 tokens \(74242649977 raw units\) to token account TA /,
    );
    expect(await said(0)).toMatch(/^the swap delivers 74,242,649,977 tokens \(74242649977 raw units\) to /);
    expect(await said(null)).toMatch(/^the swap delivers 74242649977 raw units to /);
  });

  it("the wallet holding the token account the tokens went to is named: yours, the treasury, else the service's trading wallet (never an address alone)", async () => {
    const heldBy = async (holder: string) =>
      (
        await verifyTrade(reader([deposit, swapDelivering(1000n, holder)]), {
          trade: trade(),
          owner: OWNER,
          treasury: TREASURY,
          signedDeposits: [signedDep()],
        })
      ).checks[2]!.chain;
    expect(await heldBy(OWNER)).toBe(`the swap delivers 1000 raw units to token account TA of your wallet ${OWNER}`);
    expect(await heldBy(TREASURY)).toBe(
      `the swap delivers 1000 raw units to token account TA of the service's treasury ${TREASURY}`,
    );
    expect(await heldBy('TW')).toMatch(/of the service's trading wallet TW \(not your wallet/);
  });

  it("attack-2 §4: what a buy received is its swap's token balance change on chain: at it verified, one unit over contradicts; a swap that shows no token balances leaves it the service's word", async () => {
    const received = (said: string, tokens: bigint | null) =>
      verifyTrade(reader([deposit, swapDelivering(tokens)]), {
        trade: trade({ receivedOutputAmount: said }),
        owner: OWNER,
        treasury: TREASURY,
        signedDeposits: [signedDep()],
      });
    const atIt = await received('1000', 1000n);
    expect(atIt.checks[2]).toEqual({
      signature: SWAP,
      role: 'swap',
      expected: `1000 raw units of ${POOL} delivered, as the service reports it received`,
      mark: 'verified',
      chain:
        "the swap delivers 1000 raw units to token account TA of the service's trading wallet TW (not your wallet: the service holds bought tokens for you there)",
    });
    const tenfold = await received('10000', 1000n);
    expect(tenfold).toMatchObject({ verdict: 'contradicted', received: { tokens: '1000' } });
    expect(contradictionLine(tenfold)).toBe(
      `the chain contradicts the service: swap ${SWAP} should be 10000 raw units of ${POOL} delivered, as the service reports it received, but the chain shows: the swap delivers 1000 raw units to token account TA of the service's trading wallet TW (not your wallet: the service holds bought tokens for you there)`,
    );
    expect((await received('1001', 1000n)).verdict).toBe('contradicted');
    const unshown = await received('10000', null);
    expect(unshown.verdict).toBe('attributed');
    expect(unshown.received).toBeUndefined();
    expect(unshown.checks[2]).toMatchObject({
      mark: 'attributed',
      chain: "the swap shows no token balances: what was received is the service's word",
    });
    // Another mint's gain is no delivery of this one.
    const other = await verifyTrade(
      reader([
        deposit,
        {
          ...swapDelivering(1000n),
          tokenBalances: {
            pre: [],
            post: [{ account: 'TA', mint: 'OTHER', owner: 'TW', amount: 1000n, decimals: null }],
          },
        },
      ]),
      { trade: trade(), owner: OWNER, treasury: TREASURY, signedDeposits: [signedDep()] },
    );
    expect(other.checks[2]).toMatchObject({ mark: 'contradicts', chain: 'the swap delivers 0 raw units' });
  });

  it('the service naming another deposit than the one signed contradicts it', async () => {
    const v = await verifyTrade(reader([deposit, swap]), {
      trade: trade({ signatures: { deposit: OTHER } }),
      owner: OWNER,
      treasury: TREASURY,
      signedDeposits: [signedDep()],
    });
    expect(v.verdict).toBe('contradicted');
    expect(contradictionLine(v)).toBe(
      `the chain contradicts the service: deposit ${OTHER} should be the deposit you signed, ${DEP}, but the chain shows: the service names another transaction as your deposit`,
    );
  });

  it('a buy the service calls expired while its deposit is on chain contradicts it', async () => {
    const v = await verifyTrade(reader([deposit]), {
      trade: trade({ stage: 'expired', status: 'expired', signatures: { swaps: [] } }),
      owner: OWNER,
      treasury: TREASURY,
    });
    expect(v.verdict).toBe('contradicted');
    expect(v.checks[0]!.chain).toMatch(/^the deposit is on chain: 0\.1 SOL from your wallet/);
  });

  it('a deposit the service says confirmed but the chain lacks contradicts it', async () => {
    const v = await verifyTrade(reader([swap]), { trade: trade(), owner: OWNER, treasury: TREASURY });
    expect(v.checks[0]).toMatchObject({ role: 'deposit', mark: 'not-found' });
    expect(v.verdict).toBe('contradicted');
  });

  it('a signed deposit not on chain: pending while the finalized chain holds its blockhash valid (whatever lastValidBlockHeight the service gave), proven absent one finalized block past', async () => {
    const submitted = trade({
      stage: 'awaiting_deposit',
      status: 'awaiting_deposit',
      signatures: { deposit: null, swaps: [] },
    });
    // Finalized height 950 is past the service's 900 but the chain holds the blockhash valid to 950: no proof.
    const at = await verifyTrade(reader([], 950 + LAG), {
      trade: submitted,
      owner: OWNER,
      treasury: TREASURY,
      signedDeposits: [signedDep()],
    });
    expect(at).toMatchObject({
      verdict: 'incomplete',
      deposit: { onChain: false, proven: false, lastValidBlockHeight: 900, blockHeight: 950 },
    });
    const past = await verifyTrade(reader([], 951 + LAG), {
      trade: submitted,
      owner: OWNER,
      treasury: TREASURY,
      signedDeposits: [signedDep()],
    });
    expect(past).toMatchObject({ verdict: 'verified', deposit: { proven: true, blockHeight: 951 } });
    // Blockhash first, at finalized, then the signature: the order that cannot race a late landing.
    expect(asked).toEqual([`blockhash ${BLOCKHASH} at finalized`, `transaction ${DEP}`]);
  });

  it('expired at processed but not yet at finalized: not proven (a fork may still land it)', async () => {
    const submitted = trade({ stage: 'cancelled', status: 'cancelled', signatures: { deposit: null, swaps: [] } });
    // The newest block is 10 past the blockhash's last; the finalized one 22 short of it.
    const v = await verifyTrade(reader([], 960), {
      trade: submitted,
      owner: OWNER,
      treasury: TREASURY,
      signedDeposits: [signedDep()],
    });
    expect(v).toMatchObject({
      verdict: 'incomplete',
      deposit: { onChain: false, proven: false, blockHeight: 960 - LAG },
    });
    expect(v.checks[0]!.chain).toContain('its blockhash is still valid, so it may still land');
  });

  it('an RPC that cannot answer isBlockhashValid costs the absence proof only: a landed deposit is still verified', async () => {
    const noMethod = (txs: ChainTransaction[]) => ({
      ...reader(txs, 951),
      blockhashValid: async () => {
        throw new ChainUnavailableError(
          'checking the blockhash from rpc.example failed: the RPC does not answer isBlockhashValid',
        );
      },
    });
    expect(
      (
        await verifyTrade(noMethod([deposit, swap]), {
          trade: trade(),
          owner: OWNER,
          treasury: TREASURY,
          signedDeposits: [signedDep()],
        })
      ).verdict,
    ).toBe('verified');
    const submitted = trade({
      stage: 'awaiting_deposit',
      status: 'awaiting_deposit',
      signatures: { deposit: null, swaps: [] },
    });
    const v = await verifyTrade(noMethod([]), {
      trade: submitted,
      owner: OWNER,
      treasury: TREASURY,
      signedDeposits: [signedDep()],
    });
    expect(v).toMatchObject({ verdict: 'incomplete', checks: [{ mark: 'pending', chain: 'not on chain (yet)' }] });
  });

  describe('several deposits signed for one buy: each is checked', () => {
    const OTHER_HASH = 'BtdbMPHxZ7cZoW4t1xTqG1wYx6S7xWuSbY9S6dvpVt4W';
    const first = {
      signature: DEP,
      blockhash: BLOCKHASH,
      lastValidBlockHeight: 900,
      blockhashKnownBeforeSigning: true,
    };
    const second = {
      signature: DEP2,
      blockhash: OTHER_HASH,
      lastValidBlockHeight: 940,
      blockhashKnownBeforeSigning: true,
    };
    const hashes = { [BLOCKHASH]: 950, [OTHER_HASH]: 990 };
    const expired = trade({ stage: 'expired', status: 'expired', signatures: { deposit: null, swaps: [] } });

    it('the service says expired, the latest can never land, but the first landed: the SOL was spent, a contradiction', async () => {
      const v = await verifyTrade(reader([deposit], 1_100, false, hashes), {
        trade: expired,
        owner: OWNER,
        treasury: TREASURY,
        signedDeposits: [first, second],
      });
      expect(v.verdict).toBe('contradicted');
      expect(v.deposit).toEqual({ onChain: true, proven: null, lastValidBlockHeight: 940, blockHeight: null });
      expect(v.checks.map((c) => [c.signature, c.mark, c.onChain])).toEqual([
        [DEP, 'contradicts', true],
        [DEP2, 'verified', false],
      ]);
      expect(evidenceClaims(v).proven).toEqual([]);
    });

    it('never landed only when none can: both proven, verified; one still valid at finalized, incomplete', async () => {
      const both = await verifyTrade(reader([], 991 + LAG, false, hashes), {
        trade: expired,
        owner: OWNER,
        treasury: TREASURY,
        signedDeposits: [first, second],
      });
      expect(both).toMatchObject({
        verdict: 'verified',
        deposit: { onChain: false, proven: true, lastValidBlockHeight: 940, blockHeight: 991 },
      });
      const one = await verifyTrade(reader([], 990 + LAG, false, hashes), {
        trade: expired,
        owner: OWNER,
        treasury: TREASURY,
        signedDeposits: [first, second],
      });
      expect(one).toMatchObject({ verdict: 'incomplete', deposit: { onChain: false, proven: false } });
      expect(one.checks.map((c) => c.mark)).toEqual(['verified', 'pending']);
    });

    it('completed on the second, the first proven dead: verified, only the landed one is evidence; both landed: a contradiction', async () => {
      const landed2 = transfer(DEP2, OWNER, TREASURY, 100_000_000n);
      const done = trade({ signatures: { deposit: DEP2 } });
      const v = await verifyTrade(reader([landed2, swap], 1_100, false, hashes), {
        trade: done,
        owner: OWNER,
        treasury: TREASURY,
        signedDeposits: [first, second],
      });
      expect(v.verdict).toBe('verified');
      expect(v.checks.filter((c) => c.role === 'deposit').map((c) => [c.signature, c.mark, c.expected])).toEqual([
        [DEP, 'verified', 'never to land (you signed another deposit for this buy)'],
        [DEP2, 'verified', '0.1 SOL from your wallet to the treasury'],
      ]);
      expect(evidenceClaims(v).proven).toEqual([
        { signature: DEP2, role: 'deposit' },
        { signature: SWAP, role: 'swap' },
      ]);
      const twice = await verifyTrade(reader([deposit, landed2, swap], 1_100, false, hashes), {
        trade: done,
        owner: OWNER,
        treasury: TREASURY,
        signedDeposits: [first, second],
      });
      expect(twice.verdict).toBe('contradicted');
      expect(twice.checks[0]).toMatchObject({
        signature: DEP,
        mark: 'contradicts',
        chain: expect.stringMatching(/^it is on chain, not the deposit the service names: /),
      });
      expect(twice.checks[1]).toMatchObject({
        signature: DEP2,
        mark: 'contradicts',
        chain: expect.stringMatching(/^a second deposit you signed for this buy is on chain: /),
      });
    });
  });

  it('an RPC that did not know the blockhash before signing (another cluster) proves no absence', async () => {
    const submitted = trade({
      stage: 'awaiting_deposit',
      status: 'awaiting_deposit',
      signatures: { deposit: null, swaps: [] },
    });
    const v = await verifyTrade(reader([], 951 + LAG), {
      trade: submitted,
      owner: OWNER,
      treasury: TREASURY,
      signedDeposits: [signedDep(false)],
    });
    expect(v).toMatchObject({ verdict: 'incomplete', deposit: { proven: false } });
    expect(v.checks[0]!.chain).toContain("the RPC did not know the deposit's blockhash before signing");
  });

  it('a buy past awaiting_deposit naming no deposit, or completed naming no swap, is not verified', async () => {
    for (const stage of ['confirming_deposit', 'funding', 'completed', 'refunded'] as const) {
      const v = await verifyTrade(reader([swap]), {
        trade: trade({ stage, signatures: { deposit: null } }),
        owner: OWNER,
        treasury: TREASURY,
      });
      expect(v.verdict, stage).toBe('contradicted');
      expect(v.checks[0], stage).toMatchObject({ role: 'deposit', signature: null, mark: 'not-found' });
    }
    const awaiting = await verifyTrade(reader([]), {
      trade: trade({ stage: 'awaiting_deposit', signatures: { deposit: null, swaps: [] } }),
      owner: OWNER,
      treasury: TREASURY,
    });
    expect(awaiting).toMatchObject({ verdict: 'verified', checks: [] });
    const noSwap = await verifyTrade(reader([deposit]), {
      trade: trade({ signatures: { swaps: [] } }),
      owner: OWNER,
      treasury: TREASURY,
    });
    expect(noSwap.verdict).toBe('contradicted');
    expect(contradictionLine(noSwap)).toContain('the service reports the buy completed but names no swap');
    const executing = await verifyTrade(reader([deposit]), {
      trade: trade({ stage: 'executing', signatures: { swaps: [] } }),
      owner: OWNER,
      treasury: TREASURY,
    });
    expect(executing.verdict).toBe('verified');
  });

  it('sell payouts: at least the signed minimum in all, to the owner; a completed sell with no payout contradicts', async () => {
    const sell = (payouts: string[]) =>
      trade({
        side: 'sell',
        inputAmount: '5',
        receivedOutputAmount: null,
        signatures: { deposit: null, swaps: [], payouts },
      });
    const p1 = transfer(P1, TREASURY, OWNER, 30n);
    const p2 = transfer(P2, TREASURY, OWNER, 30n);
    expect(
      (
        await verifyTrade(reader([p1, p2]), {
          trade: sell([P1, P2]),
          owner: OWNER,
          treasury: null,
          signedMinimumLamports: 60n,
        })
      ).verdict,
    ).toBe('verified');
    const short = await verifyTrade(reader([p1, p2]), {
      trade: sell([P1, P2]),
      owner: OWNER,
      treasury: null,
      signedMinimumLamports: 61n,
    });
    expect(short.verdict).toBe('contradicted');
    expect(contradictionLine(short)).toContain('the payouts pay 0.00000006 SOL in all, less than the signed minimum');
    const none = await verifyTrade(reader([]), {
      trade: sell([]),
      owner: OWNER,
      treasury: null,
      signedMinimumLamports: 1n,
    });
    expect(none.checks).toEqual([expect.objectContaining({ signature: null, mark: 'not-found' })]);
  });

  it("what a sell received is what the chain shows its payouts paid: a service that says more contradicts it (at it verified, one lamport over not); the figure is the chain's", async () => {
    const sell = (received: string | null, payouts = [P1, P2]) =>
      trade({
        side: 'sell',
        inputAmount: '5',
        receivedOutputAmount: received,
        signatures: { deposit: null, swaps: [], payouts },
      });
    const chain = () => reader([transfer(P1, TREASURY, OWNER, 30n), transfer(P2, TREASURY, OWNER, 40n)]);
    const input = (t: Trade) => ({ trade: t, owner: OWNER, treasury: null, signedMinimumLamports: 60n });
    const atIt = await verifyTrade(chain(), input(sell('70')));
    expect(atIt).toMatchObject({ verdict: 'verified', received: { payoutsLamports: '70' } });
    const over = await verifyTrade(chain(), input(sell('71')));
    expect(over).toMatchObject({ verdict: 'contradicted', received: { payoutsLamports: '70' } });
    expect(contradictionLine(over)).toBe(
      'the chain contradicts the service: payout should be 0.000000071 SOL to your wallet, as the service reports it received, but the chain shows: the payouts pay 0.00000007 SOL in all',
    );
    // attack-1 §3: one payout, the service saying three times what it paid.
    const one = await verifyTrade(reader([transfer(P1, TREASURY, OWNER, 30n)]), {
      ...input(sell('90', [P1])),
      signedMinimumLamports: 30n,
    });
    expect(contradictionLine(one)).toBe(
      `the chain contradicts the service: payout ${P1} should be 0.00000009 SOL to your wallet, as the service reports it received, but the chain shows: the payout pays 0.00000003 SOL in all`,
    );
    // Saying less is no contradiction, but the figure shown is still the chain's.
    expect(await verifyTrade(chain(), input(sell('69')))).toMatchObject({
      verdict: 'verified',
      received: { payoutsLamports: '70' },
    });
    // A payout not read (not on chain): no total is known, so none is given.
    const missing = await verifyTrade(reader([transfer(P1, TREASURY, OWNER, 30n)]), input(sell('70')));
    expect(missing.received).toBeUndefined();
  });

  it('one payout named twice counts once, and may not be the refund as well', async () => {
    const sell = (payouts: string[], refund: string | null = null) =>
      trade({
        side: 'sell',
        inputAmount: '5',
        receivedOutputAmount: null,
        signatures: { deposit: null, swaps: [], payouts, refund },
      });
    const p1 = transfer(P1, TREASURY, OWNER, 30n);
    const twice = await verifyTrade(reader([p1]), {
      trade: sell([P1, P1]),
      owner: OWNER,
      treasury: null,
      signedMinimumLamports: 60n,
    });
    expect(twice.verdict).toBe('contradicted');
    expect(twice.checks.filter((c) => c.signature === P1)).toHaveLength(1);
    expect(
      (
        await verifyTrade(reader([p1]), {
          trade: sell([P1, P1]),
          owner: OWNER,
          treasury: null,
          signedMinimumLamports: 30n,
        })
      ).verdict,
    ).toBe('verified');
    const both = await verifyTrade(reader([p1]), {
      trade: sell([P1], P1),
      owner: OWNER,
      treasury: null,
      signedMinimumLamports: 30n,
    });
    expect(both.verdict).toBe('contradicted');
    expect(contradictionLine(both)).toContain('the same transaction as a payout and as the refund');
  });

  it('a payout must come from another account, and not before the trade was created', async () => {
    const sell = (payouts: string[]) =>
      trade({
        side: 'sell',
        inputAmount: '5',
        receivedOutputAmount: null,
        signatures: { deposit: null, swaps: [], payouts },
      });
    // The owner moving its own SOL (a second account of its own pays the fee; the owner signs).
    const own = {
      ...transfer(OWN, POOL, OWNER, 30n),
      signers: 2,
      accounts: [POOL, OWNER],
      preBalances: [10n ** 9n, 10n ** 9n],
      postBalances: [10n ** 9n - 30n - 5_000n, 10n ** 9n + 30n],
    };
    const v1 = await verifyTrade(reader([own]), {
      trade: sell([OWN]),
      owner: OWNER,
      treasury: null,
      signedMinimumLamports: 30n,
    });
    expect(v1.verdict).toBe('contradicted');
    expect(contradictionLine(v1)).toContain('your wallet signed it');
    const created = Date.parse('2026-11-25T00:00:00Z') / 1000;
    const at = (blockTime: number) => ({ ...transfer(P, TREASURY, OWNER, 30n), blockTime });
    expect(
      (
        await verifyTrade(reader([at(created)]), {
          trade: sell([P]),
          owner: OWNER,
          treasury: null,
          signedMinimumLamports: 30n,
        })
      ).verdict,
    ).toBe('verified');
    const early = await verifyTrade(reader([at(created - 1)]), {
      trade: sell([P]),
      owner: OWNER,
      treasury: null,
      signedMinimumLamports: 30n,
    });
    expect(early.verdict).toBe('contradicted');
    expect(contradictionLine(early)).toContain('before the trade was created');
  });

  it("when this tool created the trade (its journal) bounds a payout, not the service's time: a backdated trade does not let an older payout through", async () => {
    const sell = trade({
      side: 'sell',
      inputAmount: '5',
      receivedOutputAmount: null,
      createdAt: '2026-11-24T00:00:00Z',
      signatures: { deposit: null, swaps: [], payouts: [P] },
    });
    const createdAtMs = Date.parse('2026-11-25T00:00:00Z');
    const landed = (ms: number) => reader([{ ...transfer(P, TREASURY, OWNER, 30n), blockTime: Math.floor(ms / 1000) }]);
    const input = { trade: sell, owner: OWNER, treasury: null, signedMinimumLamports: 30n, createdAtMs };
    // The service's time (a day earlier) would let it through; the journal's does not. This
    // machine's clock may run ahead of the chain's by the allowance, not a second more.
    expect((await verifyTrade(landed(createdAtMs - 3_600_000), { ...input, createdAtMs: null })).verdict).toBe(
      'verified',
    );
    const early = await verifyTrade(landed(createdAtMs - 3_600_000), input);
    expect(contradictionLine(early)).toMatch(
      new RegExp(
        `payout ${P} should be at least 0\\.00000003 SOL to your wallet, but the chain shows: landed at 2026-11-24 23:00:00 UTC, before the trade was created`,
      ),
    );
    expect((await verifyTrade(landed(createdAtMs - CLOCK_ALLOWANCE_MS), input)).verdict).toBe('verified');
    expect((await verifyTrade(landed(createdAtMs - CLOCK_ALLOWANCE_MS - 1000), input)).verdict).toBe('contradicted');
  });

  it('evidence: the transactions a trade names (deposit, payouts, refund), and those the chain proved; one that proved another trade contradicts, naming both', async () => {
    const sell = trade({
      side: 'sell',
      inputAmount: '5',
      receivedOutputAmount: null,
      signatures: { deposit: null, swaps: [SWAP], payouts: [P1, P2] },
    });
    const v = await verifyTrade(reader([swap, transfer(P1, TREASURY, OWNER, 30n)]), {
      trade: sell,
      owner: OWNER,
      treasury: null,
      signedMinimumLamports: 1n,
    });
    expect(evidenceClaims(v)).toEqual({
      named: [
        { signature: SWAP, role: 'swap' },
        { signature: P1, role: 'payout' },
        { signature: P2, role: 'payout' },
      ],
      proven: [{ signature: P1, role: 'payout' }],
    });
    // A swap is claimed under the lock too: two runs racing cannot both take one (one proved sell_A's).
    const swapTaken = withEvidenceConflicts(v, 'sell_B', [
      { signature: SWAP, role: 'swap', otherTrade: 'sell_A', otherRole: 'swap' },
    ]);
    expect(swapTaken.verdict).toBe('contradicted');
    expect(swapTaken.checks.find((c) => c.role === 'swap')!.chain).toBe(
      'this transaction already proved trade sell_A (as its swap); one transaction proves one trade, so it cannot prove sell_B too',
    );
    const claimed = withEvidenceConflicts(v, 'sell_B', [
      { signature: P1, role: 'payout', otherTrade: 'sell_A', otherRole: 'payout' },
    ]);
    expect(claimed.verdict).toBe('contradicted');
    expect(contradictionLine(claimed)).toBe(
      `the chain contradicts the service: payout ${P1} should be SOL to your wallet, but the chain shows: this transaction already proved trade sell_A (as its payout); one transaction proves one trade, so it cannot prove sell_B too`,
    );
    expect(withEvidenceConflicts(v, 'sell_B', [])).toBe(v);
    // A signed deposit proven never to land is verified, but proves no transaction.
    const absent = await verifyTrade(reader([], 951 + LAG), {
      trade: trade({ stage: 'cancelled', signatures: { deposit: null, swaps: [] } }),
      owner: OWNER,
      treasury: TREASURY,
      signedDeposits: [signedDep()],
    });
    expect(absent.verdict).toBe('verified');
    expect(evidenceClaims(absent)).toEqual({ named: [{ signature: DEP, role: 'deposit' }], proven: [] });
    const landed = await verifyTrade(reader([deposit, swap]), {
      trade: trade(),
      owner: OWNER,
      treasury: TREASURY,
      signedDeposits: [signedDep()],
    });
    expect(evidenceClaims(landed).proven).toEqual([
      { signature: DEP, role: 'deposit' },
      { signature: SWAP, role: 'swap' },
    ]);
  });

  describe('attack-3 F2: a payout tied to its sell, not to another trade the journal knows', () => {
    const sellOf = (payouts: string[], received: string | null = '100000000') =>
      trade({
        side: 'sell',
        createdAt: '2026-11-24T00:00:00Z',
        inputMint: POOL,
        outputMint: 'So11111111111111111111111111111111111111112',
        inputAmount: '5',
        receivedOutputAmount: received,
        signatures: { deposit: null, swaps: [], payouts },
      });
    const madeAtMs = Date.parse('2026-11-25T00:00:00Z');
    const landed = (lamports: bigint, ms = madeAtMs + 60_000) => ({
      ...transfer(P, TREASURY, OWNER, lamports),
      blockTime: Math.floor(ms / 1000),
    });
    const knowledge = (over: Partial<JournalKnowledge> = {}): JournalKnowledge => ({
      elsewhere: new Map(),
      refundable: [{ trade: 'buy-1', madeAtMs, lamports: [100_000_000n, 99_000_000n] }],
      ...over,
    });
    const input = (journal: JournalKnowledge | null, received: string | null = '100000000') => ({
      trade: sellOf([P], received),
      owner: OWNER,
      treasury: TREASURY,
      signedMinimumLamports: 1n,
      journal,
    });

    it("a payout of exactly a not-completed buy's deposit (or it less the fee its review showed), landed after that buy was made, is not tied to the sell: attributed, its figure apart, never 'verified'", async () => {
      for (const lamports of [100_000_000n, 99_000_000n]) {
        const v = await verifyTrade(reader([landed(lamports)]), input(knowledge()));
        expect(v.verdict).toBe('attributed');
        expect(v.checks).toEqual([
          {
            signature: P,
            role: 'payout',
            expected: 'at least 0.000000001 SOL to your wallet',
            mark: 'attributed',
            chain: `the service reports 0.1 SOL paid; the chain shows a transfer it cannot tie to this sell: ${formatSol(lamports)} SOL to your wallet, slot 7, exactly what buy buy-1 (not known completed here) may get back as its refund`,
          },
        ]);
        expect(v.received).toEqual({ untiedPayoutsLamports: lamports.toString() });
        // Not the sell's evidence: the buy may claim it as its refund later.
        expect(evidenceClaims(v).proven).toEqual([]);
      }
      // Without what the service says it paid, the words say only what the chain shows.
      const unsaid = await verifyTrade(reader([landed(100_000_000n)]), input(knowledge(), null));
      expect(unsaid.checks[0]!.chain).toMatch(/^the chain shows a transfer it cannot tie to this sell: 0\.1 SOL/);
    });

    it('one lamport either side of those amounts, a payout landed before the buy was made (past the clock allowance), or no journal: verified as before', async () => {
      for (const lamports of [100_000_001n, 99_999_999n, 99_000_001n, 98_999_999n]) {
        expect((await verifyTrade(reader([landed(lamports)]), input(knowledge(), null))).verdict).toBe('verified');
      }
      // At the allowance it may be the refund; a second earlier it cannot be.
      expect(
        (await verifyTrade(reader([landed(100_000_000n, madeAtMs - CLOCK_ALLOWANCE_MS)]), input(knowledge()))).verdict,
      ).toBe('attributed');
      expect(
        (await verifyTrade(reader([landed(100_000_000n, madeAtMs - CLOCK_ALLOWANCE_MS - 1000)]), input(knowledge())))
          .verdict,
      ).toBe('verified');
      expect((await verifyTrade(reader([landed(100_000_000n)]), input(null))).verdict).toBe('verified');
      expect((await verifyTrade(reader([landed(100_000_000n)]), input(knowledge({ refundable: [] })))).verdict).toBe(
        'verified',
      );
    });

    it("a payout the journal knows as another trade's transaction, in any role (named or proved), contradicts: one transaction proves one trade", async () => {
      for (const role of ['refund', 'deposit', 'swap', 'payout', null] as const) {
        const elsewhere = new Map([[P, [{ trade: 'b-9', side: 'buy' as const, role }]]]);
        const v = await verifyTrade(reader([landed(5n)]), input(knowledge({ elsewhere, refundable: [] }), null));
        expect(v.verdict).toBe('contradicted');
        expect(contradictionLine(v)).toBe(
          `the chain contradicts the service: payout ${P} should be at least 0.000000001 SOL to your wallet, but the chain shows: the journal knows this transaction as buy b-9's ${role ?? 'transaction'}${role === 'deposit' ? ' (which you signed)' : ''}; one transaction proves one trade, so it is not this sell's payout`,
        );
        expect(v.received).toBeUndefined();
      }
    });
  });

  describe('attack-3 F4 and attack-log-2 C: a swap is verified only when it touches the traded mint, landed no earlier than the trade, and no other trade has it', () => {
    const sellSwap = trade({
      side: 'sell',
      inputMint: POOL,
      receivedOutputAmount: null,
      signatures: { deposit: null, swaps: [SWAP], payouts: [] },
      stage: 'executing',
    });
    const verifySwap = (elsewhere: JournalKnowledge['elsewhere'], t: Trade = sellSwap, txs = [swap]) =>
      verifyTrade(reader(txs), { trade: t, owner: OWNER, treasury: TREASURY, journal: { elsewhere, refundable: [] } });

    it("a transaction that does not touch the mint (the owner's own deposit): exists, not attributable; the journal knowing it as the deposit contradicts", async () => {
      const named = trade({ ...sellSwap, signatures: { deposit: null, swaps: [DEP], payouts: [] } });
      const v = await verifySwap(new Map(), named, [deposit]);
      expect(v.verdict).toBe('attributed');
      expect(v.checks[0]).toMatchObject({
        role: 'swap',
        mark: 'attributed',
        chain: expect.stringMatching(
          /^exists, not attributable: succeeded, slot 7, but it touches no account or token balance of DRpb\w+21hy$/,
        ),
      });
      const known = await verifySwap(new Map([[DEP, [{ trade: 'b1', side: 'buy', role: 'deposit' }]]]), named, [
        deposit,
      ]);
      expect(known.verdict).toBe('contradicted');
      expect(known.checks[0]!.chain).toBe(
        "the journal knows this transaction as buy b1's deposit (which you signed); one transaction proves one trade, so it is not this sell's swap",
      );
    });

    it('one swap proves one trade: the journal knowing it for another trade, in any role (a swap of the same side too), contradicts without asking the chain; unknown, verified', async () => {
      expect((await verifySwap(new Map())).checks[0]).toMatchObject({ mark: 'verified', chain: 'succeeded, slot 7' });
      for (const known of [
        { trade: 'sell_A', side: 'sell' as const, role: 'swap' as const },
        { trade: 'b1', side: 'buy' as const, role: 'swap' as const },
        { trade: 'b1', side: 'buy' as const, role: 'refund' as const },
        { trade: 'sell_A', side: 'sell' as const, role: null },
      ]) {
        const v = await verifySwap(new Map([[SWAP, [known]]]));
        expect(v.verdict).toBe('contradicted');
        expect(v.checks[0]!.chain).toBe(
          `the journal knows this transaction as ${known.side} ${known.trade}'s ${known.role ?? 'transaction'}; one transaction proves one trade, so it is not this sell's swap`,
        );
        expect(asked).toEqual([]);
      }
    });

    it("a sell's swap may not predate the sell (the payout's bound: when this tool made it, less the clock allowance): at it verified, a second earlier contradicts", async () => {
      const createdAtMs = Date.parse('2026-11-25T00:00:00Z');
      const at = (ms: number) => [{ ...swap, blockTime: Math.floor(ms / 1000) }];
      const check = (ms: number) =>
        verifyTrade(reader(at(ms)), { trade: sellSwap, owner: OWNER, treasury: TREASURY, createdAtMs });
      expect((await check(createdAtMs - CLOCK_ALLOWANCE_MS)).verdict).toBe('verified');
      const early = await check(createdAtMs - CLOCK_ALLOWANCE_MS - 1000);
      expect(early.verdict).toBe('contradicted');
      expect(contradictionLine(early)).toBe(
        `the chain contradicts the service: swap ${SWAP} should be a swap that succeeded, but the chain shows: landed at 2026-11-24 23:59:44 UTC, before the trade was created: it cannot be its swap`,
      );
      // A swap failed as reported is held to the same bound.
      const failed = trade({ ...sellSwap, failure: { code: 'X', message: 'x' } as Trade['failure'] });
      const old = [{ ...swap, err: { InstructionError: [0, 'Custom'] }, blockTime: 1 }];
      expect(
        (await verifyTrade(reader(old), { trade: failed, owner: OWNER, treasury: TREASURY, createdAtMs })).verdict,
      ).toBe('contradicted');
    });

    it("a buy's swap may not land before its deposit: in an earlier slot it contradicts (in the deposit's slot it may follow it), and an old one before the buy was made does too", async () => {
      const input = (s: ChainTransaction, createdAtMs: number | null = null) => ({
        trade: trade(),
        owner: OWNER,
        treasury: TREASURY,
        signedDeposits: [signedDep()],
        createdAtMs,
      });
      const run = (s: ChainTransaction, createdAtMs: number | null = null) =>
        verifyTrade(reader([deposit, s]), input(s, createdAtMs));
      expect((await run({ ...swap, slot: 7 })).verdict).toBe('verified');
      const before = await run({ ...swap, slot: 6 });
      expect(before.verdict).toBe('contradicted');
      expect(before.checks.find((c) => c.role === 'swap')!.chain).toBe(
        "landed in slot 6, before your deposit (slot 7): it cannot be this buy's swap",
      );
      // What it delivered is not counted from a swap that is not this buy's.
      expect(before.received).toBeUndefined();
      const madeAt = Date.parse('2026-11-25T00:00:00Z');
      const old = await run({ ...swap, blockTime: Math.floor((madeAt - CLOCK_ALLOWANCE_MS) / 1000) - 1 }, madeAt);
      expect(old.verdict).toBe('contradicted');
    });
  });

  describe('attack-log-2 E: a named signature that is not base58 of 64 bytes', () => {
    it("is the service's contradiction, never sent to the RPC; the other claims are still checked (a phantom payout is caught)", async () => {
      const sell = trade({
        side: 'sell',
        inputMint: POOL,
        receivedOutputAmount: null,
        signatures: { deposit: null, swaps: ['1111', SWAP], payouts: [P] },
      });
      const v = await verifyTrade(reader([swap]), { trade: sell, owner: OWNER, treasury: TREASURY });
      expect(asked).toEqual([`transaction ${SWAP}`, `transaction ${P}`]);
      expect(v.verdict).toBe('contradicted');
      expect(v.checks.map((c) => [c.role, c.signature, c.mark])).toEqual([
        ['swap', null, 'contradicts'],
        ['swap', SWAP, 'verified'],
        ['payout', P, 'not-found'],
      ]);
      expect(contradictionLine(v)).toBe(
        'the chain contradicts the service: swap should be a transaction signature (base58 of 64 bytes), but the chain shows: the service names "1111" as the swap, which names no transaction (not asked of the chain)',
      );
    });

    it('in any role, empty or of another length (63 or 65 bytes), with control characters shown escaped; in place of "names no …"; a chain that cannot be read does not hide it', async () => {
      const short = bs58.encode(Buffer.alloc(63, 7));
      const long = bs58.encode(Buffer.alloc(65, 7));
      const t = trade({
        stage: 'refunded',
        status: 'refunded',
        refund: { state: 'complete', amountLamports: '1' },
        signatures: { deposit: short, swaps: [''], payouts: [], refund: `${long}\u001b[2J` },
      });
      const v = await verifyTrade(reader([deposit]), { trade: t, owner: OWNER, treasury: TREASURY });
      expect(v.checks.map((c) => [c.role, c.signature, c.mark])).toEqual([
        ['deposit', null, 'contradicts'],
        ['swap', null, 'contradicts'],
        ['refund', null, 'contradicts'],
      ]);
      expect(v.checks[2]!.chain).toMatch(/^the service names "\w{19}…" as the refund/);
      expect(v.checks[1]!.chain).toBe(
        'the service names "" as the swap, which names no transaction (not asked of the chain)',
      );
      expect(asked).toEqual([]);
      const down = await verifyTrade(reader([], 1_000, true), { trade: t, owner: OWNER, treasury: TREASURY });
      expect(down.verdict).toBe('contradicted');
      expect(down.checks).toHaveLength(3);
      // The control: 64 bytes, whatever their value, are a signature.
      for (const ok of [bs58.encode(Buffer.alloc(64, 0)), bs58.encode(Buffer.alloc(64, 255))]) {
        const named = trade({ signatures: { deposit: DEP, swaps: [ok] } });
        const c = await verifyTrade(reader([deposit]), { trade: named, owner: OWNER, treasury: TREASURY });
        expect(c.checks.find((x) => x.role === 'swap')).toMatchObject({ signature: ok, mark: 'not-found' });
      }
    });

    it('attack-log-2 E1b: a refunded buy with a phantom refund and a malformed swap is a contradiction, not a refund', async () => {
      const t = trade({
        stage: 'refunded',
        status: 'refunded',
        refund: { state: 'complete', amountLamports: '99000000' },
        signatures: { swaps: ['1111'], refund: R },
      });
      const v = await verifyTrade(reader([deposit]), {
        trade: t,
        owner: OWNER,
        treasury: TREASURY,
        signedDeposits: [signedDep()],
      });
      expect(v.verdict).toBe('contradicted');
      expect(v.checks.find((c) => c.role === 'refund')).toMatchObject({ signature: R, mark: 'not-found' });
    });
  });

  /** The refund `r` paying the owner, in a slot after the deposit's (7). */
  const refundTx = (lamports: bigint, slot = 8) => ({ ...transfer(R, TREASURY, OWNER, lamports), slot });
  const refundedBuy = (over: Partial<Trade> = {}) =>
    trade({
      stage: 'refunded',
      status: 'refunded',
      refund: { state: 'complete', amountLamports: '1' },
      signatures: { swaps: [], refund: R },
      ...over,
    });

  it('a refund must be at least the deposit less the platform fee the review showed before signing, whatever amount the service reports', async () => {
    // Deposit 0.1 SOL, platform fee 0.001 SOL seen before signing: at least 0.099 SOL owed back.
    const refunded = (lamports: bigint, reviewedFeeLamports: bigint) =>
      verifyTrade(reader([deposit, refundTx(lamports)]), {
        trade: refundedBuy(),
        owner: OWNER,
        treasury: TREASURY,
        reviewedFeeLamports,
      });
    const atIt = await refunded(99_000_000n, 1_000_000n);
    expect(atIt.checks.find((c) => c.role === 'refund')).toMatchObject({
      mark: 'verified',
      expected: 'at least 0.099 SOL back to your wallet',
    });
    expect(atIt.verdict).toBe('verified');
    const under = await refunded(98_999_999n, 1_000_000n);
    expect(under.checks.find((c) => c.role === 'refund')).toMatchObject({ mark: 'contradicts' });
    // No fee shown before signing (0): the whole deposit is owed.
    expect((await refunded(99_999_999n, 0n)).checks.find((c) => c.role === 'refund')).toMatchObject({
      mark: 'contradicts',
      expected: 'at least 0.1 SOL back to your wallet',
    });
  });

  it('attack-2 §2: a fee the service raises after signing does not lower what the refund owes', async () => {
    // The review said 0.0005 SOL; the service now reports a fee of 0.0458 SOL and names a payment of 0.0542 SOL as the refund.
    const v = await verifyTrade(reader([deposit, refundTx(54_200_000n)]), {
      trade: refundedBuy({ platformFeeLamports: '45800000' }),
      owner: OWNER,
      treasury: TREASURY,
      reviewedFeeLamports: 500_000n,
    });
    expect(v.verdict).toBe('contradicted');
    expect(contradictionLine(v)).toBe(
      `the chain contradicts the service: refund ${R} should be at least 0.0995 SOL back to your wallet, but the chain shows: pays 0.0542 SOL to your wallet, less than the deposit less the platform fee shown before signing 0.0995 SOL`,
    );
  });

  it('with no fee seen before signing (a trade the journal does not know), a refund on chain is the service\'s word for its amount: attributed, never "verified"', async () => {
    const v = await verifyTrade(reader([deposit, refundTx(54_200_000n)]), {
      trade: refundedBuy({ platformFeeLamports: '45800000' }),
      owner: OWNER,
      treasury: TREASURY,
    });
    expect(v.verdict).toBe('attributed');
    expect(v.checks.find((c) => c.role === 'refund')).toMatchObject({
      mark: 'attributed',
      chain: expect.stringContaining("that it is all this buy owes back is the service's word"),
    });
    // A sell's refund is held to what the service reports, as before.
    const sellRefund = trade({
      side: 'sell',
      stage: 'refunded',
      status: 'refunded',
      inputAmount: '5',
      refund: { state: 'complete', amountLamports: '1' },
      signatures: { deposit: null, swaps: [], refund: R },
    });
    expect(
      (await verifyTrade(reader([refundTx(54_200_000n)]), { trade: sellRefund, owner: OWNER, treasury: TREASURY }))
        .verdict,
    ).toBe('verified');
  });

  it('with no fee seen before signing, a refund of the whole deposit the chain shows landed proves the buy owes nothing more: verified (one lamport less: attributed)', async () => {
    // The deposit is 0.1 SOL (100_000_000 lamports), on chain.
    const refunded = (lamports: bigint, chain = [deposit, refundTx(lamports)]) =>
      verifyTrade(reader(chain), { trade: refundedBuy(), owner: OWNER, treasury: TREASURY });
    const whole = await refunded(100_000_000n);
    expect(whole.verdict).toBe('verified');
    expect(whole.checks.find((c) => c.role === 'refund')).toMatchObject({
      mark: 'verified',
      chain: expect.stringContaining('the whole deposit back, so this buy owes nothing more'),
    });
    expect((await refunded(99_999_999n)).verdict).toBe('attributed');
    // The deposit not shown on chain: nothing says what was deposited, so the refund proves no whole.
    expect((await refunded(100_000_000n, [refundTx(100_000_000n)])).verdict).not.toBe('verified');
  });

  it('a refund cannot land before the deposit it returns: in an earlier slot it contradicts the service (in the same slot it may follow it)', async () => {
    const at = (slot: number) =>
      verifyTrade(reader([deposit, refundTx(99_500_000n, slot)]), {
        trade: refundedBuy(),
        owner: OWNER,
        treasury: TREASURY,
        reviewedFeeLamports: 1_000_000n,
      });
    expect((await at(8)).verdict).toBe('verified');
    expect((await at(7)).verdict).toBe('verified');
    const before = await at(6);
    expect(before.verdict).toBe('contradicted');
    expect(before.checks.find((c) => c.role === 'refund')).toMatchObject({
      mark: 'contradicts',
      chain: 'landed in slot 6, before your deposit (slot 7): it cannot return it',
    });
    expect(before.received).toBeUndefined();
  });

  it("a buy's refund: the amount the service reports is held to the chain too (at it verified, one lamport over not); the figure is the chain's", async () => {
    const refunded = (reported: string) =>
      verifyTrade(reader([deposit, refundTx(99_500_000n)]), {
        trade: trade({
          stage: 'refunded',
          status: 'refunded',
          refund: { state: 'complete', amountLamports: reported },
          signatures: { swaps: [], refund: R },
        }),
        owner: OWNER,
        treasury: TREASURY,
        reviewedFeeLamports: 1_000_000n,
      });
    expect(await refunded('99500000')).toMatchObject({ verdict: 'verified', received: { refundLamports: '99500000' } });
    const over = await refunded('99500001');
    expect(over).toMatchObject({ verdict: 'contradicted', received: { refundLamports: '99500000' } });
    expect(contradictionLine(over)).toBe(
      `the chain contradicts the service: refund ${R} should be at least 0.099500001 SOL back to your wallet, but the chain shows: pays 0.0995 SOL to your wallet, less than the refund the service reports 0.099500001 SOL`,
    );
  });

  it('a refund under way and not on chain yet is pending; reported complete it must be there', async () => {
    const refunding = trade({
      stage: 'refunding',
      status: 'failed',
      failure: { code: 'X', reason: null },
      refund: { state: 'in_progress', amountLamports: '100000000' },
      signatures: { swaps: [], refund: R },
    });
    expect((await verifyTrade(reader([deposit]), { trade: refunding, owner: OWNER, treasury: TREASURY })).verdict).toBe(
      'incomplete',
    );
    const refunded = {
      ...refunding,
      stage: 'refunded' as const,
      refund: { state: 'complete', amountLamports: '100000000' },
    };
    expect((await verifyTrade(reader([deposit]), { trade: refunded, owner: OWNER, treasury: TREASURY })).verdict).toBe(
      'contradicted',
    );
  });

  it('an unreadable chain is "unchecked" with the reason, never a verdict on the service', async () => {
    const v = await verifyTrade(reader([], 0, true), { trade: trade(), owner: OWNER, treasury: TREASURY });
    expect(v).toEqual({
      rpc: 'rpc.example',
      verdict: 'unchecked',
      checks: [],
      reason: 'reading from rpc.example failed: connection refused (ECONNREFUSED)',
    });
  });
});

describe('deposit evidence: "nothing was spent" only when the chain proves it', () => {
  it("absent with its blockhash valid: may still land (past the service's lastValidBlockHeight too); expired: proven; on chain: spent; unreadable: unknown", async () => {
    const at = await depositEvidence(async () => reader([], 950 + LAG), signedDep());
    expect(at.kind).toBe('may-land');
    expect(chainProvesAbsent(at)).toEqual({ provesAbsent: null, unchecked: null });
    const past = await depositEvidence(async () => reader([], 951 + LAG), signedDep());
    expect(past.kind).toBe('proven-absent');
    expect(chainProvesAbsent(past)).toEqual({ provesAbsent: true, unchecked: null });
    expect(asked).toEqual([`blockhash ${BLOCKHASH} at finalized`, `transaction ${DEP}`]);
    expect(chainProvesAbsent(await depositEvidence(async () => reader([deposit], 951 + LAG), signedDep()))).toEqual({
      provesAbsent: false,
      unchecked: null,
    });
    const down = await depositEvidence(async () => reader([], 0, true), signedDep());
    expect(down.kind).toBe('unknown');
    expect(chainProvesAbsent(down)).toEqual({
      provesAbsent: null,
      unchecked: expect.stringContaining('connection refused'),
    });
  });

  it('"nothing was spent" only at finalized: expired at processed (a block past its last) while valid at finalized is no proof', async () => {
    const early = await depositEvidence(async () => reader([], 951), signedDep());
    expect(early.kind).toBe('may-land');
    expect(chainProvesAbsent(early).provesAbsent).toBeNull();
  });

  it('an RPC that did not know the blockhash before signing proves nothing: another cluster calls every blockhash invalid', async () => {
    const other = await depositEvidence(async () => reader([], 951, false, {}), signedDep(false));
    expect(chainProvesAbsent(other)).toEqual({
      provesAbsent: null,
      unchecked: "not proven: the RPC did not know the deposit's blockhash before signing",
    });
    const { blockhashKnownBeforeSigning: _, ...unrecorded } = signedDep();
    expect(
      chainProvesAbsent(await depositEvidence(async () => reader([], 951 + LAG), unrecorded)).provesAbsent,
    ).toBeNull();
  });
});

describe('a trade the journal knows keeps its side (attack-log-3 F4b)', () => {
  it("the service calling this tool's buy a sell (or its sell a buy) is a contradiction, exit 3; the same side, or a trade the journal does not know, passes", () => {
    const buy = trade({ side: 'buy' });
    const sell = trade({ side: 'sell' });
    expect(() => sideAsJournaled({ side: 'buy' }, buy, 'b1')).not.toThrow();
    expect(() => sideAsJournaled(null, sell, 'b1')).not.toThrow();
    expect(() => sideAsJournaled({ side: 'buy' }, sell, 'b1')).toThrow(
      expect.objectContaining({
        code: 'SERVICE_CONTRADICTION',
        exitCode: 3,
        message:
          "the service reports trade b1 as a sell, but this tool made it as a buy (its journal): not shown or checked as the service's",
      }),
    );
    expect(() => sideAsJournaled({ side: 'sell' }, buy, 'sell_x')).toThrow(/as a buy, but this tool made it as a sell/);
  });
});
