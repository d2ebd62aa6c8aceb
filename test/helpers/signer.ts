// A signer over a key in memory, for the flows' unit tests (production signers: src/wallet/owner-wallet.ts).
import bs58 from 'bs58';
import type { Signer } from '../../src/wallet/owner-wallet.js';

/** Gives `secretKey` (64 bytes) to the signing gate, never asking for anything; `unlocked` counts the times. */
export function testSigner(secretKey: Uint8Array): Signer & { unlocked: { n: number } } {
  const unlocked = { n: 0 };
  return {
    publicKey: bs58.encode(secretKey.subarray(32)),
    label: 'a test key',
    checkCanSign() {},
    unlocked,
    unlock: async () => (unlocked.n++, Uint8Array.from(secretKey)),
  };
}
