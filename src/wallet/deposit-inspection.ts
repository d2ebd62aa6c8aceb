// Inspection of the unsigned buy deposit transaction, before anything is signed.
// The rules are those of shared/cli-contract.md, "What the tool checks before it signs
// anything". Every check runs and every failure is reported, one line each, so the user sees
// the whole picture; `ok` is true only when there is no problem at all.
//
// Decisions beyond the contract (each errs on the side of refusing):
// - the owner's signature slot must be empty (all zeros): the API promises an unsigned
//   transaction, and a filled slot means someone else produced a signature for our key;
// - the account key list must have no duplicates and every index must be in range
//   (the network rejects such transactions too, but we must not misread one);
// - the System transfer must carry exactly two accounts and exactly 12 data bytes;
//   Compute Budget instructions must carry no accounts and exactly the bytes of their layout;
//   the deprecated RequestUnits (which can add a fee) and unknown ones are refused;
//   each Compute Budget instruction may appear once;
// - the fee estimate uses the requested compute-unit limit as given, without the network's
//   1.4M cap, so it can only over-estimate;
// - durable-nonce transactions are refused (AdvanceNonceAccount is a System instruction other
//   than Transfer), so a deposit cannot stay valid forever.

import bs58 from 'bs58';
import type { BuyIntent } from '../api/types.js';
import { formatInteger, formatSol, isCanonicalIntegerString } from '../domain/amounts.js';
import type { DepositFacts } from '../domain/deposit-facts.js';
import {
  DecodeError,
  decodeBase64Strict,
  decodeTransaction,
  isSigner,
  isWritable,
  type DecodedTransaction,
} from './transaction-decoder.js';

export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';
export const COMPUTE_BUDGET_PROGRAM_ID = 'ComputeBudget111111111111111111111111111111';

/** Lamports per signature, as the network charges. */
export const LAMPORTS_PER_SIGNATURE = 5_000n;
/** Compute units assumed per non-Compute-Budget instruction when no limit is requested. */
export const DEFAULT_UNITS_PER_INSTRUCTION = 200_000n;
export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000n;

export interface DepositInspectionInput {
  transactionBase64: string;
  /** The owner wallet, base58. */
  owner: string;
  intent: BuyIntent;
  requestedMint: string;
  /** The amount the user typed, in lamports. */
  typedLamports: bigint;
  maxFeeLamports: bigint;
  /** The pinned treasury; null means trust on first use (the caller pins the recipient). */
  treasury: string | null;
}

export interface DepositInspection {
  ok: boolean;
  /** Each one line naming what is wrong. Empty when ok. */
  problems: string[];
  /** Null only when the transaction could not be decoded at all. */
  facts: DepositFacts | null;
}

const KNOWN_PROGRAMS: Record<string, string> = {
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: 'SPL Token',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PWPmnoDwWfRZ2BkJ: 'SPL Token-2022',
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL: 'Associated Token Account',
  MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr: 'Memo',
  AddressLookupTab1e1111111111111111111111111: 'Address Lookup Table',
  Stake11111111111111111111111111111111111111: 'Stake',
  Vote111111111111111111111111111111111111111: 'Vote',
  BPFLoaderUpgradeab1e11111111111111111111111: 'BPF Upgradeable Loader',
  Ed25519SigVerify111111111111111111111111111: 'Ed25519 signature verify',
  KeccakSecp256k11111111111111111111111111111: 'Secp256k1 signature verify',
};

const SYSTEM_INSTRUCTIONS = [
  'CreateAccount',
  'Assign',
  'Transfer',
  'CreateAccountWithSeed',
  'AdvanceNonceAccount',
  'WithdrawNonceAccount',
  'InitializeNonceAccount',
  'AuthorizeNonceAccount',
  'Allocate',
  'AllocateWithSeed',
  'AssignWithSeed',
  'TransferWithSeed',
  'UpgradeNonceAccount',
];

/** Compute Budget instructions we accept, by discriminator, with their exact data length. */
const COMPUTE_BUDGET_LAYOUTS: Record<number, { name: string; length: number }> = {
  1: { name: 'RequestHeapFrame', length: 5 },
  2: { name: 'SetComputeUnitLimit', length: 5 },
  3: { name: 'SetComputeUnitPrice', length: 9 },
  4: { name: 'SetLoadedAccountsDataSizeLimit', length: 5 },
};

function programName(id: string): string {
  const name = KNOWN_PROGRAMS[id];
  return name ? `${name} (${id})` : id;
}

function u32le(data: Uint8Array, at: number): bigint {
  return BigInt(new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(at, true));
}

