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

/** A transaction signature as the chain shows one: base58 of 64 random bytes. */
export function newSignature(): string {
  return bs58.encode(randomBytes(64));
}

/** An API key value: `sk_sandbox_` + 32 random base58 characters. */
export function newApiKeyValue(): string {
  return `sk_sandbox_${randomBase58(32)}`;
}

/** Sell authorization ids carry the `sell_` prefix the API document names. */
export function newAuthorizationId(): string {
  return `sell_${randomBase58(22)}`;
}

/** Sell order group keys: `sg_` + 22 base58 characters. */
export function newSellGroupId(): string {
  return `sg_${randomBase58(22)}`;
}
