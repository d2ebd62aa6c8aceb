// Program-derived addresses (PDAs), as the Solana runtime derives them: sha256 of the seeds, a
// bump byte, the program and "ProgramDerivedAddress", for the first bump from 255 down whose hash
// is not a point on the ed25519 curve (so no private key can sign for it). Written here, in
// BigInt arithmetic, so reading a token's metadata needs no @solana/web3.js (≈ 180 ms to load).
import { createHash } from 'node:crypto';
import bs58 from 'bs58';

const P = 2n ** 255n - 19n;
const MASK = 2n ** 255n - 1n;
/** The curve's d = -121665 / 121666 (mod p). */
const D = (-121665n * power(121666n, P - 2n)) % P;

function mod(a: bigint): bigint {
  const r = a % P;
  return r < 0n ? r + P : r;
}

/** a·b mod p for a, b in [0, p): 2^255 ≡ 19, so folding the high bits is cheaper than a division. */
function times(a: bigint, b: bigint): bigint {
  let x = a * b;
  x = (x & MASK) + 19n * (x >> 255n);
  x = (x & MASK) + 19n * (x >> 255n);
  return x >= P ? x - P : x;
}

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = times(result, b);
    b = times(b, b);
  }
  return result;
}

/**
 * Whether 32 bytes are the encoding of a point on the ed25519 curve, as the runtime (and
 * web3.js's isOnCurve) decides: y below p, x² = (y² − 1) / (d·y² + 1) a square, and not x = 0
 * with the sign bit set.
 */
export function isOnCurve(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? bytes[i]! & 0x7f : bytes[i]!);
  const signBit = (bytes[31]! & 0x80) !== 0;
  if (y >= P) return false;
  const y2 = times(y, y);
  const u = mod(y2 - 1n);
  const v = mod(times(D, y2) + 1n);
  // x² = u/v; v is never 0 (d is not a square). x = 0 exactly when u = 0.
  if (u === 0n) return !signBit;
  // Euler's criterion: u/v is a square exactly when u·v is (the Legendre symbol is multiplicative
  // and v, 1/v have the same one), i.e. when (u·v)^((p-1)/2) = 1.
  return power(times(u, v), (P - 1n) / 2n) === 1n;
}

/** The program-derived address of `seeds` under `program` (base58), with its bump. */
export function findProgramAddress(seeds: readonly Uint8Array[], program: string): { address: string; bump: number } {
  const programBytes = bs58.decode(program);
  for (let bump = 255; bump >= 0; bump--) {
    const hash = createHash('sha256');
    for (const seed of seeds) hash.update(seed);
    hash.update(Uint8Array.of(bump)).update(programBytes).update('ProgramDerivedAddress');
    const candidate = new Uint8Array(hash.digest());
    if (!isOnCurve(candidate)) return { address: bs58.encode(candidate), bump };
  }
  throw new Error('no program address: every bump gives a point on the curve');
}
