// A signer over a key in memory, for the flows' unit tests (production signers: src/wallet/signer.ts).
import bs58 from 'bs58';
import { signDepositTransaction, signMessage } from '../../src/wallet/signing.js';
import type { Signer } from '../../src/wallet/signer.js';

/** Signs with `secretKey` (64 bytes), never asking for anything. */
export function testSigner(secretKey: Uint8Array): Signer {
  return {
    publicKey: bs58.encode(secretKey.subarray(32)),
    label: 'a test key',
    checkCanSign() {},
    signDeposit: async (transactionBase64) => signDepositTransaction(transactionBase64, secretKey),
    signMessage: async (message) => signMessage(message, secretKey),
  };
}
