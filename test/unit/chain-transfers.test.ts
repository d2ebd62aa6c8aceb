// The transfer checks over getTransaction results as a standard Solana RPC returns them
// (encoding json): a deposit, payouts to the owner, to someone else, below the minimum, a failed
// transaction, a v0 transaction with loaded addresses, and results of an unknown shape.
import { describe, expect, it } from 'vitest';
import { fromRpcJson, tokenGain } from '../../src/chain/chain-transaction.js';
import { checkDeposit, checkPayout, checkSwap, depositAbsence } from '../../src/chain/transfer-checks.js';

const OWNER = 'HfN7ZkA5rSuKREztxSha9cVyXcVrMEeF8Fj5ia9vV3GC';
const TREASURY = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const STRANGER = 'DRpbCBMxVnDK7maPM5tGv6MvB3v1sRMC86PZ8okm21hy';
const SYSTEM = '11111111111111111111111111111111';
const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111';
const MINT = 'GFmFPoogcNkUSTFRJz6HNNPBtvQaxVXSqZj2RpBFsGXk';
const OTHER_MINT = 'So11111111111111111111111111111111111111112';
const SIG = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

/** A getTransaction result: one transfer `from` → `to`, fee paid by the first key. */
function recorded(opts: {
  keys: string[];
  pre: number[];
  post: number[];
  fee?: number;
  err?: unknown;
  version?: 0 | 'legacy';
  loaded?: { writable: string[]; readonly: string[] };
  signers?: number;
  blockTime?: number | null;
}) {
  return {
    blockTime: opts.blockTime === undefined ? 1732550400 : opts.blockTime,
    meta: {
      computeUnitsConsumed: 450,
      err: opts.err ?? null,
      fee: opts.fee ?? 5000,
      innerInstructions: [],
      loadedAddresses: opts.loaded ?? { readonly: [], writable: [] },
      logMessages: [
        'Program 11111111111111111111111111111111 invoke [1]',
        'Program 11111111111111111111111111111111 success',
      ],
      postBalances: opts.post,
      postTokenBalances: [],
      preBalances: opts.pre,
      preTokenBalances: [],
      rewards: [],
      status: opts.err ? { Err: opts.err } : { Ok: null },
    },
    slot: 301234567,
    transaction: {
      message: {
        accountKeys: opts.keys,
        header: {
          numReadonlySignedAccounts: 0,
          numReadonlyUnsignedAccounts: 1,
          numRequiredSignatures: opts.signers ?? 1,
        },
        instructions: [
          { accounts: [0, 1], data: '3Bxs4NN8M2Yn4TLb', programIdIndex: opts.keys.length - 1, stackHeight: null },
        ],
        recentBlockhash: 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N',
      },
      signatures: [SIG],
    },
    version: opts.version ?? 'legacy',
  };
}

const tx = (r: unknown) => fromRpcJson(SIG, r);

