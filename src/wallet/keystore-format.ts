// The keystore file's format (docs/keys.md): the owner key's 32-byte ed25519 seed encrypted
// with AES-256-GCM under a key scrypt derives from the password, the public key in clear.
// Every other field (public key, scrypt parameters and salt, cipher and nonce, creation time)
// is the cipher's associated data, so a file changed anywhere fails to open with the right
// password as surely as with a wrong one. All from node:crypto.
import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback } from 'node:crypto';
import bs58 from 'bs58';
import { isAddress } from '../domain/address.js';
import { secretKeyFromSeed } from './ed25519.js';

/** The scrypt cost written into new keystores: N = 2^17, r = 8, p = 1 (128 MiB, ~0.3 s here). */
export const WRITE_LOG_N = 17;
/** The least N a keystore may be read with (production): a file with less is refused, not opened. */
export const MIN_LOG_N = 17;
/** The most: a planted file must not make scrypt take gigabytes or minutes. */
const MAX_LOG_N = 20;
const MAX_MEMORY = 1024 * 1024 * 1024;
const R = 8;
const P = 1;
const SALT_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEED_BYTES = 32;
const CIPHER = 'aes-256-gcm';

export interface KeystoreDocument {
  trader: 'keystore';
  version: 1;
  /** Base58 public key of the encrypted key, in clear. */
  publicKey: string;
  /** ISO time the file was written (authenticated like the rest). */
  createdAt: string;
  kdf: { name: 'scrypt'; n: number; r: number; p: number; salt: string };
  cipher: { name: typeof CIPHER; iv: string; tag: string };
  /** Base64 of the encrypted 32-byte seed. */
  ciphertext: string;
}

/** Why a keystore cannot be used; the message names no secret. `kind` routes it (wrong password or damaged file). */
export class KeystoreError extends Error {
  constructor(
    message: string,
    readonly kind: 'format' | 'unlock',
  ) {
    super(message);
  }
}

/** A password as the key derivation takes it: UTF-8 of its NFC form, so the same text typed or filed on any system opens the keystore. */
export function passwordBytes(text: string): Buffer {
  return Buffer.from(text.normalize('NFC'), 'utf8');
}

