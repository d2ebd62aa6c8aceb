// Inspection of the unsigned buy deposit transaction, before anything is signed.
// The rules are those of shared/cli-contract.md, "What the tool checks before it signs
// anything", and docs/checks.md (their one home in the docs). Every check runs and every failure
// is reported, one line each, so the user sees the whole picture; `ok` is true only when there is
// no problem at all. A refusal of a shape an honest service may send says what to ask of it.
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
// - one SPL Memo (v1 or v3) may stand beside the transfer: no accounts, or only the owner as
//   signer; its text printable and one line (deposit-memo.ts), shown in the review;
// - durable-nonce transactions are refused (AdvanceNonceAccount), so a deposit cannot stay valid
//   forever; so are account creations (rent is SOL beyond the amount), address lookup tables
//   (the recipient would rest on an RPC's word for the table, not on the bytes signed) and a
//   fee payer other than the owner (the deposit's id would be a signature we cannot know).

import bs58 from 'bs58';
import type { BuyIntent } from '../api/types.js';
import { formatInteger, formatSol, isCanonicalIntegerString, solAndLamports } from '../domain/amounts.js';
import type { DepositFacts } from '../domain/deposit-facts.js';
import {
  DecodeError,
  decodeBase64Strict,
  decodeTransaction,
  isSigner,
  isWritable,
  type DecodedTransaction,
} from './transaction-decoder.js';
import { MEMO_PROGRAMS, memoText } from './deposit-memo.js';
import { counted } from '../domain/units.js';

export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';
export const COMPUTE_BUDGET_PROGRAM_ID = 'ComputeBudget111111111111111111111111111111';
const ASSOCIATED_TOKEN_PROGRAM_ID = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

// The network fee, reckoned as the Agave runtime does (compute-budget-instruction's
// compute_budget_instruction_details.rs, calculate_default_compute_unit_limit; SIMD-0170
// "Reserve minimal CUs for builtins", active on mainnet): with no SetComputeUnitLimit, the limit
// is MAX_BUILTIN_ALLOCATION_COMPUTE_UNIT_LIMIT (3,000) for each instruction of a builtin program
// (System and Compute Budget themselves included) plus DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT
// (200,000) for each other one (SPL Memo is an on-chain BPF program, not a builtin), capped at
// MAX_COMPUTE_UNIT_LIMIT (1,400,000); a requested limit is capped the same way. The priority fee
// is ceil(limit × price in micro-lamports / 1,000,000); the base fee 5,000 lamports a signature.
// An instruction of any other program counts 200,000, so the estimate is never below the charge.

/** Lamports per signature, as the network charges. */
export const LAMPORTS_PER_SIGNATURE = 5_000n;
/** Compute units the runtime reserves for a builtin program's instruction when no limit is requested. */
export const BUILTIN_UNITS_PER_INSTRUCTION = 3_000n;
/** Compute units the runtime reserves for any other instruction when no limit is requested. */
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
  const problems: string[] = [];
  // (6) The intent is the one requested; checked even when the transaction is undecodable.
  const intentLamports = checkIntent(input, problems);
  let tx: DecodedTransaction;
  try {
    tx = decodeTransaction(decodeBase64Strict(input.transactionBase64));
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    problems.push(`the deposit transaction is malformed: ${e.message}`);
    return { ok: false, problems, facts: null };
  }
  const { message } = tx;
  const feePayer = checkSigners(tx, input.owner, problems);
  const lookedUp = checkLookupTables(message, problems);
  const scan = scanInstructions(message, input.owner, lookedUp, problems);
  const singleRecipient = checkTransfer(scan, intentLamports, input.typedLamports, problems);
  const fee = networkFee(scan, message.header.numRequiredSignatures, input.maxFeeLamports, problems);
  // (5) Treasury: the whole 32-byte key, never a prefix (a look-alike address may share its start).
  const { treasury } = input;
  if (treasury !== null && singleRecipient !== null && !sameKey(singleRecipient, treasury)) {
    problems.push(
      `the deposit pays ${singleRecipient}, not the pinned treasury ${treasury}; if the service really moved its ` +
        'treasury, a person re-pins it: `trader config trust accept-treasury <address>`, or --treasury <address>',
    );
  }
  const facts: DepositFacts = {
    feePayer,
    signers: message.staticAccountKeys.slice(0, message.header.numRequiredSignatures),
    recipient: singleRecipient,
    transferLamports: scan.transfers === 1 ? scan.transferLamports : null,
    ...fee,
    memo: scan.memo,
    recentBlockhash: message.recentBlockhash,
    version: message.version,
    treasuryCheck: treasury === null ? 'first-use' : 'pinned',
  };
  return { ok: problems.length === 0, problems, facts };
}

