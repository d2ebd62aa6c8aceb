// Deposits on the Solana runtime itself (LiteSVM: Agave's SVM packaged for npm, in-process, no
// network). Each honest shape, built by the sandbox or by a second library (@solana/kit, as a
// service we never met could build it), is inspected, signed by trader's own signing code and
// executed: the signature verifies, the fee the runtime takes is the one the inspection reckoned
// (and the review shows), and the treasury gains exactly the amount. Each hostile shape is
// refused by the inspection, so it never reaches a signature, let alone the runtime.
import { Keypair } from '@solana/web3.js';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  lamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  setTransactionMessageLifetimeUsingDurableNonce,
  type Address,
  type Instruction,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FEE_LAMPORTS } from '../../src/domain/defaults.js';
import { buildDepositTransaction } from '../../src/sandbox/deposit-tx.js';
import { inspectDeposit } from '../../src/wallet/deposit-inspection.js';
import { signDepositTransaction } from '../../src/wallet/signatures.js';
import { AMOUNT, MINT, intent } from './tx-fixtures.js';

const owner = Keypair.generate();
const OWNER = address(owner.publicKey.toBase58());
const TREASURY = address(Keypair.generate().publicKey.toBase58());
const STRANGER = address(Keypair.generate().publicKey.toBase58());
const SYSTEM = address('11111111111111111111111111111111');
const COMPUTE_BUDGET = address('ComputeBudget111111111111111111111111111111');
const MEMO_V1 = address('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');
const MEMO_V3 = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const ATA = address('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
const TOKEN = address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};
const u64 = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n, true);
  return b;
};
const bytes = (...parts: Array<number[] | Uint8Array>) => Uint8Array.from(parts.flatMap((p) => [...p]));

// The instructions as a service would write them with @solana/kit, their layouts by hand (the
// program clients are not dependencies): System transfer (2), Compute Budget 2, 3, 4, a memo.
const transfer = (lamportsOut: bigint = AMOUNT, to: Address = TREASURY, from: Address = OWNER): Instruction => ({
  programAddress: SYSTEM,
  accounts: [
    { address: from, role: AccountRole.WRITABLE_SIGNER },
    { address: to, role: AccountRole.WRITABLE },
  ],
  data: bytes(u32(2), u64(lamportsOut)),
});
const unitLimit = (units: number): Instruction => ({ programAddress: COMPUTE_BUDGET, data: bytes([2], u32(units)) });
const unitPrice = (microLamports: bigint): Instruction => ({
  programAddress: COMPUTE_BUDGET,
  data: bytes([3], u64(microLamports)),
});
const loadedAccountsLimit = (size: number): Instruction => ({
  programAddress: COMPUTE_BUDGET,
  data: bytes([4], u32(size)),
});
const memo = (text: string, program: Address = MEMO_V3, signer: Address | null = null): Instruction => ({
  programAddress: program,
  accounts: signer ? [{ address: signer, role: AccountRole.READONLY_SIGNER }] : [],
  data: new TextEncoder().encode(text),
});

type Lifetime = { blockhash: string } | { nonce: string; nonceAccount: Address };

/** The unsigned wire transaction, base64, as @solana/kit writes it (null signatures as zeros). */
function kitDeposit(
  instructions: Instruction[],
  lifetime: Lifetime,
  opts: { version?: 0 | 'legacy'; payer?: Address; tables?: Record<Address, Address[]> } = {},
): string {
  let message = pipe(
    createTransactionMessage({ version: opts.version ?? 0 }),
    (m) => setTransactionMessageFeePayer(opts.payer ?? OWNER, m),
    (m) =>
      'nonce' in lifetime
        ? setTransactionMessageLifetimeUsingDurableNonce(
            {
              nonce: lifetime.nonce as never,
              nonceAccountAddress: lifetime.nonceAccount,
              nonceAuthorityAddress: OWNER,
            },
            m,
          )
        : setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: lifetime.blockhash as never, lastValidBlockHeight: 1_000n },
            m,
          ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  if (opts.tables)
    message = compressTransactionMessageUsingAddressLookupTables(message as never, opts.tables as never) as never;
  return getBase64EncodedWireTransaction(compileTransaction(message as never));
}

function inspect(transactionBase64: string, amount: bigint = AMOUNT) {
  return inspectDeposit({
    transactionBase64,
    owner: OWNER,
    intent: intent({ amountLamports: amount.toString() }),
    requestedMint: MINT,
    typedLamports: amount,
    maxFeeLamports: DEFAULT_MAX_FEE_LAMPORTS,
    treasury: TREASURY,
  });
}

/** A fresh runtime with the owner funded (10 SOL); the Memo programs are among its default programs. */
function runtime(): LiteSVM {
  const svm = new LiteSVM();
  svm.airdrop(OWNER, lamports(10_000_000_000n));
  return svm;
}

