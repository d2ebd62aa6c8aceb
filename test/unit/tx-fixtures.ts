// Deposit transactions for the unit tests: keys generated per run, an intent to match, and
// builders with their defaults over the shared ones in test/helpers/deposit-transactions.ts.

import { Keypair, type PublicKey, SystemProgram, type TransactionInstruction } from '@solana/web3.js';
import type { BuyIntent } from '../../src/api/types.js';
import {
  computeBudget,
  lookupTable,
  unsignedTransaction,
  type UnsignedOptions,
} from '../helpers/deposit-transactions.js';

export { lookupTable };

export const owner = Keypair.generate();
export const treasury = Keypair.generate().publicKey;
export const stranger = Keypair.generate();
export const MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
export const AMOUNT = 100_000_000n;

export function transfer(lamports: bigint = AMOUNT, to: PublicKey = treasury, from: PublicKey = owner.publicKey) {
  return SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports });
}

export function budget(limit = 200_000, microLamports = 1_000n): TransactionInstruction[] {
  return computeBudget(limit, microLamports);
}

export type BuildOptions = Omit<UnsignedOptions, 'payer' | 'blockhash'> & { payer?: PublicKey };

/** Unsigned wire transaction (zeroed signature slots) as base64, paid by `owner` unless told. */
export function build(instructions: TransactionInstruction[], opts: BuildOptions = {}): string {
  return unsignedTransaction(instructions, { ...opts, payer: opts.payer ?? owner.publicKey });
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

export function bytesOf(base64: string): Uint8Array {
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

export function base64Of(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}
