// The keystore's format: scrypt + AES-256-GCM with everything but the tag and ciphertext as
// associated data. Most cases here write with N = 2^10 through encryptKey's parameter and read
// with parseKeystore's minimum lowered to match (function arguments a production caller never
// passes); one round trip uses the production cost, and the production reader refuses less.
import nacl from 'tweetnacl';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import {
  decryptKey,
  encryptKey,
  formatKeystore,
  KeystoreError,
  parseKeystore,
  passwordBytes,
  WRITE_LOG_N,
  type KeystoreDocument,
} from '../../src/wallet/keystore-format.js';

const pair = nacl.sign.keyPair();
const password = passwordBytes('correct horse battery staple');
const LOW = 10;
const cheap = () => encryptKey(pair.secretKey, password, '2026-01-02T03:04:05.000Z', { logN: LOW });
const reread = (doc: KeystoreDocument) => parseKeystore(formatKeystore(doc), LOW);

describe('keystore format', () => {
  it('round trip at the production cost (N = 2^17, r = 8, p = 1): the secret key comes back, the public key is in clear', async () => {
    const doc = await encryptKey(pair.secretKey, password, '2026-01-02T03:04:05.000Z');
    expect(doc.kdf).toMatchObject({ name: 'scrypt', n: 2 ** 17, r: 8, p: 1 });
    expect(WRITE_LOG_N).toBe(17);
    expect(doc.publicKey).toBe(bs58.encode(pair.publicKey));
    const text = formatKeystore(doc);
    // Neither the seed nor the secret key is anywhere in the file.
    expect(text).not.toContain(Buffer.from(pair.secretKey.subarray(0, 32)).toString('base64'));
    expect(text).not.toContain(bs58.encode(pair.secretKey));
    expect(Array.from(await decryptKey(parseKeystore(text), password))).toEqual(Array.from(pair.secretKey));
  });

  it('each write has a fresh salt and nonce', async () => {
    const [a, b] = await Promise.all([cheap(), cheap()]);
    expect(a.kdf.salt).not.toBe(b.kdf.salt);
    expect(a.cipher.iv).not.toBe(b.cipher.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it('a wrong password does not open it', async () => {
    const doc = reread(await cheap());
    await expect(decryptKey(doc, passwordBytes('correct horse battery stapl'))).rejects.toMatchObject({
      kind: 'unlock',
    });
  });

  // Every field changed, with the right password: the cipher refuses (the parameters and public key are authenticated).
  it.each<[string, (d: KeystoreDocument) => void]>([
    ['the public key', (d) => (d.publicKey = bs58.encode(nacl.sign.keyPair().publicKey))],
    ['the creation time', (d) => (d.createdAt = '2027-01-02T03:04:05.000Z')],
    ['scrypt N', (d) => (d.kdf.n = 2 ** (LOW + 1))],
    ['scrypt r', (d) => (d.kdf.r = 4)],
    ['scrypt p', (d) => (d.kdf.p = 2)],
    ['the salt', (d) => (d.kdf.salt = flip(d.kdf.salt))],
    ['the nonce', (d) => (d.cipher.iv = flip(d.cipher.iv))],
    ['the tag', (d) => (d.cipher.tag = flip(d.cipher.tag))],
    ['the ciphertext', (d) => (d.ciphertext = flip(d.ciphertext))],
  ])('tampered %s: does not authenticate', async (_, change) => {
    const doc = reread(await cheap());
    change(doc);
    const error = await decryptKey(reread(doc), password).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KeystoreError);
    expect((error as KeystoreError).kind).toBe('unlock');
    expect((error as Error).message).toBe(
      'wrong password, or the keystore file was changed (it does not authenticate)',
    );
  });

  it('the production reader refuses scrypt below 2^17 (a weakened file is not opened)', async () => {
    const text = formatKeystore(await cheap());
    expect(() => parseKeystore(text)).toThrow(/scrypt N is 1024, below the least this trader accepts \(2\^17\)/);
    expect(() => parseKeystore(text, LOW)).not.toThrow();
  });

  it.each<[string, (t: string) => string, RegExp]>([
    ['truncated', (t) => t.slice(0, t.length - 20), /is not JSON \(truncated or damaged\)/],
    ['empty', () => '', /is not JSON/],
    ['not a keystore', () => '[1,2,3]', /is not an object/],
    ['an extra field', (t) => t.replace('{', '{"note":"x",'), /has fields .*; expected/],
    ['another version', (t) => t.replace('"version": 1', '"version": 2'), /version 2; this trader reads version 1/],
    ['another cipher', (t) => t.replace('aes-256-gcm', 'aes-128-ctr'), /cipher is not aes-256-gcm/],
    ['N not a power of two', (t) => t.replace('"n": 1024', '"n": 1000'), /not a power of two/],
    ['N past 2^20', (t) => t.replace('"n": 1024', `"n": ${2 ** 21}`), /above the most/],
    [
      'a short ciphertext',
      (t) => t.replace(/"ciphertext": "[^"]+"/, '"ciphertext": "AAAA"'),
      /ciphertext has the wrong length/,
    ],
    ['a bad public key', (t) => t.replace(/"publicKey": "[^"]+"/, '"publicKey": "0OIl"'), /no valid public key/],
  ])('%s: refused before any key derivation', async (_, change, message) => {
    const text = change(formatKeystore(await cheap()));
    expect(() => parseKeystore(text, LOW)).toThrow(message);
  });
});

/** The same base64 with its first byte changed. */
function flip(b64: string): string {
  const bytes = Buffer.from(b64, 'base64');
  bytes[0] ^= 1;
  return bytes.toString('base64');
}