/** (6) The intent buys the requested mint for the typed amount; its amount in lamports, or null when not a whole number. */
function checkIntent(input: DepositInspectionInput, problems: string[]): bigint | null {
  const { intent, requestedMint, typedLamports } = input;
  if (intent.outputMint !== requestedMint) {
    problems.push(`the intent buys ${String(intent.outputMint)}, not the requested mint ${requestedMint}`);
  }
  const intentLamports = isCanonicalIntegerString(intent.amountLamports) ? BigInt(intent.amountLamports) : null;
  if (intentLamports === null) {
    problems.push(`the intent amount ${JSON.stringify(intent.amountLamports)} is not a whole number of lamports`);
  } else if (intentLamports !== typedLamports) {
    problems.push(
      `the intent amount ${solAndLamports(intentLamports)} is not the requested ${solAndLamports(typedLamports)}`,
    );
  }
  return intentLamports;
}

/** The header's structure, and (1) the owner as fee payer and only signer, its slot empty; returns the fee payer. */
function checkSigners(tx: DecodedTransaction, owner: string, problems: string[]): string {
  const { message, signatures } = tx;
  const keys = message.staticAccountKeys;
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header;
  const ownerIndex = keys.indexOf(owner);
  // Structure the network would also insist on; without it the checks below could misread indexes.
  if (numRequiredSignatures > keys.length || numReadonlyUnsignedAccounts > keys.length - numRequiredSignatures) {
    problems.push('the transaction header counts more accounts than it lists');
  }
  if (new Set(keys).size !== keys.length) problems.push('the transaction lists an account more than once');
  const feePayer = keys[0] ?? '(none)';
  const serviceFee = feePayer !== owner && ownerIndex > 0 && ownerIndex < numRequiredSignatures;
  if (serviceFee) {
    problems.push(
      `the service pays the network fee (${feePayer} is the fee payer, your wallet a second signer): the deposit's id ` +
        "would be the service's signature, unknown before it adds it, so the tool could not prove the deposit never landed; " +
        'tell the operator of the service to make your wallet the fee payer (the fee is shown and capped before you sign)',
    );
  } else if (feePayer !== owner) {
    problems.push(`the fee payer is ${feePayer}, not your wallet ${owner}`);
  }
  if (numRequiredSignatures !== 1 && !(serviceFee && numRequiredSignatures === 2)) {
    problems.push(`the transaction needs ${numRequiredSignatures} signatures; only your wallet's may be required`);
  }
  if (numReadonlySignedAccounts !== 0) problems.push('the fee payer is marked read-only');
  if (signatures.length !== numRequiredSignatures) {
    problems.push(
      `the transaction carries ${signatures.length} signature slots for ${numRequiredSignatures} required signers`,
    );
  }
  if (signatures.some((sig) => sig.some((b) => b !== 0))) {
    problems.push('a signature slot is already filled; the service must send an unsigned transaction');
  }
  return feePayer;
}

/**
 * (3) No address lookup tables: an account named through one is whatever an RPC says the table
 * holds, not what the signed bytes say; such an instruction is refused by this one line alone.
 * Returns how many accounts the tables name.
 */
function checkLookupTables(message: DecodedTransaction['message'], problems: string[]): number {
  const lookedUp = message.addressTableLookups.reduce(
    (n, t) => n + t.writableIndexes.length + t.readonlyIndexes.length,
    0,
  );
  if (message.addressTableLookups.length > 0) {
    problems.push(
      `the transaction names ${counted(lookedUp, 'account')} through ${counted(message.addressTableLookups.length, 'address lookup table')} ` +
        `${message.addressTableLookups.map((t) => t.accountKey).join(', ')}: they would rest on what an RPC says the table holds, ` +
        'not on the bytes you sign, so the recipient cannot be checked; tell the operator of the service to list every account ' +
        'in the deposit itself, with no lookup table',
    );
  }
  return lookedUp;
}

/** What the walk over the instructions found. */
interface InstructionScan {
  message: DecodedTransaction['message'];
  owner: string;
  problems: string[];
  transfers: number;
  throughTable: number;
  recipient: string | null;
  transferLamports: bigint | null;
  unitLimit: bigint | null;
  unitPrice: bigint | null;
  memo: string | null;
  memos: number;
  /** The compute units the runtime reserves when no limit is requested (the rule above). */
  defaultUnits: bigint;
  seenBudget: Set<number>;
}

type Instruction = DecodedTransaction['message']['instructions'][number];