describe('deposit: exactly the intent amount from the owner to the treasury', () => {
  // 0.1 SOL, fee 5,000 + 500 priority: the owner loses 100,005,500.
  const deposit = recorded({
    keys: [OWNER, TREASURY, COMPUTE_BUDGET, SYSTEM],
    pre: [2_000_000_000, 50_000_000_000, 1, 1],
    post: [1_899_994_500, 50_100_000_000, 1, 1],
    fee: 5_500,
    version: 0,
  });
  it('verified at the exact amount, naming the fee', () => {
    const c = checkDeposit(tx(deposit), { owner: OWNER, treasury: TREASURY, amountLamports: 100_000_000n });
    expect(c.mark).toBe('verified');
    expect(c.chain).toContain('0.1 SOL from your wallet to the treasury');
  });
  it('one lamport off either way contradicts', () => {
    for (const amount of [99_999_999n, 100_000_001n]) {
      const c = checkDeposit(tx(deposit), { owner: OWNER, treasury: TREASURY, amountLamports: amount });
      expect(c.mark).toBe('contradicts');
      expect(c.chain).toContain('your wallet paid 0.1 SOL');
    }
  });
  it('to another recipient than the treasury contradicts, naming who got it', () => {
    const c = checkDeposit(tx(deposit), { owner: OWNER, treasury: STRANGER, amountLamports: 100_000_000n });
    expect(c.mark).toBe('contradicts');
    expect(c.chain).toContain(`went to an unknown third party ${TREASURY}, not the treasury ${STRANGER}`);
  });
  it('with no treasury known, whoever received exactly the amount, named whole and as not known', () => {
    const c = checkDeposit(tx(deposit), { owner: OWNER, treasury: null, amountLamports: 100_000_000n });
    expect(c.mark).toBe('verified');
    expect(c.chain).toContain(
      `0.1 SOL from your wallet to ${TREASURY} (no treasury is pinned here: the chain does not say whose it is)`,
    );
  });
  it('paid by another wallet contradicts', () => {
    expect(
      checkDeposit(tx(deposit), { owner: STRANGER, treasury: TREASURY, amountLamports: 100_000_000n }).chain,
    ).toContain(`paid by ${OWNER}`);
  });
  it('absent: not found', () => {
    expect(checkDeposit(tx(null), { owner: OWNER, treasury: TREASURY, amountLamports: 1n }).mark).toBe('not-found');
  });
  it('a failed transaction contradicts (only the fee moved)', () => {
    const failed = recorded({
      keys: [OWNER, TREASURY, SYSTEM],
      pre: [2_000_000_000, 0, 1],
      post: [1_999_995_000, 0, 1],
      err: { InstructionError: [0, { Custom: 1 }] },
    });
    const c = checkDeposit(tx(failed), { owner: OWNER, treasury: TREASURY, amountLamports: 100_000_000n });
    expect(c.mark).toBe('contradicts');
    expect(c.chain).toContain('failed on chain');
  });
});