/** Encrypts the 64-byte secret key (seed and public key) under `password`. */
export async function encryptKey(
  secretKey: Uint8Array,
  password: Uint8Array,
  createdAt: string,
  opts: { logN?: number } = {},
): Promise<KeystoreDocument> {
  if (secretKey.length !== 64) throw new TypeError('secret key must be 64 bytes');
  const n = 2 ** (opts.logN ?? WRITE_LOG_N);
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const head = {
    trader: 'keystore' as const,
    version: 1 as const,
    publicKey: bs58.encode(secretKey.subarray(32)),
    createdAt,
    kdf: { name: 'scrypt' as const, n, r: R, p: P, salt: salt.toString('base64') },
  };
  const key = await deriveKey(password, salt, n, R, P);
  try {
    const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(
      associatedData({ ...head, cipher: { name: CIPHER, iv: iv.toString('base64'), tag: '' }, ciphertext: '' }),
    );
    const ciphertext = Buffer.concat([cipher.update(secretKey.subarray(0, 32)), cipher.final()]);
    return {
      ...head,
      cipher: { name: CIPHER, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64') },
      ciphertext: ciphertext.toString('base64'),
    };
  } finally {
    key.fill(0);
  }
}

/**
 * Opens the keystore: the 64-byte secret key, whose public key is the file's. Throws
 * KeystoreError 'unlock' for a wrong password or a changed file (the cipher cannot tell which).
 */
export async function decryptKey(doc: KeystoreDocument, password: Uint8Array): Promise<Uint8Array> {
  const salt = Buffer.from(doc.kdf.salt, 'base64');
  const key = await deriveKey(password, salt, doc.kdf.n, doc.kdf.r, doc.kdf.p);
  let seed: Buffer;
  try {
    const decipher = createDecipheriv(CIPHER, key, Buffer.from(doc.cipher.iv, 'base64'), { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData(doc));
    decipher.setAuthTag(Buffer.from(doc.cipher.tag, 'base64'));
    seed = Buffer.concat([decipher.update(Buffer.from(doc.ciphertext, 'base64')), decipher.final()]);
  } catch {
    throw new KeystoreError('wrong password, or the keystore file was changed (it does not authenticate)', 'unlock');
  } finally {
    key.fill(0);
  }
  const secretKey = secretKeyFromSeed(seed);
  seed.fill(0);
  // Authenticated already; this only guards against a bug writing one key under another's name.
  if (bs58.encode(secretKey.subarray(32)) !== doc.publicKey) {
    secretKey.fill(0);
    throw new KeystoreError('the keystore holds another key than its public key says', 'unlock');
  }
  return secretKey;
}

/**
 * Checks the file's JSON is a keystore this version reads, with scrypt at least 2^minLogN
 * (production: MIN_LOG_N). Nothing of the content is quoted in an error.
 */
export function parseKeystore(text: string, minLogN = MIN_LOG_N): KeystoreDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new KeystoreError('is not JSON (truncated or damaged)', 'format');
  }
  const fail = (why: string): never => {
    throw new KeystoreError(why, 'format');
  };
  const obj = (v: unknown, what: string, keys: string[]): Record<string, unknown> => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`${what} is not an object`);
    const got = Object.keys(v as object).sort();
    if (got.join(',') !== [...keys].sort().join(','))
      fail(`${what} has fields ${got.join(', ') || 'none'}; expected ${keys.join(', ')}`);
    return v as Record<string, unknown>;
  };
  const doc = obj(raw, 'the keystore', ['trader', 'version', 'publicKey', 'createdAt', 'kdf', 'cipher', 'ciphertext']);
  if (doc.trader !== 'keystore') fail('is not a trader keystore');
  if (doc.version !== 1) fail(`is keystore version ${JSON.stringify(doc.version)}; this trader reads version 1`);
  if (typeof doc.publicKey !== 'string' || !isAddress(doc.publicKey)) fail('has no valid public key');
  if (typeof doc.createdAt !== 'string' || doc.createdAt.length > 40) fail('has no valid creation time');
  const kdf = obj(doc.kdf, 'kdf', ['name', 'n', 'r', 'p', 'salt']);
  if (kdf.name !== 'scrypt') fail('kdf is not scrypt');
  const { n, r, p } = kdf;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 2 || (n & (n - 1)) !== 0)
    fail('scrypt N is not a power of two');
  if ((n as number) < 2 ** minLogN)
    fail(`scrypt N is ${n}, below the least this trader accepts (2^${minLogN}); it was not written by trader`);
  if ((n as number) > 2 ** MAX_LOG_N) fail(`scrypt N is ${n}, above the most this trader accepts (2^${MAX_LOG_N})`);
  if (typeof r !== 'number' || !Number.isInteger(r) || r < 1 || r > 32) fail('scrypt r is not 1 to 32');
  if (typeof p !== 'number' || !Number.isInteger(p) || p < 1 || p > 16) fail('scrypt p is not 1 to 16');
  if (128 * (n as number) * (r as number) > MAX_MEMORY) fail('scrypt parameters would need more than 1 GiB of memory');
  base64Field(kdf.salt, 'scrypt salt', (len) => len >= 16 && len <= 64);
  const cipher = obj(doc.cipher, 'cipher', ['name', 'iv', 'tag']);
  if (cipher.name !== CIPHER) fail(`cipher is not ${CIPHER}`);
  base64Field(cipher.iv, 'cipher iv', (len) => len === IV_BYTES);
  base64Field(cipher.tag, 'cipher tag', (len) => len === TAG_BYTES);
  base64Field(doc.ciphertext, 'ciphertext', (len) => len === SEED_BYTES);
  return doc as unknown as KeystoreDocument;
}

/** The file's text for a document: one JSON object, fields in a fixed order. */
export function formatKeystore(doc: KeystoreDocument): string {
  const { trader, version, publicKey, createdAt, kdf, cipher, ciphertext } = doc;
  return JSON.stringify({ trader, version, publicKey, createdAt, kdf, cipher, ciphertext }, null, 2) + '\n';
}

/** Everything but the tag and ciphertext, in a fixed order: what GCM authenticates besides the seed. */
function associatedData(doc: KeystoreDocument): Buffer {
  const { publicKey, createdAt, kdf, cipher } = doc;
  return Buffer.from(
    JSON.stringify([
      'trader-keystore',
      doc.version,
      publicKey,
      createdAt,
      kdf.name,
      kdf.n,
      kdf.r,
      kdf.p,
      kdf.salt,
      cipher.name,
      cipher.iv,
    ]),
    'utf8',
  );
}

function deriveKey(password: Uint8Array, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  // Node refuses scrypt above 32 MiB unless maxmem is raised; N = 2^17, r = 8 needs 128 MiB.
  const maxmem = 128 * n * r + 1024 * 1024;
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, 32, { N: n, r, p, maxmem }, (err, key) =>
      err ? reject(new KeystoreError(`scrypt failed: ${err.message}`, 'format')) : resolve(key),
    ),
  );
}

function base64Field(value: unknown, what: string, lengthOk: (bytes: number) => boolean): void {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0)
    throw new KeystoreError(`${what} is not base64`, 'format');
  if (!lengthOk(Buffer.from(value, 'base64').length)) throw new KeystoreError(`${what} has the wrong length`, 'format');
}
