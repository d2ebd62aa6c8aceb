// A seed phrase to the owner key, as the Solana CLI's `prompt:` and `ASK` make it
// (anza-xyz/agave clap-utils/src/keypair.rs, keypair_from_seed_phrase): the phrase's
// whitespace collapsed, checked as a BIP-39 English mnemonic, its seed PBKDF2-HMAC-SHA512
// (2048 rounds, NFKD, salt "mnemonic" + passphrase); then the key is SLIP-0010 at the path
// (`prompt:` without a query: m/44'/501', the SDK's DerivationPath::default()), or for `ASK`
// the seed's first 32 bytes. BIP-39 is @scure/bip39 (audited), loaded only here.
import { UsageError } from '../domain/errors.js';
import { deriveEd25519 } from './slip10.js';
import type { DerivationPath } from './signer-source.js';

const CODE = 'KEYPAIR';
const WORD_COUNTS = [12, 15, 18, 21, 24];

/** The phrase with runs of whitespace made one space, ends trimmed (the Solana CLI's sanitize_seed_phrase). */
export function normalizePhrase(phrase: string): string {
  return phrase.split(/\s+/u).filter(Boolean).join(' ');
}

/**
 * Why the phrase is not a BIP-39 English mnemonic, or null. Never quotes a word: the message
 * may be printed and logged, and the words are the secret.
 */
export async function phraseProblem(phrase: string): Promise<string | null> {
  const { validateMnemonic } = await import('@scure/bip39');
  const { wordlist } = await import('@scure/bip39/wordlists/english');
  const words = normalizePhrase(phrase).split(' ').filter(Boolean);
  if (!WORD_COUNTS.includes(words.length))
    return `a seed phrase has 12, 15, 18, 21 or 24 words; this one has ${words.length}`;
  const known = new Set(wordlist);
  const unknown = words.findIndex((w) => !known.has(w.normalize('NFKD')));
  if (unknown >= 0) return `word ${unknown + 1} is not in the BIP-39 English word list (words are lower case)`;
  if (!validateMnemonic(words.join(' '), wordlist))
    return 'the checksum does not match: a word is wrong or out of order';
  return null;
}

/** The 32-byte ed25519 seed of the phrase and passphrase at `path` (null: the first 32 bytes of the BIP-39 seed). */
export async function keySeedFromPhrase(
  phrase: string,
  passphrase: string,
  path: DerivationPath | null,
): Promise<Uint8Array> {
  const problem = await phraseProblem(phrase);
  if (problem) throw new UsageError(`the seed phrase is not valid: ${problem}`, CODE);
  const { mnemonicToSeedSync } = await import('@scure/bip39');
  const seed = mnemonicToSeedSync(normalizePhrase(phrase), passphrase);
  try {
    if (path === null) return Uint8Array.from(seed.subarray(0, 32));
    const { key, chainCode } = deriveEd25519(seed, path);
    chainCode.fill(0);
    const out = Uint8Array.from(key);
    key.fill(0);
    return out;
  } finally {
    seed.fill(0);
  }
}
