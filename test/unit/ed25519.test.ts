// The native key derivation (node:crypto) gives tweetnacl's keys exactly (tweetnacl signs with
// them): RFC 8032's first test vector, and 100 seeded seeds against tweetnacl itself.
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { publicKeyFromSeed, secretKeyFromSeed } from '../../src/wallet/ed25519.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const bytes = (n: number, from: number) => Uint8Array.from({ length: n }, (_, i) => (from * 31 + i * 7) & 0xff);

describe('ed25519 keys over node:crypto', () => {
  it('RFC 8032 test 1: the public key of its seed', () => {
    const seed = hex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    const publicKey = hex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    expect(publicKeyFromSeed(seed)).toEqual(publicKey);
    expect(secretKeyFromSeed(seed)).toEqual(Uint8Array.from([...seed, ...publicKey]));
  });

  it("the same keys as tweetnacl's, which signs with them", () => {
    for (let n = 0; n < 100; n++) {
      const seed = bytes(32, n);
      expect(secretKeyFromSeed(seed)).toEqual(nacl.sign.keyPair.fromSeed(seed).secretKey);
    }
  });

  it('refuses a seed of the wrong length', () => {
    expect(() => publicKeyFromSeed(new Uint8Array(31))).toThrow('32 bytes');
    expect(() => publicKeyFromSeed(new Uint8Array(33))).toThrow('32 bytes');
  });
});