/** Runs a signed deposit: what the owner paid beyond the amount (the fee) and what the treasury gained. */
function execute(svm: LiteSVM, signedBase64: string, amount: bigint = AMOUNT): { fee: bigint; treasuryGain: bigint } {
  const balance = (a: Address) => svm.getBalance(a) ?? 0n;
  const [ownerBefore, treasuryBefore] = [balance(OWNER), balance(TREASURY)];
  const result = svm.sendTransaction(getTransactionDecoder().decode(Buffer.from(signedBase64, 'base64')));
  if (result instanceof FailedTransactionMetadata)
    throw new Error(`the runtime refused the deposit: ${result.toString()}`);
  return { fee: ownerBefore - balance(OWNER) - amount, treasuryGain: balance(TREASURY) - treasuryBefore };
}

/** Inspect, sign with trader's signing code, run: the inspection passes and the runtime agrees with it. */
function signAndRun(svm: LiteSVM, unsigned: string, expected: { fee: bigint; memo?: string | null }) {
  const inspection = inspect(unsigned);
  expect(inspection.problems).toEqual([]);
  expect(inspection.facts!.networkFeeLamports).toBe(expected.fee);
  expect(inspection.facts!.memo).toBe(expected.memo ?? null);
  const ran = execute(svm, signDepositTransaction(unsigned, owner.secretKey));
  expect(ran).toEqual({ fee: inspection.facts!.networkFeeLamports, treasuryGain: AMOUNT });
}

describe("the sandbox's deposits, signed by trader, on the Solana runtime", () => {
  it('the signature verifies, the fee is the one reckoned, the treasury gains exactly the amount', () => {
    const svm = runtime();
    const unsigned = buildDepositTransaction(OWNER, TREASURY, AMOUNT, svm.latestBlockhash());
    const inspection = inspect(unsigned);
    expect(inspection.problems).toEqual([]);
    // The sandbox asks 10,000 units at 50,000 µlamports: 5,000 + 500.
    expect(inspection.facts!.networkFeeLamports).toBe(5_500n);
    const signed = signDepositTransaction(unsigned, owner.secretKey);
    expect(execute(svm, signed)).toEqual({ fee: 5_500n, treasuryGain: AMOUNT });
  });

  it('the runtime checks signatures: a deposit whose signature is off by one bit is refused', () => {
    const svm = runtime();
    const signed = Buffer.from(
      signDepositTransaction(buildDepositTransaction(OWNER, TREASURY, AMOUNT, svm.latestBlockhash()), owner.secretKey),
      'base64',
    );
    signed[1]! ^= 1;
    expect(() => execute(svm, signed.toString('base64'))).toThrow(/the runtime refused the deposit/);
    expect(svm.getBalance(TREASURY)).toBeNull();
  });
});

describe('honest shapes built with @solana/kit: signed, run, charged the fee reckoned', () => {
  const shapes: Array<[string, (blockhash: string) => string, bigint, string | null]> = [
    ['v0, a transfer alone', (b) => kitDeposit([transfer()], { blockhash: b }), 5_000n, null],
    [
      'legacy, a transfer alone',
      (b) => kitDeposit([transfer()], { blockhash: b }, { version: 'legacy' }),
      5_000n,
      null,
    ],
    [
      'v0, unit limit and price',
      (b) => kitDeposit([unitLimit(10_000), unitPrice(50_000n), transfer()], { blockhash: b }),
      5_500n,
      null,
    ],
    [
      'legacy, unit limit and price',
      (b) => kitDeposit([unitLimit(10_000), unitPrice(50_000n), transfer()], { blockhash: b }, { version: 'legacy' }),
      5_500n,
      null,
    ],
    // The issue's case: no limit, 3,000 units for each builtin instruction.
    [
      'a price with no limit: 6,000 units reckoned',
      (b) => kitDeposit([unitPrice(1_000_000n), transfer()], { blockhash: b }),
      11_000n,
      null,
    ],
    [
      'a priority fee at the default cap of 100,000 lamports',
      (b) => kitDeposit([unitLimit(10_000), unitPrice(9_500_000n), transfer()], { blockhash: b }),
      100_000n,
      null,
    ],
    [
      'a loaded-accounts limit',
      (b) =>
        kitDeposit([unitLimit(10_000), unitPrice(50_000n), loadedAccountsLimit(64 * 1024), transfer()], {
          blockhash: b,
        }),
      5_500n,
      null,
    ],
    [
      'the transfer first',
      (b) => kitDeposit([transfer(), unitLimit(10_000), unitPrice(50_000n)], { blockhash: b }),
      5_500n,
      null,
    ],
    [
      'the transfer last, legacy',
      (b) => kitDeposit([unitPrice(50_000n), unitLimit(10_000), transfer()], { blockhash: b }, { version: 'legacy' }),
      5_500n,
      null,
    ],
    // A memo is not a builtin: 200,000 units when no limit is set.
    [
      'a v3 memo, no limit',
      (b) => kitDeposit([unitPrice(1_000n), transfer(), memo('order 42')], { blockhash: b }),
      5_000n + 206n,
      'order 42',
    ],
    [
      'a v1 memo first, with a limit',
      (b) =>
        kitDeposit([memo('buy 0b9f3a2e', MEMO_V1), unitLimit(50_000), unitPrice(50_000n), transfer()], {
          blockhash: b,
        }),
      7_500n,
      'buy 0b9f3a2e',
    ],
    [
      'a v3 memo your wallet signs, legacy',
      (b) =>
        kitDeposit(
          [unitLimit(50_000), unitPrice(10_000n), transfer(), memo('注文 42', MEMO_V3, OWNER)],
          { blockhash: b },
          { version: 'legacy' },
        ),
      5_500n,
      '注文 42',
    ],
    [
      'a v1 memo your wallet signs, 60 columns',
      (b) => kitDeposit([transfer(), memo('m'.repeat(60), MEMO_V1, OWNER)], { blockhash: b }),
      5_000n,
      'm'.repeat(60),
    ],
  ];

  it.each(shapes)('%s', (_name, build, fee, memoText) => {
    const svm = runtime();
    signAndRun(svm, build(svm.latestBlockhash()), { fee, memo: memoText });
  });
});

