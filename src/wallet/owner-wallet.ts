// The owner wallet as the flows see it: its public key from the start, its secret key only when
// the signing gate (trade/signing-gate.ts, the one caller of unlock) signs, wiped right after. A keystore is decrypted then (its password
// asked or read only then); a keypair file is read again then (and must still be the same
// key); a key typed or piped in (prompt:, stdin:) is held from the start, since it cannot be
// asked for twice, and wiped after its one signature. Knows no terminal: what it must ask comes
// through the injected functions.
// What only some sources need (the keystore's cipher, the seed phrase's BIP-39) is loaded when it is needed: a read opens a signer too.
import bs58 from 'bs58';
import { UsageError } from '../domain/errors.js';
import { secretKeyFromSeed } from './ed25519.js';
import type { KeystoreDocument } from './keystore-format.js';
import { loadKeypair, parseSecretKeyText } from './keypair.js';
import { describeSource, formatPath, type SignerSource } from './signer-source.js';
import { NOTHING_SIGNED } from '../domain/outcome-words.js';

export interface Signer {
  /** Base58 public key, known without the secret. */
  readonly publicKey: string;
  /** What it is, for messages (a path or a keystore's name; never a secret). */
  readonly label: string;
  /** Throws a UsageError (exit 2) now, before anything is sent, when this run could not sign (no way to get a keystore's password). */
  checkCanSign(): void;
  /**
   * The 64-byte secret key, obtained now (a keystore's password asked, a keypair file read again,
   * a typed key given up): the caller wipes it. Only the signing gate (trade/signing-gate.ts) calls it.
   */
  unlock(): Promise<Uint8Array>;
}

/** Where a keystore's password comes from in this run. */
export interface PasswordSource {
  /** Why none can be had (no file given and no one to ask), or null. */
  unavailable(keystore: string): string | null;
  /** How many wrong passwords may be tried (a file: 1; a person at a prompt: 3). */
  attempts: number;
  /** The password (a JavaScript string cannot be wiped; its bytes are, after use); `attempt` counts from 1. */
  get(keystore: string, attempt: number): Promise<string>;
  /** Where it came from, for the wrong-password message. */
  origin: string;
}

/** What opening a source needs from the run. */
export interface SignerDeps {
  /** The keystore's file text, after its folder and file checks (config/keystore-files.ts). */
  readKeystore(name: string): string;
  passwords: PasswordSource;
  /** Standard input's whole text, read once (or a hidden prompt for it on a terminal). */
  readStdin(what: string): Promise<string>;
  /** A hidden prompt; throws a UsageError when no person can answer. */
  askSecret(message: string): Promise<string>;
  /** Non-fatal findings (a keypair file others can read). */
  warn(line: string): void;
}

const CODE = 'KEYPAIR';

/** Opens the source: its public key now, its secret at signing time (see the header). */
export async function openSigner(source: SignerSource, deps: SignerDeps): Promise<Signer> {
  const label = describeSource(source);
  switch (source.kind) {
    case 'file': {
      const first = loadKeypair(source.path);
      first.secretKey.fill(0);
      for (const warning of first.warnings) deps.warn(warning);
      const publicKey = first.publicKey;
      return signerOf(
        publicKey,
        label,
        () => null,
        async () => {
          const now = loadKeypair(source.path);
          if (now.publicKey !== publicKey) {
            now.secretKey.fill(0);
            throw new UsageError(
              `keypair file ${source.path} changed during this run: it now holds wallet ${now.publicKey}, not ${publicKey}; ${NOTHING_SIGNED}`,
              CODE,
            );
          }
          return now.secretKey;
        },
      );
    }
    case 'keystore': {
      const doc = await openKeystore(source.name, deps);
      return signerOf(
        doc.publicKey,
        label,
        () => deps.passwords.unavailable(source.name),
        () => unlockKeystore(source.name, doc, deps.passwords),
      );
    }
    case 'stdin':
    case 'prompt': {
      let held: Uint8Array | null = await readSecretKey(source, deps);
      const publicKey = bs58.encode(held.subarray(32));
      return signerOf(
        publicKey,
        label,
        () => null,
        async () => {
          if (held === null)
            throw new UsageError(`${label} was used for a signature already; it is read once a run`, CODE);
          const copy = Uint8Array.from(held);
          held.fill(0);
          held = null;
          return copy;
        },
      );
    }
  }
}

