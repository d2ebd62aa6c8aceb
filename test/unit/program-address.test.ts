// Our PDA derivation and curve check against @solana/web3.js's (the reference the runtime's rule
// is known by), on seeded random inputs and the curve's edge encodings.
import { Keypair, PublicKey } from '@solana/web3.js';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findProgramAddress, isOnCurve } from '../../src/chain/program-address.js';
import { metaplexMetadataAddress } from '../../src/chain/chain-token-facts.js';
import { METAPLEX_PROGRAM } from '../../src/chain/token-layouts.js';

/** Deterministic 32-byte values: sha256 of a counter. */
const seeded = (n: number) => new Uint8Array(createHash('sha256').update(`seed-${n}`).digest());

/** 2^255 - 19 as 32 little-endian bytes, plus `add`, with the sign bit as given. */
function encodedY(add: bigint, sign: boolean): Uint8Array {
  let y = 2n ** 255n - 19n + add;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    out[i] = Number(y & 0xffn);
    y >>= 8n;
  }
  if (sign) out[31]! |= 0x80;
  return out;
}

describe('isOnCurve', () => {
  it('agrees with web3.js on 300 seeded values (about half are points)', () => {
    let points = 0;
    for (let n = 0; n < 300; n++) {
      const bytes = seeded(n);
      const ours = isOnCurve(bytes);
      expect(ours, `seed ${n}`).toBe(PublicKey.isOnCurve(bytes));
      if (ours) points++;
    }
    expect(points).toBeGreaterThan(100);
    expect(points).toBeLessThan(200);
  });

  it('every real public key is on the curve', () => {
    for (let n = 0; n < 20; n++) expect(isOnCurve(Keypair.fromSeed(seeded(n)).publicKey.toBytes())).toBe(true);
  });

  it('edge encodings: y = p - 1, p, p + 1; y = 1 (x = 0) with and without the sign bit; a wrong length', () => {
    const cases = [encodedY(-1n, false), encodedY(0n, false), encodedY(1n, false), encodedY(-1n, true)];
    const one = new Uint8Array(32);
    one[0] = 1;
    const oneSigned = Uint8Array.from(one);
    oneSigned[31] = 0x80;
    for (const bytes of [...cases, one, oneSigned]) expect(isOnCurve(bytes)).toBe(PublicKey.isOnCurve(bytes));
    expect(isOnCurve(one)).toBe(true);
    expect(isOnCurve(oneSigned)).toBe(false);
    expect(isOnCurve(encodedY(0n, false))).toBe(false);
    expect(isOnCurve(new Uint8Array(31))).toBe(false);
  });
});

describe('findProgramAddress', () => {
  it("gives web3.js's address and bump for 100 seeded mints under the Metaplex program", () => {
    const program = new PublicKey(METAPLEX_PROGRAM);
    let belowTop = 0;
    for (let n = 0; n < 100; n++) {
      const mint = new PublicKey(seeded(1000 + n));
      const [address, bump] = PublicKey.findProgramAddressSync(
        [Buffer.from('metadata'), program.toBuffer(), mint.toBuffer()],
        program,
      );
      expect(metaplexMetadataAddress(mint.toBase58())).toBe(address.toBase58());
      const ours = findProgramAddress([Buffer.from('metadata'), program.toBuffer(), mint.toBuffer()], METAPLEX_PROGRAM);
      expect(ours).toEqual({ address: address.toBase58(), bump });
      if (bump < 255) belowTop++;
    }
    // The walk down from 255 is exercised: some seeds' first hash is a point.
    expect(belowTop).toBeGreaterThan(10);
  });

  it('refuses a mint that is not an address', () => {
    expect(() => metaplexMetadataAddress('not-a-mint')).toThrow(/not an address/);
    expect(() => metaplexMetadataAddress('1111111111111111111111111111111')).toThrow(/not an address/);
  });
});