function u64le(data: Uint8Array, at: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(at, true);
}

/** Checks the deposit transaction against the intent and the user's request. Pure; never throws on bad input. */
export function inspectDeposit(input: DepositInspectionInput): DepositInspection {
  const { owner, intent, requestedMint, typedLamports, maxFeeLamports, treasury } = input;
  const problems: string[] = [];

  // (6) The intent is the one requested; checked even when the transaction is undecodable.
  if (intent.outputMint !== requestedMint) {
    problems.push(`the intent buys ${String(intent.outputMint)}, not the requested mint ${requestedMint}`);
  }
  const intentLamports = isCanonicalIntegerString(intent.amountLamports) ? BigInt(intent.amountLamports) : null;
  if (intentLamports === null) {
    problems.push(`the intent amount ${JSON.stringify(intent.amountLamports)} is not a whole number of lamports`);
  } else if (intentLamports !== typedLamports) {
    problems.push(
      `the intent amount ${formatSol(intentLamports)} SOL (${intentLamports} lamports) is not the requested ` +
        `${formatSol(typedLamports)} SOL (${typedLamports} lamports)`,
    );
  }

  let tx: DecodedTransaction;
  try {
    tx = decodeTransaction(decodeBase64Strict(input.transactionBase64));
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    problems.push(`the deposit transaction is malformed: ${e.message}`);
    return { ok: false, problems, facts: null };
  }
  const { message, signatures } = tx;
  const keys = message.staticAccountKeys;
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header;

  // Structure the network would also insist on; without it the checks below could misread indexes.
  if (numRequiredSignatures > keys.length || numReadonlyUnsignedAccounts > keys.length - numRequiredSignatures) {
    problems.push('the transaction header counts more accounts than it lists');
  }
  if (new Set(keys).size !== keys.length) problems.push('the transaction lists an account more than once');

  // (1) Fee payer and only signer is the owner.
  const feePayer = keys[0] ?? '(none)';
  if (feePayer !== owner) problems.push(`the fee payer is ${feePayer}, not your wallet ${owner}`);
  if (numRequiredSignatures !== 1) {
    problems.push(`the transaction needs ${numRequiredSignatures} signatures; only your wallet's may be required`);
  }
  if (numReadonlySignedAccounts !== 0) problems.push('the fee payer is marked read-only');
  if (signatures.length !== numRequiredSignatures) {
    problems.push(`the transaction carries ${signatures.length} signature slots for ${numRequiredSignatures} required signers`);
  }
  if (signatures.some((sig) => sig.some((b) => b !== 0))) {
    problems.push('a signature slot is already filled; the service must send an unsigned transaction');
  }

  // (3) No address lookup tables.
  if (message.addressTableLookups.length > 0) {
    problems.push(`the transaction uses ${message.addressTableLookups.length} address lookup table(s), which are not allowed`);
  }

  // (2)(3) Exactly one System transfer, Compute Budget instructions, nothing else.
  let transfers = 0;
  let recipient: string | null = null;
  let transferLamports: bigint | null = null;
  let unitLimit: bigint | null = null;
  let unitPrice: bigint | null = null;
  let nonBudgetInstructions = 0n;
  const seenBudget = new Set<number>();

  for (const [i, ix] of message.instructions.entries()) {
    const n = i + 1;
    // Checked first, so every index below is in range.
    if (ix.programIdIndex >= keys.length || ix.accountIndexes.some((a) => a >= keys.length)) {
      problems.push(`instruction ${n} refers to an account that is not listed in the transaction`);
      nonBudgetInstructions++;
      continue;
    }
    const program = keys[ix.programIdIndex]!;
    const data = ix.data;
    if (program === SYSTEM_PROGRAM_ID) {
      nonBudgetInstructions++;
      const kind = data.length >= 4 ? Number(u32le(data, 0)) : -1;
      if (kind !== 2) {
        const name = SYSTEM_INSTRUCTIONS[kind] ?? (kind === -1 ? 'with malformed data' : `number ${kind}`);
        problems.push(`instruction ${n} is a System Program ${name} instruction; only one Transfer is allowed`);
        continue;
      }
      if (data.length !== 12 || ix.accountIndexes.length !== 2) {
        problems.push(`instruction ${n} is a malformed System transfer (${data.length} data bytes, ${ix.accountIndexes.length} accounts)`);
        continue;
      }
      transfers++;
      const [fromIndex, toIndex] = ix.accountIndexes as [number, number];
      const from = keys[fromIndex]!;
      const to = keys[toIndex]!;
      const lamports = u64le(data, 4);
      if (transfers > 1) {
        problems.push(`instruction ${n} is a second System transfer (${formatSol(lamports)} SOL to ${to}); only one is allowed`);
        continue;
      }
      recipient = to;
      transferLamports = lamports;
      if (from !== owner) problems.push(`the transfer is paid from ${from}, not your wallet ${owner}`);
      if (!isSigner(message, fromIndex) || !isWritable(message, fromIndex)) {
        problems.push('the transfer source is not a writable signer');
      }
      if (!isWritable(message, toIndex)) problems.push(`the transfer recipient ${to} is not writable`);
      if (to === owner) problems.push('the transfer pays your own wallet, not the treasury');
      continue;
    }
    if (program === COMPUTE_BUDGET_PROGRAM_ID) {
      const kind = data.length > 0 ? data[0]! : -1;
      const layout = COMPUTE_BUDGET_LAYOUTS[kind];
      if (!layout) {
        problems.push(`instruction ${n} is a Compute Budget instruction of unknown or deprecated kind ${kind}`);
        continue;
      }
      if (data.length !== layout.length || ix.accountIndexes.length !== 0) {
        problems.push(`instruction ${n} is a malformed Compute Budget ${layout.name}`);
        continue;
      }
      if (seenBudget.has(kind)) {
        problems.push(`instruction ${n} repeats Compute Budget ${layout.name}`);
        continue;
      }
      seenBudget.add(kind);
      if (kind === 2) unitLimit = u32le(data, 1);
      if (kind === 3) unitPrice = u64le(data, 1);
      continue;
    }
    nonBudgetInstructions++;
    problems.push(
      `instruction ${n} calls ${programName(program)}; only one System transfer and Compute Budget instructions are allowed`,
    );
  }

  if (transfers === 0) problems.push('the transaction has no System transfer paying the deposit');
  if (transfers === 1 && transferLamports !== null && intentLamports !== null && transferLamports !== intentLamports) {
    problems.push(
      `the transfer moves ${formatSol(transferLamports)} SOL (${transferLamports} lamports), ` +
        `not the intent's ${formatSol(intentLamports)} SOL (${intentLamports} lamports)`,
    );
  }
  if (transfers === 1 && transferLamports !== null && transferLamports > typedLamports) {
    problems.push(
      `the transfer moves ${formatSol(transferLamports)} SOL, more than the ${formatSol(typedLamports)} SOL you asked for`,
    );
  }
  const singleRecipient = transfers === 1 ? recipient : null;

  // (4) Network fee.
  const computeUnitLimit: bigint =
    unitLimit ?? minBigInt(DEFAULT_UNITS_PER_INSTRUCTION * nonBudgetInstructions, MAX_COMPUTE_UNIT_LIMIT);
  const computeUnitPrice: bigint = unitPrice ?? 0n;
  const priorityFee = ceilDiv(computeUnitPrice * computeUnitLimit, 1_000_000n);
  const networkFeeLamports = LAMPORTS_PER_SIGNATURE * BigInt(numRequiredSignatures) + priorityFee;
  if (networkFeeLamports > maxFeeLamports) {
    problems.push(
      `the network fee would be ${formatInteger(networkFeeLamports)} lamports, above the limit of ` +
        `${formatInteger(maxFeeLamports)} (raise it with --max-fee-lamports)`,
    );
  }

  // (5) Treasury: the whole 32-byte key, never a prefix (a look-alike address may share its start).
  if (treasury !== null && singleRecipient !== null && !sameKey(singleRecipient, treasury)) {
    problems.push(
      `the deposit pays ${singleRecipient}, not the pinned treasury ${treasury}; if the service really moved its ` +
        'treasury, a person re-pins it: `trader config trust accept-treasury <address>`, or --treasury <address>',
    );
  }

  const facts: DepositFacts = {
    feePayer,
    signers: keys.slice(0, numRequiredSignatures),
    recipient: singleRecipient,
    transferLamports: transfers === 1 ? transferLamports : null,
    computeUnitLimit,
    computeUnitPriceMicroLamports: computeUnitPrice,
    networkFeeLamports,
    recentBlockhash: message.recentBlockhash,
    version: message.version,
    treasuryCheck: treasury === null ? 'first-use' : 'pinned',
  };
  return { ok: problems.length === 0, problems, facts };
}

function minBigInt(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** Whether two addresses are the same key: both decode to the same 32 bytes. */
export function sameKey(a: string, b: string): boolean {
  try {
    const [x, y] = [bs58.decode(a), bs58.decode(b)];
    return x.length === 32 && y.length === 32 && x.every((byte, i) => byte === y[i]);
  } catch {
    return false;
  }
}
