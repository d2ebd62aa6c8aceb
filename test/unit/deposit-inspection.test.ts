import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FEE_LAMPORTS } from '../../src/domain/defaults.js';
import { COMPUTE_BUDGET_PROGRAM_ID, inspectDeposit, type DepositInspectionInput } from '../../src/wallet/deposit-inspection.js';
import {
  AMOUNT,
  MINT,
  base64Of,
  budget,
  build,
  bytesOf,
  goodDeposit,
  intent,
  lookupTable,
  owner,
  stranger,
  transfer,
  treasury,
} from './tx-fixtures.js';

const TOKEN_PROGRAM = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const COMPUTE_BUDGET = new PublicKey(COMPUTE_BUDGET_PROGRAM_ID);

function inspect(transactionBase64: string, overrides: Partial<DepositInspectionInput> = {}) {
  return inspectDeposit({
    transactionBase64,
    owner: owner.publicKey.toBase58(),
    intent: intent(),
    requestedMint: MINT,
    typedLamports: AMOUNT,
    maxFeeLamports: DEFAULT_MAX_FEE_LAMPORTS,
    treasury: treasury.toBase58(),
    ...overrides,
  });
}

function expectRefused(result: ReturnType<typeof inspect>, pattern: RegExp) {
  expect(result.ok).toBe(false);
  expect(result.problems.some((p) => pattern.test(p)), `problems: ${JSON.stringify(result.problems)}`).toBe(true);
  for (const p of result.problems) expect(p).not.toContain('\n');
}

function budgetIx(bytes: number[], keys: TransactionInstruction['keys'] = []) {
  return new TransactionInstruction({ programId: COMPUTE_BUDGET, keys, data: Buffer.from(bytes) });
}

describe('inspectDeposit: a good deposit', () => {
  it.each([['legacy' as const], [0 as const]])('passes as %s with the facts', (version) => {
    const result = inspect(goodDeposit(version));
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.facts).toMatchObject({
      feePayer: owner.publicKey.toBase58(),
      signers: [owner.publicKey.toBase58()],
      recipient: treasury.toBase58(),
      transferLamports: AMOUNT,
      computeUnitLimit: 200_000n,
      computeUnitPriceMicroLamports: 1_000n,
      // 5,000 + ceil(1,000 × 200,000 / 1,000,000) = 5,200
      networkFeeLamports: 5_200n,
      version,
      treasuryCheck: 'pinned',
    });
  });

  it('passes with no compute budget instructions (fee = one signature)', () => {
    const result = inspect(build([transfer()]));
    expect(result.ok).toBe(true);
    expect(result.facts!.networkFeeLamports).toBe(5_000n);
    expect(result.facts!.computeUnitLimit).toBe(200_000n);
  });

  it('trust on first use: no pinned treasury passes and says so', () => {
    const result = inspect(goodDeposit(), { treasury: null });
    expect(result.ok).toBe(true);
    expect(result.facts!.treasuryCheck).toBe('first-use');
    expect(result.facts!.recipient).toBe(treasury.toBase58());
  });
});

