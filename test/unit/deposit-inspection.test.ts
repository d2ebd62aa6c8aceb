import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FEE_LAMPORTS } from '../../src/domain/defaults.js';
import {
  COMPUTE_BUDGET_PROGRAM_ID,
  inspectDeposit,
  type DepositInspectionInput,
} from '../../src/wallet/deposit-inspection.js';
import { ASSOCIATED_TOKEN_PROGRAM, memoInstruction } from '../helpers/deposit-transactions.js';
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
  expect(
    result.problems.some((p) => pattern.test(p)),
    `problems: ${JSON.stringify(result.problems)}`,
  ).toBe(true);
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
    // The runtime's default for one builtin (System) instruction.
    expect(result.facts!.computeUnitLimit).toBe(3_000n);
    expect(result.facts!.memo).toBeNull();
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
    expectRefused(
      inspect(build([...budget(), transfer(), transfer(1n, stranger.publicKey)])),
      /second System transfer/,
    );
  });
  it('refuses a transfer of more than the intent', () => {
    expectRefused(inspect(build([transfer(AMOUNT + 1n)])), /moves 0\.100000001 SOL.*not the intent's 0\.1 SOL/);
  });
  it('refuses a transfer of less than the intent', () => {
    expectRefused(inspect(build([transfer(AMOUNT - 1n)])), /not the intent's/);
  });
  it('compares amounts as bigints: past 2^53 a transfer 1 lamport off the intent (one JavaScript number) is refused', () => {
    const big = 2n ** 53n + 1n;
    expect(Number(big)).toBe(Number(big - 1n));
    const asked = {
      intent: intent({ amountLamports: big.toString() }),
      typedLamports: big,
      maxFeeLamports: DEFAULT_MAX_FEE_LAMPORTS,
    };
    expect(inspect(build([transfer(big)]), asked).problems).toEqual([]);
    expectRefused(
      inspect(build([transfer(big - 1n)]), asked),
      /moves .*\(9007199254740992 lamports\), not the intent's .*\(9007199254740993 lamports\)/,
    );
    expectRefused(inspect(build([transfer(big + 1n)]), asked), /\(9007199254740994 lamports\), not the intent's/);
    // The intent 1 lamport off what was typed, the transfer matching the intent.
    const offByOne = inspect(build([transfer(big)]), { ...asked, typedLamports: big - 1n });
    expectRefused(
      offByOne,
      /intent amount .*\(9007199254740993 lamports\) is not the requested .*\(9007199254740992 lamports\)/,
    );
    expectRefused(offByOne, /more than the .* SOL you asked for/);
  });
  it('refuses an intent amount other than the one typed, even when the transfer matches it', () => {
    const result = inspect(build([transfer(2n * AMOUNT)]), {
      intent: intent({ amountLamports: (2n * AMOUNT).toString() }),
    });
    expectRefused(result, /intent amount 0\.2 SOL .* is not the requested 0\.1 SOL/);
    expectRefused(result, /more than the 0\.1 SOL you asked for/);
  });
  it('refuses a malformed intent amount', () => {
    expectRefused(inspect(goodDeposit(), { intent: intent({ amountLamports: '1e8' }) }), /not a whole number/);
  });
  it('refuses an intent for another mint', () => {
    expectRefused(
      inspect(goodDeposit(), { intent: intent({ outputMint: stranger.publicKey.toBase58() }) }),
      /not the requested mint/,
    );
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
    const result = inspect(build([transfer(), create]));
    expectRefused(
      result,
      /^instruction 2 creates an account \(System CreateAccount\): its rent would be SOL of yours beyond the amount and the fee shown; tell the operator of the service to create the accounts it needs itself, outside your deposit$/,
    );
    // The new account signs too, which is said on its own line.
    expect(result.problems).toHaveLength(2);
  });
  it('refuses a durable nonce advance', () => {
    const advance = SystemProgram.nonceAdvance({ noncePubkey: stranger.publicKey, authorizedPubkey: owner.publicKey });
    const result = inspect(build([advance, transfer()]));
    expectRefused(
      result,
      /^instruction 1 advances a durable nonce \(System AdvanceNonceAccount\): a deposit on a nonce never expires.*tell the operator of the service to use a recent blockhash instead$/,
    );
    expect(result.problems).toHaveLength(1);
  });
  it('refuses address lookup tables with one true line: the recipient named through the table rests on an RPC', () => {
    const table = lookupTable([treasury]);
    const result = inspect(build([...budget(), transfer()], { lookupTables: [table] }));
    expect(result.ok).toBe(false);
    // Not "no transfer", not "an account not listed": the transfer is there, its recipient in the table.
    expect(result.problems).toEqual([
      `the transaction names 1 account through 1 address lookup table ${table.key.toBase58()}: they would rest on what an RPC says the table holds, not on the bytes you sign, so the recipient cannot be checked; tell the operator of the service to list every account in the deposit itself, with no lookup table`,
    ]);
    expect(result.facts!.recipient).toBeNull();
    // An index past the table's accounts too is still "not listed".
    const bytes = bytesOf(build([transfer()], { lookupTables: [table] }));
    const at = bytes.length - 1 - 1 - 1 - 32 - 1 - 12 - 1 - 1; // the transfer's "to" index, before data and the lookup
    expect(bytes[at]).toBe(2);
    bytes[at] = 3;
    expectRefused(inspect(base64Of(bytes)), /instruction 1 refers to an account that is not listed/);
  });
  it('refuses an associated token account create, idempotent or not, saying what to ask of the service', () => {
    for (const [data, name] of [
      [[1], 'CreateIdempotent'],
      [[0], 'Create'],
      [[], 'Create'],
    ] as const) {
      const create = new TransactionInstruction({
        programId: ASSOCIATED_TOKEN_PROGRAM,
        keys: [
          owner.publicKey,
          stranger.publicKey,
          owner.publicKey,
          new PublicKey(MINT),
          SystemProgram.programId,
          TOKEN_PROGRAM,
        ].map((pubkey, i) => ({ pubkey, isSigner: i === 0, isWritable: i < 2 })),
        data: Buffer.from(data),
      });
      const result = inspect(build([...budget(), create, transfer()]));
      expect(result.problems).toEqual([
        `instruction 3 creates a token account (Associated Token Account ${name}): its rent would be SOL of yours beyond the amount and the fee shown; tell the operator of the service to create the accounts it needs itself, outside your deposit`,
      ]);
    }
    const recover = new TransactionInstruction({
      programId: ASSOCIATED_TOKEN_PROGRAM,
      keys: [],
      data: Buffer.from([2]),
    });
    expectRefused(inspect(build([recover, transfer()])), /calls Associated Token Account/);
  });
  it('refuses duplicate compute budget instructions', () => {
    expectRefused(
      inspect(build([...budget(), ComputeBudgetProgram.setComputeUnitLimit({ units: 1 }), transfer()])),
      /repeats Compute Budget SetComputeUnitLimit/,
    );
    expectRefused(
      inspect(build([...budget(), ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1 }), transfer()])),
      /repeats Compute Budget SetComputeUnitPrice/,
    );
  });
  it('refuses malformed, deprecated and unknown compute budget instructions', () => {
    expectRefused(inspect(build([budgetIx([2, 0, 0, 0]), transfer()])), /malformed Compute Budget SetComputeUnitLimit/);
    expectRefused(
      inspect(build([budgetIx([3, 1, 0, 0, 0, 0, 0, 0, 0, 0]), transfer()])),
      /malformed Compute Budget SetComputeUnitPrice/,
    );
    expectRefused(inspect(build([budgetIx([0, 1, 0, 0, 0, 1, 0, 0, 0]), transfer()])), /unknown or deprecated kind 0/);
    expectRefused(inspect(build([budgetIx([9]), transfer()])), /unknown or deprecated kind 9/);
    expectRefused(inspect(build([budgetIx([]), transfer()])), /unknown or deprecated/);
    expectRefused(
      inspect(
        build([
          budgetIx([2, 0, 0, 1, 0], [{ pubkey: stranger.publicKey, isSigner: false, isWritable: true }]),
          transfer(),
        ]),
      ),
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
  it('with no limit set, reckons the runtime default: 3,000 units per builtin instruction, 200,000 per other', () => {
    const priced = (microLamports: bigint, ...more: TransactionInstruction[]) =>
      build([ComputeBudgetProgram.setComputeUnitPrice({ microLamports }), transfer(), ...more]);
    // The issue's case: Compute Budget + System = 6,000 units; 5,000 + 1,000,000 × 6,000 / 10^6 = 11,000 (what the runtime charged).
    const result = inspect(priced(1_000_000n));
    expect(result.facts!.computeUnitLimit).toBe(6_000n);
    expect(result.facts!.networkFeeLamports).toBe(11_000n);
    expect(result.problems).toEqual([]);
    // A memo is a BPF program: 200,000 more units.
    const memo = inspect(priced(1_000_000n, memoInstruction('order 42')));
    expect(memo.facts!.computeUnitLimit).toBe(206_000n);
    expect(memo.facts!.networkFeeLamports).toBe(211_000n);
    expectRefused(memo, /network fee would be 211,000 lamports, above the limit of 100,000/);
    expect(inspect(priced(1_000_000n, memoInstruction('order 42')), { maxFeeLamports: 211_000n }).ok).toBe(true);
    expect(inspect(priced(1_000_000n, memoInstruction('order 42')), { maxFeeLamports: 210_999n }).ok).toBe(false);
    // Every instruction counts, the limit capped at 1,400,000: eight token instructions reckon 1,400,000, not 1,606,000.
    const token = new TransactionInstruction({ programId: TOKEN_PROGRAM, keys: [], data: Buffer.from([9]) });
    expect(inspect(priced(1n, ...Array.from({ length: 8 }, () => token))).facts!.computeUnitLimit).toBe(1_400_000n);
    expect(inspect(priced(1n, ...Array.from({ length: 6 }, () => token))).facts!.computeUnitLimit).toBe(1_206_000n);
  });
  it('caps a requested limit at 1,400,000 units, as the runtime does', () => {
    const at = inspect(build([...budget(1_400_000, 1_000n), transfer()]), { maxFeeLamports: 10n ** 9n });
    const past = inspect(build([...budget(1_400_001, 1_000n), transfer()]), { maxFeeLamports: 10n ** 9n });
    expect(at.facts!.computeUnitLimit).toBe(1_400_000n);
    expect(past.facts!.computeUnitLimit).toBe(1_400_000n);
    expect(past.facts!.networkFeeLamports).toBe(5_000n + 1_400n);
    expect(
      inspect(build([...budget(1_399_999, 1_000_000n), transfer()]), { maxFeeLamports: 10n ** 9n }).facts!
        .networkFeeLamports,
    ).toBe(5_000n + 1_399_999n);
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
  it('refuses a service-paid fee (the service the fee payer, your wallet a second signer) with its own reason', () => {
    const result = inspect(build([transfer()], { payer: stranger.publicKey }));
    expect(result.problems).toEqual([
      `the service pays the network fee (${stranger.publicKey.toBase58()} is the fee payer, your wallet a second signer): the deposit's id would be the service's signature, unknown before it adds it, so the tool could not prove the deposit never landed; tell the operator of the service to make your wallet the fee payer (the fee is shown and capped before you sign)`,
    ]);
  });
  it('refuses a fee payer that is not the owner where your wallet signs nothing', () => {
    const result = inspect(build([transfer(AMOUNT, treasury, stranger.publicKey)], { payer: stranger.publicKey }));
    expectRefused(result, /^the fee payer is .*, not your wallet/);
    expect(result.problems.some((p) => /service pays/.test(p))).toBe(false);
  });
  it('refuses a fee payer marked read-only, saying so', () => {
    const bytes = bytesOf(build([...budget(), transfer()], { version: 'legacy' }));
    // legacy: [1 sig count][64 sig][numRequiredSignatures][numReadonlySignedAccounts]…
    expect(bytes[1 + 64 + 1]).toBe(0);
    bytes[1 + 64 + 1] = 1;
    const result = inspect(base64Of(bytes));
    expectRefused(result, /^the fee payer is marked read-only$/);
  });
  it('refuses more signature slots than required signers', () => {
    const bytes = bytesOf(goodDeposit('legacy'));
    const twoSlots = new Uint8Array([2, ...new Uint8Array(64), ...bytes.slice(1)]);
    const result = inspect(base64Of(twoSlots));
    expect(result.problems).toEqual(['the transaction carries 2 signature slots for 1 required signers']);
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
    expectRefused(
      inspect(base64Of(new Uint8Array([...bytesOf(goodDeposit()), 0, 0]))),
      /malformed: 2 unexpected trailing bytes/,
    );
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