/** The keystore's document, checked (public key in clear); throws a UsageError (KEYSTORE) naming the file's fault. */
export async function openKeystore(name: string, deps: Pick<SignerDeps, 'readKeystore'>): Promise<KeystoreDocument> {
  const text = deps.readKeystore(name);
  const { KeystoreError, parseKeystore } = await import('./keystore-format.js');
  try {
    return parseKeystore(text);
  } catch (err) {
    if (err instanceof KeystoreError) throw new UsageError(`keystore ${name} ${err.message}; refused`, 'KEYSTORE');
    throw err;
  }
}

/** Decrypts the keystore with a password from `passwords` (a person gets three tries); the 64-byte secret key. */
export async function unlockKeystore(
  name: string,
  doc: KeystoreDocument,
  passwords: PasswordSource,
): Promise<Uint8Array> {
  const why = passwords.unavailable(name);
  if (why) throw new UsageError(why, 'PASSWORD_REQUIRED');
  const { decryptKey, KeystoreError, passwordBytes } = await import('./keystore-format.js');
  for (let attempt = 1; ; attempt++) {
    const password = passwordBytes(await passwords.get(name, attempt));
    try {
      return await decryptKey(doc, password);
    } catch (err) {
      if (!(err instanceof KeystoreError)) throw err;
      if (attempt >= passwords.attempts) {
        throw new UsageError(
          `keystore ${name} did not open: ${err.message} (password from ${passwords.origin}); ${NOTHING_SIGNED}`,
          'KEYSTORE_PASSWORD',
        );
      }
    } finally {
      password.fill(0);
    }
  }
}

/**
 * The 64-byte secret key a typed or piped source gives (`keys import`, and stdin:/prompt:
 * signers). A file source is read as a Solana CLI keypair file.
 */
export async function readSecretKey(
  source: SignerSource,
  deps: Pick<SignerDeps, 'readStdin' | 'askSecret' | 'warn'>,
): Promise<Uint8Array> {
  switch (source.kind) {
    case 'file': {
      const loaded = loadKeypair(source.path);
      for (const warning of loaded.warnings) deps.warn(warning);
      return loaded.secretKey;
    }
    case 'stdin':
      return parseSecretKeyText(
        await deps.readStdin('the keypair (a JSON array of 64 numbers, or a base58 secret key)'),
        'the keypair on standard input',
      );
    case 'prompt': {
      const { keySeedFromPhrase, phraseProblem } = await import('./seed-phrase.js');
      const phrase = await deps.askSecret('Seed phrase (hidden)');
      const problem = await phraseProblem(phrase);
      if (problem) throw new UsageError(`the seed phrase is not valid: ${problem}`, CODE);
      const passphrase = await deps.askSecret('BIP-39 passphrase, if the phrase has one (Enter for none)');
      // A mistyped passphrase is another wallet, silently: asked twice, as the Solana CLI does.
      if (passphrase !== '' && (await deps.askSecret('The same passphrase again')) !== passphrase) {
        throw new UsageError('the two passphrases differ; nothing was read', CODE);
      }
      const seed = await keySeedFromPhrase(phrase, passphrase, source.path);
      const secretKey = secretKeyFromSeed(seed);
      seed.fill(0);
      return secretKey;
    }
    case 'keystore':
      throw new UsageError(`${describeSource(source)} is a keystore already: use it as keystore:${source.name}`, CODE);
  }
}

/** The derivation a prompt: source uses, as words for messages. */
export function derivationWords(source: Extract<SignerSource, { kind: 'prompt' }>): string {
  return source.path === null
    ? 'the first 32 bytes of the BIP-39 seed (ASK, as solana-keygen new)'
    : formatPath(source.path);
}

function signerOf(
  publicKey: string,
  label: string,
  cannotSign: () => string | null,
  obtain: () => Promise<Uint8Array>,
): Signer {
  return {
    publicKey,
    label,
    checkCanSign() {
      const why = cannotSign();
      if (why) throw new UsageError(why, 'PASSWORD_REQUIRED');
    },
    unlock: obtain,
  };
}