/** (2)(3) Exactly one System transfer, Compute Budget instructions, at most one Memo, nothing else. */
function scanInstructions(
  message: DecodedTransaction['message'],
  owner: string,
  lookedUp: number,
  problems: string[],
): InstructionScan {
  const keys = message.staticAccountKeys;
  const scan: InstructionScan = {
    message,
    owner,
    problems,
    transfers: 0,
    throughTable: 0,
    recipient: null,
    transferLamports: null,
    unitLimit: null,
    unitPrice: null,
    memo: null,
    memos: 0,
    defaultUnits: 0n,
    seenBudget: new Set<number>(),
  };
  for (const [i, ix] of message.instructions.entries()) {
    const n = i + 1;
    // Checked first, so every index below is in range.
    if (ix.programIdIndex >= keys.length + lookedUp || ix.accountIndexes.some((a) => a >= keys.length + lookedUp)) {
      problems.push(`instruction ${n} refers to an account that is not listed in the transaction`);
      scan.defaultUnits += DEFAULT_UNITS_PER_INSTRUCTION;
      continue;
    }
    if (ix.programIdIndex >= keys.length || ix.accountIndexes.some((a) => a >= keys.length)) {
      scan.throughTable++; // refused above, with the lookup table
      scan.defaultUnits += DEFAULT_UNITS_PER_INSTRUCTION;
      continue;
    }
    const program = keys[ix.programIdIndex]!;
    if (program === SYSTEM_PROGRAM_ID) {
      scan.defaultUnits += BUILTIN_UNITS_PER_INSTRUCTION;
      checkSystemInstruction(scan, n, ix);
    } else if (program === COMPUTE_BUDGET_PROGRAM_ID) {
      scan.defaultUnits += BUILTIN_UNITS_PER_INSTRUCTION;
      checkComputeBudget(scan, n, ix);
    } else {
      scan.defaultUnits += DEFAULT_UNITS_PER_INSTRUCTION;
      if (MEMO_PROGRAMS[program] !== undefined) checkMemo(scan, n, ix);
      else problems.push(otherProgramRefusal(n, program, ix.data));
    }
  }
  return scan;
}

/** A System instruction: only the one transfer, from the owner to a writable recipient. */
function checkSystemInstruction(scan: InstructionScan, n: number, ix: Instruction): void {
  const { message, owner, problems } = scan;
  const keys = message.staticAccountKeys;
  const data = ix.data;
  const kind = data.length >= 4 ? Number(u32le(data, 0)) : -1;
  if (kind !== 2) {
    problems.push(systemRefusal(n, kind));
    return;
  }
  if (data.length !== 12 || ix.accountIndexes.length !== 2) {
    problems.push(
      `instruction ${n} is a malformed System transfer (${data.length} data bytes, ${ix.accountIndexes.length} accounts)`,
    );
    return;
  }
  scan.transfers++;
  const [fromIndex, toIndex] = ix.accountIndexes as [number, number];
  const from = keys[fromIndex]!;
  const to = keys[toIndex]!;
  const lamports = u64le(data, 4);
  if (scan.transfers > 1) {
    problems.push(
      `instruction ${n} is a second System transfer (${formatSol(lamports)} SOL to ${to}); only one is allowed`,
    );
    return;
  }
  scan.recipient = to;
  scan.transferLamports = lamports;
  if (from !== owner) problems.push(`the transfer is paid from ${from}, not your wallet ${owner}`);
  if (!isSigner(message, fromIndex) || !isWritable(message, fromIndex)) {
    problems.push('the transfer source is not a writable signer');
  }
  if (!isWritable(message, toIndex)) problems.push(`the transfer recipient ${to} is not writable`);
  if (to === owner) problems.push('the transfer pays your own wallet, not the treasury');
}

/** A Compute Budget instruction: a known kind, its exact layout, once each; the limit and price noted. */
function checkComputeBudget(scan: InstructionScan, n: number, ix: Instruction): void {
  const { problems } = scan;
  const data = ix.data;
  const kind = data.length > 0 ? data[0]! : -1;
  const layout = COMPUTE_BUDGET_LAYOUTS[kind];
  if (!layout) {
    problems.push(`instruction ${n} is a Compute Budget instruction of unknown or deprecated kind ${kind}`);
    return;
  }
  if (data.length !== layout.length || ix.accountIndexes.length !== 0) {
    problems.push(`instruction ${n} is a malformed Compute Budget ${layout.name}`);
    return;
  }
  if (scan.seenBudget.has(kind)) {
    problems.push(`instruction ${n} repeats Compute Budget ${layout.name}`);
    return;
  }
  scan.seenBudget.add(kind);
  if (kind === 2) scan.unitLimit = u32le(data, 1);
  if (kind === 3) scan.unitPrice = u64le(data, 1);
}