describe('payout: SOL to the owner, at least the signed minimum', () => {
  const payout = (to: string, lamports: number) =>
    recorded({
      keys: [TREASURY, to, SYSTEM],
      pre: [50_000_000_000, 1_000_000_000, 1],
      post: [50_000_000_000 - lamports - 5000, 1_000_000_000 + lamports, 1],
    });
  it('to the owner: verified, with what it paid', () => {
    const c = checkPayout(tx(payout(OWNER, 49_500_000)), { owner: OWNER, minimumLamports: 49_500_000n });
    expect(c.mark).toBe('verified');
    expect(c.paidLamports).toBe(49_500_000n);
    expect(c.chain).toContain('0.0495 SOL to your wallet');
  });
  it('one lamport below the minimum contradicts', () => {
    const c = checkPayout(tx(payout(OWNER, 49_499_999)), {
      owner: OWNER,
      minimumLamports: 49_500_000n,
      what: 'the signed minimum',
    });
    expect(c.mark).toBe('contradicts');
    expect(c.chain).toContain('less than the signed minimum 0.0495 SOL');
  });
  it('to someone else contradicts, naming the wallet', () => {
    const c = checkPayout(tx(payout(STRANGER, 49_500_000)), { owner: OWNER, minimumLamports: 1n });
    expect(c.mark).toBe('contradicts');
    expect(c.chain).toBe(`pays 0.0495 SOL to an unknown third party ${STRANGER}, not your wallet`);
  });
  it('a failed transaction contradicts', () => {
    const r = recorded({ keys: [TREASURY, OWNER, SYSTEM], pre: [5, 5, 1], post: [0, 5, 1], err: 'AccountNotFound' });
    expect(checkPayout(tx(r), { owner: OWNER }).mark).toBe('contradicts');
  });
  it('a signature the chain does not have: not found', () => {
    expect(checkPayout(tx(null), { owner: OWNER }).mark).toBe('not-found');
  });
  it('a v0 payout where the owner is a loaded address counts the loaded keys', () => {
    const r = recorded({
      keys: [TREASURY, SYSTEM],
      pre: [50_000_000_000, 1, 7],
      post: [49_899_995_000, 1, 100_000_007],
      version: 0,
      loaded: { writable: [OWNER], readonly: [] },
    });
    expect(checkPayout(tx(r), { owner: OWNER, minimumLamports: 100_000_000n }).mark).toBe('verified');
  });
  it('a transaction the owner paid for (fee payer) is no payout, though the owner gained', () => {
    // The owner pays the fee and pulls 0.1 SOL from its own second account (a co-signer).
    const r = recorded({
      keys: [OWNER, STRANGER, SYSTEM],
      pre: [1_000_000_000, 500_000_000, 1],
      post: [1_099_995_000, 400_000_000, 1],
      signers: 2,
    });
    const c = checkPayout(tx(r), { owner: OWNER, minimumLamports: 1n });
    expect(c).toMatchObject({ mark: 'contradicts', paidLamports: 0n });
    expect(c.chain).toContain('your wallet signed it and paid its fee');
  });
  it('the owner as a second signer is no payout either', () => {
    const r = recorded({
      keys: [TREASURY, OWNER, SYSTEM],
      pre: [50_000_000_000, 1_000_000_000, 1],
      post: [49_899_995_000, 1_100_000_000, 1],
      signers: 2,
    });
    expect(checkPayout(tx(r), { owner: OWNER }).chain).toContain('your wallet signed it:');
    // The same transfer signed by the treasury alone is a payout.
    expect(
      checkPayout(
        tx({
          ...r,
          transaction: {
            ...r.transaction,
            message: {
              ...r.transaction.message,
              header: { ...r.transaction.message.header, numRequiredSignatures: 1 },
            },
          },
        }),
        { owner: OWNER },
      ).mark,
    ).toBe('verified');
  });
  it("the owner's gain must be matched by what other accounts gave beyond the fee", () => {
    // 0.1 SOL to the owner, but the payer lost only 0.1 SOL − 1 lamport beyond the fee: inconsistent balances.
    const r = recorded({
      keys: [TREASURY, OWNER, SYSTEM],
      pre: [50_000_000_000, 1_000_000_000, 1],
      post: [49_899_995_001, 1_100_000_000, 1],
    });
    expect(checkPayout(tx(r), { owner: OWNER }).mark).toBe('contradicts');
    const exact = recorded({
      keys: [TREASURY, OWNER, SYSTEM],
      pre: [50_000_000_000, 1_000_000_000, 1],
      post: [49_899_995_000, 1_100_000_000, 1],
    });
    expect(checkPayout(tx(exact), { owner: OWNER }).mark).toBe('verified');
  });
  it('a payout from before the trade was created contradicts; at the same second, or with no blockTime, it counts', () => {
    const at = (blockTime: number | null) =>
      tx(
        recorded({
          keys: [TREASURY, OWNER, SYSTEM],
          pre: [50_000_000_000, 1_000_000_000, 1],
          post: [49_899_995_000, 1_100_000_000, 1],
          blockTime,
        }),
      );
    const created = 1732550400_000;
    expect(checkPayout(at(1732550400), { owner: OWNER, notBeforeMs: created + 999 }).mark).toBe('verified');
    const early = checkPayout(at(1732550399), { owner: OWNER, notBeforeMs: created });
    expect(early.mark).toBe('contradicts');
    expect(early.chain).toContain('before the trade was created');
    expect(checkPayout(at(null), { owner: OWNER, notBeforeMs: created }).mark).toBe('verified');
  });
});

