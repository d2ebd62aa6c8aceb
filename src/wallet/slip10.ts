// SLIP-0010 ed25519 derivation (github.com/satoshilabs/slips, slip-0010.md): HMAC-SHA512 keyed
// "ed25519 seed" over the seed gives the master key and chain code; each child is
// HMAC-SHA512(chain code, 0x00 || key || index | 2^31). ed25519 has hardened children only.
// The same steps as the Solana SDK's bip32_derived_keypair (anza-xyz/solana-sdk
// keypair/src/seed_derivable.rs). Written here over node:crypto rather than taken from a
// package: it is these few lines, and the packages that do it bring a second ed25519 and hash
// library (tests check it against SLIP-0010's test vector 1).
import { createHmac } from 'node:crypto';
import type { DerivationPath } from './signer-source.js';

const HARDENED = 0x80000000;

/** The private key (32 bytes) and chain code at `path` below the master key of `seed`. */
export function deriveEd25519(seed: Uint8Array, path: DerivationPath): { key: Buffer; chainCode: Buffer } {
  let out = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  const data = Buffer.alloc(37);
  for (const index of path) {
    if (!Number.isInteger(index) || index < 0 || index >= HARDENED)
      throw new RangeError(`derivation index ${index} out of range`);
    data[0] = 0;
    out.copy(data, 1, 0, 32);
    data.writeUInt32BE(index + HARDENED, 33);
    const next = createHmac('sha512', out.subarray(32)).update(data).digest();
    out.fill(0);
    out = next;
  }
  data.fill(0);
  const key = Buffer.from(out.subarray(0, 32));
  const chainCode = Buffer.from(out.subarray(32));
  out.fill(0);
  return { key, chainCode };
}
