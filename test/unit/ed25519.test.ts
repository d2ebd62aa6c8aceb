// The sandbox derives its fixed addresses and wallets with node:crypto (web3.js's Keypair builds
// its tables on first use): the same keys as web3.js, and a corrupt secret key still refused.
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import * as sandbox from '../../src/sandbox/ed25519.js';

const bytes = (n: number, from: number) => Uint8Array.from({ length: n }, (_, i) => (from * 31 + i * 7) & 0xff);

describe("the sandbox's Ed25519 over node:crypto", () => {
  it("the sandbox's own copy: web3.js's Keypair.fromSeed and fromSecretKey, the same keys; a corrupt secret key refused", () => {
    for (let n = 0; n < 5; n++) {
      const seed = bytes(32, n);
      const web3 = Keypair.fromSeed(seed);
      expect(sandbox.keypairFromSeed(seed).secretKey).toEqual(web3.secretKey);
      expect(sandbox.keypairFromSecretKey(web3.secretKey).publicKey.toBase58()).toBe(web3.publicKey.toBase58());
    }
    const corrupt = Keypair.fromSeed(bytes(32, 9)).secretKey;
    corrupt[40]! ^= 1;
    expect(() => sandbox.keypairFromSecretKey(corrupt)).toThrow('invalid');
    expect(sandbox.generateKeypair().publicKey.toBase58()).not.toBe(sandbox.generateKeypair().publicKey.toBase58());
  });
});
