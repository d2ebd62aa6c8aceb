// The sandbox's Ed25519 keys through node:crypto (native). web3.js's Keypair.fromSeed, generate
// and fromSecretKey derive public keys with @noble/curves in JavaScript, whose first use builds
// precomputed tables: about half a second of CPU on every sandbox start, for a dozen fixed
// addresses. The keys are the same bytes (Ed25519 is deterministic); the Keypair objects too.
import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { Keypair } from '@solana/web3.js';

/** PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** SPKI DER of an Ed25519 public key is this 12-byte header, then the 32-byte key. */
const SPKI_HEADER_BYTES = 12;

/** The 32-byte public key of a 32-byte seed. */
export function publicKeyFromSeed(seed: Uint8Array): Uint8Array {
  if (seed.length !== 32) throw new TypeError('an ed25519 seed is 32 bytes');
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  return new Uint8Array(createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(SPKI_HEADER_BYTES));
}

/** web3.js's Keypair.fromSeed, natively. */
export function keypairFromSeed(seed: Uint8Array): Keypair {
  const publicKey = publicKeyFromSeed(seed);
  const secretKey = new Uint8Array(64);
  secretKey.set(seed);
  secretKey.set(publicKey, 32);
  return new Keypair({ publicKey, secretKey });
}

/** web3.js's Keypair.generate, natively. */
export function generateKeypair(): Keypair {
  return keypairFromSeed(randomBytes(32));
}

/** web3.js's Keypair.fromSecretKey, natively: throws when the second half is not the first half's public key. */
export function keypairFromSecretKey(secretKey: Uint8Array): Keypair {
  if (secretKey.length !== 64) throw new Error('bad secret key size');
  const publicKey = publicKeyFromSeed(secretKey.subarray(0, 32));
  if (!publicKey.every((b, i) => b === secretKey[32 + i])) throw new Error('provided secretKey is invalid');
  return new Keypair({ publicKey, secretKey: Uint8Array.from(secretKey) });
}