describe('inspectDeposit: SOL movement', () => {
  it('refuses an extra transfer', () => {
    expectRefused(inspect(build([...budget(), transfer(), transfer(1n, stranger.publicKey)])), /second System transfer/);
  });
  it('refuses a transfer of more than the intent', () => {
    expectRefused(inspect(build([transfer(AMOUNT + 1n)])), /moves 0\.100000001 SOL.*not the intent's 0\.1 SOL/);
  });
  it('refuses a transfer of less than the intent', () => {
    expectRefused(inspect(build([transfer(AMOUNT - 1n)])), /not the intent's/);
  });
  it('refuses an intent amount other than the one typed, even when the transfer matches it', () => {
    const result = inspect(build([transfer(2n * AMOUNT)]), { intent: intent({ amountLamports: (2n * AMOUNT).toString() }) });
    expectRefused(result, /intent amount 0\.2 SOL .* is not the requested 0\.1 SOL/);
    expectRefused(result, /more than the 0\.1 SOL you asked for/);
  });
  it('refuses a malformed intent amount', () => {
    expectRefused(inspect(goodDeposit(), { intent: intent({ amountLamports: '1e8' }) }), /not a whole number/);
  });
  it('refuses an intent for another mint', () => {
    expectRefused(inspect(goodDeposit(), { intent: intent({ outputMint: stranger.publicKey.toBase58() }) }), /not the requested mint/);
  });
  it('refuses a transfer to someone other than the pinned treasury, saying how to re-pin', () => {
    const result = inspect(build([transfer(AMOUNT, stranger.publicKey)]));
    expectRefused(result, /not the pinned treasury/);
    expectRefused(result, /accept-treasury <address>`, or --treasury/);
  });
  it('compares the treasury as a whole 32-byte key: a look-alike sharing its first characters is refused', () => {
    const bytes = treasury.toBytes();
    bytes[31] ^= 1;
    const lookAlike = new PublicKey(bytes);
    expect(lookAlike.toBase58().slice(0, 16)).toBe(treasury.toBase58().slice(0, 16));
    expectRefused(inspect(build([transfer(AMOUNT, lookAlike)])), /not the pinned treasury/);
    expect(inspect(goodDeposit()).problems).toEqual([]);
  });
  it('refuses a transfer back to the owner', () => {
    expectRefused(inspect(build([transfer(AMOUNT, owner.publicKey)]), { treasury: null }), /your own wallet/);
  });
  it('refuses a deposit with no transfer', () => {
    expectRefused(inspect(build([...budget()])), /no System transfer/);
  });
  it('refuses a transfer from another account', () => {
    const result = inspect(build([transfer(AMOUNT, treasury, stranger.publicKey)]));
    expectRefused(result, /paid from .*not your wallet/);
    expectRefused(result, /needs 2 signatures/);
  });
  it('refuses a read-only recipient', () => {
    const ix = transfer();
    ix.keys[1]!.isWritable = false;
    expectRefused(inspect(build([ix])), /recipient .* is not writable/);
  });
  it('refuses a transfer with extra accounts or extra data', () => {
    const extraAccount = transfer();
    extraAccount.keys.push({ pubkey: stranger.publicKey, isSigner: false, isWritable: true });
    expectRefused(inspect(build([extraAccount])), /malformed System transfer/);
    const extraData = transfer();
    extraData.data = Buffer.concat([extraData.data, Buffer.from([0])]);
    expectRefused(inspect(build([extraData])), /malformed System transfer/);
  });
});

describe('inspectDeposit: other instructions', () => {
  it('refuses an SPL Token approve', () => {
    const approve = new TransactionInstruction({
      programId: TOKEN_PROGRAM,
      keys: [
        { pubkey: Keypair.generate().publicKey, isSigner: false, isWritable: true },
        { pubkey: stranger.publicKey, isSigner: false, isWritable: false },
        { pubkey: owner.publicKey, isSigner: true, isWritable: false },
      ],
      data: Buffer.from([4, 255, 255, 255, 255, 255, 255, 255, 255]),
    });
    expectRefused(inspect(build([...budget(), transfer(), approve])), /calls SPL Token/);
  });
  it('refuses System Assign', () => {
    const assign = SystemProgram.assign({ accountPubkey: owner.publicKey, programId: stranger.publicKey });
    expectRefused(inspect(build([transfer(), assign])), /System Program Assign/);
  });
  it('refuses TransferWithSeed', () => {
    const base = owner.publicKey;
    const seeded = SystemProgram.transfer({
      fromPubkey: stranger.publicKey,
      basePubkey: base,
      toPubkey: treasury,
      lamports: AMOUNT,
      seed: 'x',
      programId: SystemProgram.programId,
    });
    expectRefused(inspect(build([transfer(), seeded])), /TransferWithSeed/);
  });
  it('refuses CreateAccount', () => {
    const create = SystemProgram.createAccount({
      fromPubkey: owner.publicKey,
      newAccountPubkey: stranger.publicKey,
      lamports: 1,
      space: 0,
      programId: SystemProgram.programId,
    });
    expectRefused(inspect(build([transfer(), create])), /CreateAccount/);
  });
  it('refuses a durable nonce advance', () => {
    const advance = SystemProgram.nonceAdvance({ noncePubkey: stranger.publicKey, authorizedPubkey: owner.publicKey });
    expectRefused(inspect(build([advance, transfer()])), /AdvanceNonceAccount/);
  });
  it('refuses address lookup tables', () => {
    const result = inspect(build([transfer()], { lookupTables: [lookupTable([treasury])] }));
    expectRefused(result, /address lookup table/);
    expectRefused(result, /no System transfer|not listed/);
  });
  it('refuses duplicate compute budget instructions', () => {
    expectRefused(inspect(build([...budget(), ComputeBudgetProgram.setComputeUnitLimit({ units: 1 }), transfer()])), /repeats Compute Budget SetComputeUnitLimit/);
    expectRefused(inspect(build([...budget(), ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1 }), transfer()])), /repeats Compute Budget SetComputeUnitPrice/);
  });
  it('refuses malformed, deprecated and unknown compute budget instructions', () => {
    expectRefused(inspect(build([budgetIx([2, 0, 0, 0]), transfer()])), /malformed Compute Budget SetComputeUnitLimit/);
    expectRefused(inspect(build([budgetIx([3, 1, 0, 0, 0, 0, 0, 0, 0, 0]), transfer()])), /malformed Compute Budget SetComputeUnitPrice/);
    expectRefused(inspect(build([budgetIx([0, 1, 0, 0, 0, 1, 0, 0, 0]), transfer()])), /unknown or deprecated kind 0/);
    expectRefused(inspect(build([budgetIx([9]), transfer()])), /unknown or deprecated kind 9/);
    expectRefused(inspect(build([budgetIx([]), transfer()])), /unknown or deprecated/);
    expectRefused(
      inspect(build([budgetIx([2, 0, 0, 1, 0], [{ pubkey: stranger.publicKey, isSigner: false, isWritable: true }]), transfer()])),
      /malformed Compute Budget/,
    );
  });
  it('allows heap frame and loaded-accounts-size instructions', () => {
    const ok = inspect(build([budgetIx([1, 0, 0, 1, 0]), budgetIx([4, 0, 0, 1, 0]), ...budget(), transfer()]));
    expect(ok.problems).toEqual([]);
  });
});

describe('inspectDeposit: fees', () => {
  it('refuses a huge compute-unit price', () => {
    const result = inspect(build([...budget(1_400_000, 1_000_000_000n), transfer()]));
    expectRefused(result, /network fee would be 1,400,005,000 lamports, above the limit of 100,000/);
    expect(result.facts!.networkFeeLamports).toBe(1_400_005_000n);
  });
  it('assumes 200,000 units per instruction when no limit is set', () => {
    const result = inspect(build([ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 500_000n }), transfer()]));
    // 5,000 + 500,000 × 200,000 / 1,000,000 = 105,000
    expect(result.facts!.computeUnitLimit).toBe(200_000n);
    expect(result.facts!.networkFeeLamports).toBe(105_000n);
    expectRefused(result, /network fee/);
    expect(inspect(build([ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 500_000n }), transfer()]), { maxFeeLamports: 105_000n }).ok).toBe(true);
  });
  it('rounds the priority fee up', () => {
    const result = inspect(build([...budget(1, 3n), transfer()]));
    expect(result.facts!.networkFeeLamports).toBe(5_001n);
    expect(inspect(build([...budget(1, 3n), transfer()]), { maxFeeLamports: 5_000n }).ok).toBe(false);
    expect(inspect(build([...budget(1, 3n), transfer()]), { maxFeeLamports: 5_001n }).ok).toBe(true);
  });
  it('DEFAULT_MAX_FEE_LAMPORTS is 0.0001 SOL', () => expect(DEFAULT_MAX_FEE_LAMPORTS).toBe(100_000n));
});

describe('inspectDeposit: signers', () => {
  it('refuses a second signer', () => {
    const cosigned = transfer();
    const withSigner = new TransactionInstruction({
      programId: SystemProgram.programId,
      keys: [...cosigned.keys, { pubkey: stranger.publicKey, isSigner: true, isWritable: false }],
      data: cosigned.data,
    });
    expectRefused(inspect(build([withSigner])), /needs 2 signatures/);
  });
  it('refuses a fee payer that is not the owner', () => {
    const result = inspect(build([transfer()], { payer: stranger.publicKey }));
    expectRefused(result, /fee payer is .*not your wallet/);
  });
  it('refuses a filled signature slot', () => {
    const bytes = bytesOf(goodDeposit());
    bytes[1] = 7;
    expectRefused(inspect(base64Of(bytes)), /already filled/);
  });
  it('refuses a signature count that does not match the header', () => {
    const bytes = bytesOf(goodDeposit());
    const noSlots = new Uint8Array([0, ...bytes.slice(1 + 64)]);
    expectRefused(inspect(base64Of(noSlots)), /0 signature slots for 1/);
  });
  it('refuses a wrong owner', () => {
    expectRefused(inspect(goodDeposit(), { owner: stranger.publicKey.toBase58() }), /not your wallet/);
  });
});

describe('inspectDeposit: malformed input', () => {
  it.each([[''], ['not base64!'], ['AAAA'], ['aGVsbG8gd29ybGQ='], [' ' + 'AAAA']])('refuses %j', (text) => {
    const result = inspect(text);
    expectRefused(result, /malformed/);
    expect(result.facts).toBeNull();
  });
  it('refuses trailing bytes', () => {
    expectRefused(inspect(base64Of(new Uint8Array([...bytesOf(goodDeposit()), 0, 0]))), /malformed: 2 unexpected trailing bytes/);
  });
  it('refuses a duplicated account key', () => {
    const bytes = bytesOf(build([transfer()], { version: 'legacy' }));
    // legacy: [1 sig count][64 sig][3 header][1 key count][keys…]; copy key 0 over key 1 (the treasury)
    const keys = 1 + 64 + 3 + 1;
    bytes.set(bytes.slice(keys, keys + 32), keys + 32);
    expectRefused(inspect(base64Of(bytes)), /more than once/);
  });
  it('refuses an instruction index out of range', () => {
    const bytes = bytesOf(build([transfer()], { version: 'legacy' }));
    // the last instruction: [program index][1 account count 2][from][to][data len 12][12 bytes]
    const toIndexAt = bytes.length - 12 - 1 - 1;
    bytes[toIndexAt] = 200;
    expectRefused(inspect(base64Of(bytes)), /not listed/);
  });
});
