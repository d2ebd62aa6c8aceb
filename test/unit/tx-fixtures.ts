// Builders of deposit transactions for the unit tests, made with @solana/web3.js (an independent
// encoder, so the decoder is not checked against itself). Keys are generated per run.

import {
  AddressLookupTableAccount,
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import type { BuyIntent } from '../../src/api/types.js';

export const owner = Keypair.generate();
export const treasury = Keypair.generate().publicKey;
export const stranger = Keypair.generate();
export const MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
export const AMOUNT = 100_000_000n;

export function randomBlockhash(): string {
  return bs58.encode(nacl.randomBytes(32));
}

export function transfer(lamports: bigint = AMOUNT, to: PublicKey = treasury, from: PublicKey = owner.publicKey) {
  return SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports });
}

export function budget(limit = 200_000, microLamports = 1_000n): TransactionInstruction[] {
  return [
    ComputeBudgetProgram.setComputeUnitLimit({ units: limit }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports }),
  ];
}

export interface BuildOptions {
  payer?: PublicKey;
  version?: 'legacy' | 0;
  lookupTables?: AddressLookupTableAccount[];
}

/** Unsigned wire transaction (zeroed signature slots) as base64. */
export function build(instructions: TransactionInstruction[], opts: BuildOptions = {}): string {
  const message = new TransactionMessage({
    payerKey: opts.payer ?? owner.publicKey,
    recentBlockhash: randomBlockhash(),
    instructions,
  });
  const compiled =
    opts.version === 'legacy' ? message.compileToLegacyMessage() : message.compileToV0Message(opts.lookupTables ?? []);
  return Buffer.from(new VersionedTransaction(compiled).serialize()).toString('base64');
}

export function goodDeposit(version: 'legacy' | 0 = 0): string {
  return build([...budget(), transfer()], { version });
}

export function intent(overrides: Partial<BuyIntent> = {}): BuyIntent {
  return {
    id: '0b9f3a2e-8d6c-4a55-9a43-2f5d9b8e1c11',
    status: 'awaiting_deposit',
    outputMint: MINT,
    amountLamports: AMOUNT.toString(),
    minimumOutputAmount: '123456',
    depositExpiresAt: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

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

export function bytesOf(base64: string): Uint8Array {
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

export function base64Of(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}
