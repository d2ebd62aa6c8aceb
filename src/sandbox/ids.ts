// Random identifiers of every kind the sandbox hands out.
import { randomBytes, randomUUID } from 'node:crypto';
import bs58 from 'bs58';

/** A random RFC 4122 v4 UUID. */
export function newUuid(): string {
  return randomUUID();
}

/** `n` random base58 characters (from more random bytes than needed, so every char is random). */
export function randomBase58(n: number): string {
  let out = '';
  while (out.length < n) out += bs58.encode(randomBytes(32)).slice(1);
  return out.slice(0, n);
}

/** Request ids are opaque; a prefix makes them easy to spot in logs. */
export function newRequestId(): string {
  return `req_${randomBytes(8).toString('hex')}`;
}

const ALPHABET_CODES = Buffer.from('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 'latin1');

// Random bytes are drawn in batches: one syscall per 1,024 signatures.
let pool = Buffer.alloc(0);
let poolOffset = 0;

/**
 * A transaction signature as the chain shows one: base58 of 64 bytes. Built as 87 random base58
 * digits whose first digit is at least '3', which always decodes to exactly 64 bytes; this is far
 * cheaper than encoding random bytes, which matters when seeding 50,000 entries.
 */
export function newSignature(): string {
  if (poolOffset + 87 > pool.length) {
    pool = randomBytes(87 * 1024);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, (poolOffset += 87)));
  bytes[0] = ALPHABET_CODES[2 + (bytes[0]! % 56)]!;
  for (let i = 1; i < 87; i++) bytes[i] = ALPHABET_CODES[bytes[i]! % 58]!;
  return bytes.toString('latin1');
}

/** An API key value: `sk_sandbox_` + 32 random base58 characters. */
export function newApiKeyValue(): string {
  return `sk_sandbox_${randomBase58(32)}`;
}

/** Digits and consonants: an id that can never spell a word by chance. */
const CONSONANTS = '123456789BCDFGHJKLMNPQRSTVWXZbcdfghjkmnpqrstvwxz';

/** Sell authorization ids carry the `sell_` prefix the API document names; the rest is opaque. */
export function newAuthorizationId(): string {
  const bytes = randomBytes(22);
  return `sell_${Array.from(bytes, (b) => CONSONANTS[b % CONSONANTS.length]).join('')}`;
}

/** Sell order group keys: `sg_` + 22 base58 characters. */
export function newSellGroupId(): string {
  return `sg_${randomBase58(22)}`;
}