describe('swaps and deposits not on chain', () => {
  it('a swap is verified when it exists, succeeded and touches the traded mint', () => {
    expect(
      checkSwap(tx(recorded({ keys: [TREASURY, STRANGER, MINT, SYSTEM], pre: [10, 0, 1, 1], post: [5, 0, 1, 1] })), {
        failureReported: false,
        mint: MINT,
      }),
    ).toEqual({ mark: 'verified', chain: 'succeeded, slot 301234567' });
    expect(checkSwap(tx(null), { failureReported: false, mint: MINT }).mark).toBe('not-found');
  });
  it("attack-3 F4: a transaction that succeeded but touches no account of the mint (the owner's own deposit, say) exists and is not attributable, never verified", () => {
    const deposit = tx(
      recorded({ keys: [OWNER, TREASURY, SYSTEM], pre: [10_000_000, 0, 1], post: [4_995_000, 5_000_000, 1] }),
    );
    expect(checkSwap(deposit, { failureReported: false, mint: MINT })).toEqual({
      mark: 'attributed',
      chain: `exists, not attributable: succeeded, slot 301234567, but it touches no account or token balance of ${MINT}`,
    });
    // Another mint among its accounts is no better.
    expect(
      checkSwap(
        tx(recorded({ keys: [TREASURY, STRANGER, OTHER_MINT, SYSTEM], pre: [10, 0, 1, 1], post: [5, 0, 1, 1] })),
        { failureReported: false, mint: MINT },
      ).mark,
    ).toBe('attributed');
    // A mint loaded through an address table counts as among its accounts.
    const loaded = recorded({
      keys: [TREASURY, STRANGER, SYSTEM],
      pre: [10, 0, 1, 1],
      post: [5, 0, 1, 1],
      version: 0,
      loaded: { writable: [], readonly: [MINT] },
    });
    expect(checkSwap(tx(loaded), { failureReported: false, mint: MINT }).mark).toBe('verified');
  });
  it('nothing spent is proven only when the chain says the blockhash expired, and knew it before signing', () => {
    // The service's lastValidBlockHeight is only named: the chain's answer decides.
    expect(depositAbsence(true, true, 1000)).toMatchObject({ proven: false, mark: 'pending' });
    expect(depositAbsence(true, true, 1000).chain).toContain('its blockhash is still valid');
    expect(depositAbsence(false, false, 1000)).toMatchObject({ proven: false, mark: 'pending' });
    expect(depositAbsence(false, false, 1000).chain).toContain(
      "the RPC did not know the deposit's blockhash before signing",
    );
    expect(depositAbsence(false, true, 1000)).toMatchObject({ proven: true, mark: 'verified' });
  });
});

describe('results of an unknown shape are never taken as proof', () => {
  it('balances that do not match the accounts, or a missing meta, throw', () => {
    expect(() => tx({ ...recorded({ keys: [OWNER, SYSTEM], pre: [1], post: [1] }) })).toThrow(/balances do not match/);
    const noMeta = { ...recorded({ keys: [OWNER, SYSTEM], pre: [1, 1], post: [1, 1] }), meta: null };
    expect(() => tx(noMeta)).toThrow(/unknown shape/);
    const r = recorded({ keys: [TREASURY, OWNER, SYSTEM], pre: [1, 1, 1], post: [1, 1, 1] });
    const noHeader = {
      ...r,
      transaction: { ...r.transaction, message: { ...r.transaction.message, header: undefined } },
    };
    expect(() => tx(noHeader)).toThrow(/unknown shape/);
  });
});

describe('a failed swap', () => {
  const failedSwap = (keys = [TREASURY, STRANGER, MINT, SYSTEM]) =>
    tx(recorded({ keys, pre: [10_000, 0, 1, 1], post: [5_000, 0, 1, 1], err: { InstructionError: [0, 'Custom'] } }));
  it('contradicts a service that calls the trade a success, and matches one that reports it failed', () => {
    expect(checkSwap(failedSwap(), { failureReported: false, mint: MINT }).mark).toBe('contradicts');
    expect(checkSwap(failedSwap(), { failureReported: true, mint: MINT })).toEqual({
      mark: 'verified',
      chain: 'failed on chain, as the service reports, slot 301234567',
    });
    // Any failed transaction is no failed swap of this token.
    expect(
      checkSwap(failedSwap([TREASURY, STRANGER, OTHER_MINT, SYSTEM]), { failureReported: true, mint: MINT }).chain,
    ).toMatch(
      /^exists, not attributable: failed on chain, as the service reports, slot 301234567, but it touches no account/,
    );
  });
});

