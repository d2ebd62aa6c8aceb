// Builds the unsigned deposit transaction of a buy and checks the signed one that comes back.
// The checks are the service's half of safety rules 1 and 2: owner-signed, exact amount, treasury.
import {
  ComputeBudgetProgram,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { HttpError } from './sandbox-error.js';

export const COMPUTE_UNIT_LIMIT = 10_000;
export const COMPUTE_UNIT_PRICE_MICROLAMPORTS = 50_000;
/**
 * Units added to the limit of a deposit that carries a memo: the memo program (not a builtin)
 * costs more than the 150 of each builtin instruction, and a limit it exceeds fails the deposit
 * on chain; generous headroom for the sandbox's one-line memo.
 */
export const MEMO_COMPUTE_UNITS = 20_000;

/** The SPL Memo program (v3): its instruction's data is the text; it moves nothing. */
export const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
/** The first Memo program (v1), which a service may use as well. */
const MEMO_V1_PROGRAM = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';

/** Lamports the runtime charges per signature. */
const SIGNATURE_FEE = 5_000n;

/**
 * Base64 of an unsigned v0 transaction: compute budget + one transfer owner → treasury, and
 * after it, when `memo` is given, an SPL Memo instruction with that text and no accounts.
 */
export function buildDepositTransaction(
  owner: string,
  treasury: string,
  lamports: bigint,
  blockhash: string,
  memo: string | null = null,
): string {
  const payer = new PublicKey(owner);
  const message = new TransactionMessage({
    payerKey: payer,
    recentBlockhash: blockhash,
    instructions: [
      ComputeBudgetProgram.setComputeUnitLimit({
        units: COMPUTE_UNIT_LIMIT + (memo === null ? 0 : MEMO_COMPUTE_UNITS),
      }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: COMPUTE_UNIT_PRICE_MICROLAMPORTS }),
      SystemProgram.transfer({ fromPubkey: payer, toPubkey: new PublicKey(treasury), lamports }),
      ...(memo === null
        ? []
        : [
            new TransactionInstruction({
              programId: new PublicKey(MEMO_PROGRAM),
              keys: [],
              data: Buffer.from(memo, 'utf8'),
            }),
          ]),
    ],
  }).compileToV0Message();
  return Buffer.from(new VersionedTransaction(message).serialize()).toString('base64');
}

/** What the runtime charges for a deposit: each signature, plus its compute-unit price times its limit (micro-lamports, rounded up). */
export function depositFee(signatures: number, unitLimit: bigint, microLamportsPerUnit: bigint): bigint {
  return SIGNATURE_FEE * BigInt(signatures) + (unitLimit * microLamportsPerUnit + 999_999n) / 1_000_000n;
}

export interface DepositExpectation {
  owner: string;
  treasury: string;
  amountLamports: bigint;
  /** lastValidBlockHeight of a blockhash the sandbox issued, or undefined. */
  blockhashValidUntil(blockhash: string): number | undefined;
  currentHeight: number;
}

const reject = (code: string, message: string) => new HttpError(422, code, message);
const SYSTEM_TRANSFER = 2;
/** Compute Budget instruction tags. */
const SET_UNIT_LIMIT = 2;
const SET_UNIT_PRICE = 3;

/** Verify a signed deposit; returns its signature (base58) and the network fee it pays, or throws a 4xx HttpError. */
export function verifyDeposit(
  signedBase64: string,
  exp: DepositExpectation,
): { signature: string; feeLamports: bigint } {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signedBase64) || signedBase64.length % 4 !== 0) {
    throw new HttpError(400, 'INVALID_TRANSACTION', 'signedTransaction is not base64');
  }
  let tx: VersionedTransaction;
  try {
    tx = VersionedTransaction.deserialize(Buffer.from(signedBase64, 'base64'));
  } catch {
    throw new HttpError(400, 'INVALID_TRANSACTION', 'signedTransaction does not decode as a Solana transaction');
  }
  if (tx.version !== 0) throw reject('UNSUPPORTED_TRANSACTION', 'the deposit must be a v0 versioned transaction');
  const msg = tx.message;
  if (msg.addressTableLookups.length > 0) {
    throw reject('UNEXPECTED_INSTRUCTION', 'address lookup tables are not allowed in a deposit');
  }
  const keys = msg.staticAccountKeys.map((k) => k.toBase58());
  if (keys[0] !== exp.owner || msg.header.numRequiredSignatures !== 1) {
    throw reject('WRONG_SIGNER', `the deposit must be paid and signed by the account wallet ${exp.owner} alone`);
  }
  const signature = tx.signatures[0];
  const ownerBytes = new PublicKey(exp.owner).toBytes();
  if (!signature || !nacl.sign.detached.verify(msg.serialize(), signature, ownerBytes)) {
    throw reject('INVALID_SIGNATURE', 'the deposit is not signed by the account wallet');
  }

  const transfers: Array<{ from: string; to: string; lamports: bigint }> = [];
  // The runtime's defaults where no instruction sets them: these deposits always set both.
  let unitLimit = 200_000n;
  let unitPrice = 0n;
  for (const ix of msg.compiledInstructions) {
    const program = keys[ix.programIdIndex];
    const data = Buffer.from(ix.data);
    if (program === ComputeBudgetProgram.programId.toBase58()) {
      if (data.length === 5 && data[0] === SET_UNIT_LIMIT) unitLimit = BigInt(data.readUInt32LE(1));
      else if (data.length === 9 && data[0] === SET_UNIT_PRICE) unitPrice = data.readBigUInt64LE(1);
      continue;
    }
    // A memo moves nothing; with no accounts it touches none.
    if ((program === MEMO_PROGRAM || program === MEMO_V1_PROGRAM) && ix.accountKeyIndexes.length === 0) continue;
    if (
      program === SystemProgram.programId.toBase58() &&
      data.length === 12 &&
      data.readUInt32LE(0) === SYSTEM_TRANSFER &&
      ix.accountKeyIndexes.length === 2 &&
      ix.accountKeyIndexes.every((i) => i < keys.length)
    ) {
      transfers.push({
        from: keys[ix.accountKeyIndexes[0]!]!,
        to: keys[ix.accountKeyIndexes[1]!]!,
        lamports: data.readBigUInt64LE(4),
      });
      continue;
    }
    throw reject('UNEXPECTED_INSTRUCTION', `instruction of program ${program ?? '?'} is not allowed in a deposit`);
  }
  if (transfers.length !== 1) {
    throw reject('UNEXPECTED_INSTRUCTION', `a deposit holds exactly one transfer, found ${transfers.length}`);
  }
  const t = transfers[0]!;
  if (t.from !== exp.owner) throw reject('WRONG_SIGNER', `the transfer must come from ${exp.owner}`);
  if (t.to !== exp.treasury) throw reject('WRONG_RECIPIENT', `the transfer must pay the treasury ${exp.treasury}`);
  if (t.lamports !== exp.amountLamports) {
    throw reject('WRONG_AMOUNT', `the transfer pays ${t.lamports} lamports, the intent is for ${exp.amountLamports}`);
  }
  const validUntil = exp.blockhashValidUntil(msg.recentBlockhash);
  if (validUntil === undefined) throw reject('UNKNOWN_BLOCKHASH', 'the recent blockhash is not one the service issued');
  if (exp.currentHeight > validUntil) {
    throw reject('BLOCKHASH_EXPIRED', `the blockhash expired at block height ${validUntil}`);
  }
  return {
    signature: bs58.encode(signature),
    feeLamports: depositFee(msg.header.numRequiredSignatures, unitLimit, unitPrice),
  };
}
