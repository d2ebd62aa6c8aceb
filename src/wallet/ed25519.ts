// An Ed25519 public key from its seed through node:crypto (OpenSSL, native). Every run that opens
// a keypair derives its public key to check the file; tweetnacl's pure-JavaScript scalar
// multiplication, cold, cost more CPU than the rest of a read's start-up. Signing stays with
// tweetnacl (wallet/signatures.ts); Ed25519 keys are deterministic, so both give the same key.
import { createPrivateKey, createPublicKey } from 'node:crypto';

/** PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** SPKI DER of an Ed25519 public key is this 12-byte header, then the 32-byte key. */
const SPKI_HEADER_BYTES = 12;

/** The 32-byte public key of a 32-byte seed. */
export function publicKeyFromSeed(seed: Uint8Array): Uint8Array {
  if (seed.length !== 32) throw new TypeError('an ed25519 seed is 32 bytes');
  const der = Buffer.concat([PKCS8_PREFIX, seed]);
  try {
    const spki = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).export({
      format: 'der',
      type: 'spki',
    });
    return new Uint8Array(spki.subarray(SPKI_HEADER_BYTES));
  } finally {
    der.fill(0);
  }
}

/** The 64-byte secret key (seed, then public key: the Solana CLI's and tweetnacl's layout) of a 32-byte seed. */
export function secretKeyFromSeed(seed: Uint8Array): Uint8Array {
  const secretKey = new Uint8Array(64);
  secretKey.set(seed.subarray(0, 32));
  secretKey.set(publicKeyFromSeed(seed), 32);
  return secretKey;
}