describe('token balances (meta.pre/postTokenBalances): what a swap delivered', () => {
  const MINT = 'F9EMmE5iFqHwzksCWVoGG21SuqD9iFXtkRdKG9ENeRwo';
  const balance = (accountIndex: number, amount: string, owner: string | null = STRANGER) => ({
    accountIndex,
    mint: MINT,
    ...(owner ? { owner } : {}),
    programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    uiTokenAmount: { amount, decimals: 6, uiAmount: null, uiAmountString: '' },
  });
  const swap = (pre: unknown, post: unknown) => {
    const r = recorded({ keys: [TREASURY, OWNER, STRANGER, SYSTEM], pre: [1, 1, 1, 1], post: [1, 1, 1, 1] }) as any;
    r.meta.preTokenBalances = pre;
    r.meta.postTokenBalances = post;
    return tx(r)!;
  };
  it('the most one token account gained, resolved by accountIndex (with its owner), exact past 2^53', () => {
    const t = swap(
      [balance(1, '9007199254740993'), balance(2, '5')],
      [balance(1, '7'), balance(2, '9007199254741000')],
    );
    expect(tokenGain(t, MINT)).toEqual({ amount: 9007199254740995n, account: STRANGER, owner: STRANGER, decimals: 6 });
    // An account absent before held none.
    expect(tokenGain(swap([], [balance(1, '42', null)]), MINT)).toEqual({
      amount: 42n,
      account: OWNER,
      owner: null,
      decimals: 6,
    });
    expect(tokenGain(t, 'So11111111111111111111111111111111111111112')).toEqual({
      amount: 0n,
      account: null,
      owner: null,
      decimals: null,
    });
    // Decimals the chain does not state as a whole number from 0 to 255 are none.
    const odd = (decimals: unknown) => ({ ...balance(1, '42'), uiTokenAmount: { amount: '42', decimals } });
    for (const d of [256, -1, 1.5, '6', undefined]) expect(tokenGain(swap([], [odd(d)]), MINT)?.decimals).toBeNull();
    expect(tokenGain(swap([], [odd(255)]), MINT)?.decimals).toBe(255);
  });
  it('attack-3 F4: a swap whose token balances move the mint touches it (the mint need not be among its accounts); balances of the mint that do not move do not, unless the swap failed as reported', () => {
    const asSwap = (t: ReturnType<typeof swap>, failureReported = false) =>
      checkSwap(t, { failureReported, mint: MINT }).mark;
    expect(asSwap(swap([balance(1, '10')], [balance(1, '9')]))).toBe('verified');
    expect(asSwap(swap([], [balance(2, '1')]))).toBe('verified');
    expect(asSwap(swap([balance(1, '10')], [balance(1, '10')]))).toBe('attributed');
    expect(asSwap(swap([], []))).toBe('attributed');
    const failed = (pre: unknown[], post: unknown[]) => {
      const r = recorded({
        keys: [TREASURY, OWNER, STRANGER, SYSTEM],
        pre: [1, 1, 1, 1],
        post: [1, 1, 1, 1],
        err: { InstructionError: [0, 'Custom'] },
      }) as any;
      [r.meta.preTokenBalances, r.meta.postTokenBalances] = [pre, post];
      return tx(r)!;
    };
    expect(asSwap(failed([balance(1, '10')], [balance(1, '10')]), true)).toBe('verified');
    expect(asSwap(failed([], []), true)).toBe('attributed');
  });
  it('absent or of another shape, nothing is read from them: the chain does not show it', () => {
    for (const [pre, post] of [
      [undefined, undefined],
      [[], null],
      [[balance(9, '1')], []],
      [[{ ...balance(1, '1'), uiTokenAmount: { amount: 1 } }], []],
    ]) {
      expect(swap(pre, post).tokenBalances, JSON.stringify(pre)).toBeNull();
      expect(tokenGain(swap(pre, post), MINT)).toBeNull();
    }
  });
});