describe('hostile shapes built with @solana/kit: refused by the inspection, never signed', () => {
  const blockhash = '4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM';
  const shapes: Array<[string, string, RegExp, bigint?]> = [
    [
      'the treasury through a lookup table',
      kitDeposit([transfer()], { blockhash }, { tables: { [STRANGER]: [TREASURY] } }),
      /through 1 address lookup table .*list every account in the deposit itself/,
    ],
    [
      'the service as fee payer, your wallet a second signer',
      kitDeposit([transfer()], { blockhash }, { payer: STRANGER }),
      /^the service pays the network fee .*make your wallet the fee payer/,
    ],
    [
      'a durable nonce',
      kitDeposit([transfer()], { nonce: blockhash, nonceAccount: STRANGER }),
      /advances a durable nonce.*use a recent blockhash instead$/,
    ],
    [
      'an idempotent associated token account create',
      kitDeposit(
        [
          {
            programAddress: ATA,
            accounts: [OWNER, STRANGER, OWNER, address(MINT), SYSTEM, TOKEN].map((a, i) => ({
              address: a,
              role: i === 0 ? AccountRole.WRITABLE_SIGNER : i === 1 ? AccountRole.WRITABLE : AccountRole.READONLY,
            })),
            data: bytes([1]),
          },
          transfer(),
        ],
        { blockhash },
      ),
      /creates a token account \(Associated Token Account CreateIdempotent\)/,
    ],
    ['an extra transfer', kitDeposit([transfer(), transfer(1n, STRANGER)], { blockhash }), /second System transfer/],
    ['the wrong recipient', kitDeposit([transfer(AMOUNT, STRANGER)], { blockhash }), /not the pinned treasury/],
    ['one lamport more than the intent', kitDeposit([transfer(AMOUNT + 1n)], { blockhash }), /not the intent's/],
    [
      'one lamport more than the intent past 2^53',
      kitDeposit([transfer(2n ** 53n + 2n)], { blockhash }),
      /\(9007199254740994 lamports\), not the intent's/,
      2n ** 53n + 1n,
    ],
    [
      'a priority fee one lamport past the cap',
      kitDeposit([unitLimit(10_000), unitPrice(9_500_001n), transfer()], { blockhash }),
      /network fee would be 100,001 lamports/,
    ],
    [
      'a memo price with no limit past the cap',
      kitDeposit([unitPrice(1_000_000n), transfer(), memo('x')], { blockhash }),
      /network fee would be 211,000 lamports/,
    ],
    [
      'a memo naming another signer',
      kitDeposit([transfer(), memo('x', MEMO_V3, STRANGER)], { blockhash }),
      /Memo naming accounts other than your wallet/,
    ],
    ['a memo with an escape sequence', kitDeposit([transfer(), memo('ok\u001b[2J')], { blockhash }), /U\+001B ESC/],
    ['two memos', kitDeposit([transfer(), memo('a'), memo('b', MEMO_V1)], { blockhash }), /second Memo/],
  ];

  it.each(shapes)('%s', (_name, unsigned, reason, amount) => {
    const inspection = inspect(unsigned, amount);
    expect(inspection.ok).toBe(false);
    expect(
      inspection.problems.some((p) => reason.test(p)),
      JSON.stringify(inspection.problems),
    ).toBe(true);
  });
});