/** A Memo: one at most, with no account but the owner as signer, its text printable. */
function checkMemo(scan: InstructionScan, n: number, ix: Instruction): void {
  const { message, problems } = scan;
  if (++scan.memos > 1) {
    problems.push(`instruction ${n} is a second Memo; only one is allowed`);
    return;
  }
  const ownerIndex = message.staticAccountKeys.indexOf(scan.owner);
  // The owner may sign for its memo (v3 checks each account listed is a signer); no other account may stand in it.
  const onlyOwner =
    ix.accountIndexes.length === 0 ||
    (ix.accountIndexes.length === 1 && ix.accountIndexes[0] === ownerIndex && isSigner(message, ownerIndex));
  if (!onlyOwner) {
    problems.push(
      `instruction ${n} is a Memo naming accounts other than your wallet as its signer; tell the operator of the service to send memos with no accounts`,
    );
  }
  const text = memoText(ix.data);
  if ('problem' in text) problems.push(`instruction ${n} is a Memo, but ${text.problem}`);
  else if (onlyOwner) scan.memo = text.text;
}

/** Why an instruction of any other program is refused; an account creation says what to ask of the service. */
function otherProgramRefusal(n: number, program: string, data: Uint8Array): string {
  if (program === ASSOCIATED_TOKEN_PROGRAM_ID && data.length <= 1 && (data[0] ?? 0) <= 1) {
    return (
      `instruction ${n} creates a token account (Associated Token Account ${data[0] === 1 ? 'CreateIdempotent' : 'Create'}): ` +
      'its rent would be SOL of yours beyond the amount and the fee shown; tell the operator of the service to create ' +
      'the accounts it needs itself, outside your deposit'
    );
  }
  return `instruction ${n} calls ${programName(program)}; only one System transfer, Compute Budget instructions and one SPL Memo are allowed`;
}

/** The one transfer pays the intent's amount, never more than typed; returns its recipient (null unless exactly one). */
function checkTransfer(
  scan: InstructionScan,
  intentLamports: bigint | null,
  typedLamports: bigint,
  problems: string[],
): string | null {
  const { transfers, transferLamports } = scan;
  if (transfers === 0 && scan.throughTable === 0)
    problems.push('the transaction has no System transfer paying the deposit');
  // Amounts as bigints, never numbers: past 2^53 two different lamport counts are one number.
  if (transfers === 1 && transferLamports !== null && intentLamports !== null && transferLamports !== intentLamports) {
    problems.push(
      `the transfer moves ${solAndLamports(transferLamports)}, not the intent's ${solAndLamports(intentLamports)}`,
    );
  }
  if (transfers === 1 && transferLamports !== null && transferLamports > typedLamports) {
    problems.push(
      `the transfer moves ${formatSol(transferLamports)} SOL, more than the ${formatSol(typedLamports)} SOL you asked for`,
    );
  }
  return transfers === 1 ? scan.recipient : null;
}

/** (4) Network fee, as the runtime charges it (the rule above the constants), within the user's limit. */
function networkFee(
  scan: InstructionScan,
  numRequiredSignatures: number,
  maxFeeLamports: bigint,
  problems: string[],
): Pick<DepositFacts, 'computeUnitLimit' | 'computeUnitPriceMicroLamports' | 'networkFeeLamports'> {
  const computeUnitLimit = minBigInt(scan.unitLimit ?? scan.defaultUnits, MAX_COMPUTE_UNIT_LIMIT);
  const computeUnitPrice: bigint = scan.unitPrice ?? 0n;
  const priorityFee = ceilDiv(computeUnitPrice * computeUnitLimit, 1_000_000n);
  const networkFeeLamports = LAMPORTS_PER_SIGNATURE * BigInt(numRequiredSignatures) + priorityFee;
  if (networkFeeLamports > maxFeeLamports) {
    problems.push(
      `the network fee would be ${counted(networkFeeLamports, 'lamport', formatInteger(networkFeeLamports))}, above the limit of ` +
        `${formatInteger(maxFeeLamports)} (raise it with --max-fee-lamports)`,
    );
  }
  return { computeUnitLimit, computeUnitPriceMicroLamports: computeUnitPrice, networkFeeLamports };
}

/** Why a System instruction other than the transfer is refused, and what to ask of the service where it is an honest shape. */
function systemRefusal(n: number, kind: number): string {
  const name = SYSTEM_INSTRUCTIONS[kind] ?? (kind === -1 ? 'with malformed data' : `number ${kind}`);
  if (name === 'AdvanceNonceAccount') {
    return (
      `instruction ${n} advances a durable nonce (System AdvanceNonceAccount): a deposit on a nonce never expires, so a ` +
      'copy could be landed at any later time; tell the operator of the service to use a recent blockhash instead'
    );
  }
  if (name === 'CreateAccount' || name === 'CreateAccountWithSeed') {
    return (
      `instruction ${n} creates an account (System ${name}): its rent would be SOL of yours beyond the amount and the fee ` +
      'shown; tell the operator of the service to create the accounts it needs itself, outside your deposit'
    );
  }
  return `instruction ${n} is a System Program ${name} instruction; only one Transfer is allowed`;
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
