// Builders of unsigned Solana transactions for tests of what the client refuses to sign, made
// with @solana/web3.js: an encoder independent of the client's own decoder, so a check is never
// run against the code it checks.
import {
  AddressLookupTableAccount,
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';

export interface UnsignedOptions {
  payer: PublicKey;
  /** Default: a random one (the decoder does not check it). */
  blockhash?: string;
  /** Default: a version 0 transaction. */
  version?: 'legacy' | 0;
  lookupTables?: AddressLookupTableAccount[];
}

/** Base64 of the unsigned wire transaction (its signature slots zeroed), as a service would send it. */
export function unsignedTransaction(instructions: TransactionInstruction[], opts: UnsignedOptions): string {
  const message = new TransactionMessage({
    payerKey: opts.payer,
    recentBlockhash: opts.blockhash ?? randomBlockhash(),
    instructions,
  });
  const compiled =
    opts.version === 'legacy' ? message.compileToLegacyMessage() : message.compileToV0Message(opts.lookupTables ?? []);
  return Buffer.from(new VersionedTransaction(compiled).serialize()).toString('base64');
}

export function randomBlockhash(): string {
  return bs58.encode(nacl.randomBytes(32));
}

/** The two Compute Budget instructions that set the unit limit and the price per unit. */
export function computeBudget(units: number, microLamports: number | bigint): TransactionInstruction[] {
  return [
    ComputeBudgetProgram.setComputeUnitLimit({ units }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports }),
  ];
}

/** An active address lookup table holding `addresses`. */
export function lookupTable(addresses: PublicKey[]): AddressLookupTableAccount {
  return new AddressLookupTableAccount({
    key: Keypair.generate().publicKey,
    state: {
      deactivationSlot: 2n ** 64n - 1n,
      lastExtendedSlot: 0,
      lastExtendedSlotStartIndex: 0,
      authority: undefined,
      addresses,
    },
  });
}

export const MEMO_V1 = new PublicKey('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');
export const MEMO_V3 = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
export const ASSOCIATED_TOKEN_PROGRAM = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');

/** An SPL Memo instruction: `text` (or raw bytes) as its data, `signers` as its accounts. */
export function memoInstruction(
  text: string | Uint8Array,
  opts: { program?: PublicKey; signers?: PublicKey[] } = {},
): TransactionInstruction {
  return new TransactionInstruction({
    programId: opts.program ?? MEMO_V3,
    keys: (opts.signers ?? []).map((pubkey) => ({ pubkey, isSigner: true, isWritable: false })),
    data: Buffer.from(typeof text === 'string' ? new TextEncoder().encode(text) : text),
  });
}
