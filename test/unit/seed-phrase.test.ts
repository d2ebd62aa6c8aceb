// The seed phrase to the owner key, against published vectors: BIP-39's (Trezor's vectors.json,
// passphrase "TREZOR"), SLIP-0010's ed25519 test vector 1, and Solana addresses other tools
// published for a phrase: the Solana Cookbook ("Restore a Keypair from a Mnemonic": BIP39 and
// BIP44 examples) and the solana-keygen outputs quoted on Solana Stack Exchange (question 3075:
// `solana-keygen pubkey prompt://?key=0/1` and `?full-path=m/44/2017/0/1`). The default `prompt:`
// path (m/44'/501') and the passphrase cases have no published address: they are checked against
// a second SLIP-0010 written here over @noble/hashes (not node:crypto), from the BIP-39 seed.
import { hmac } from '@noble/hashes/hmac';
import { sha512 } from '@noble/hashes/sha512';
import { pbkdf2 } from '@noble/hashes/pbkdf2';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { keySeedFromPhrase, normalizePhrase, phraseProblem } from '../../src/wallet/seed-phrase.js';
import { parseSignerSource } from '../../src/wallet/signer-source.js';
import { deriveEd25519 } from '../../src/wallet/slip10.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const address = (seed: Uint8Array) => bs58.encode(nacl.sign.keyPair.fromSeed(seed).publicKey);
/** The key `--keypair <source>` gives for the phrase and passphrase. */
async function addressOf(source: string, phrase: string, passphrase = ''): Promise<string> {
  const parsed = parseSignerSource(source);
  if (parsed.kind !== 'prompt') throw new Error('not a prompt source');
  return address(await keySeedFromPhrase(phrase, passphrase, parsed.path));
}

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const IMMENSE = 'immense soup feed arrest erupt arrow little nephew regular trap radio danger';

describe('SLIP-0010 ed25519, test vector 1 (seed 000102…0f)', () => {
  const seed = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
  it.each<[string, number[], string, string]>([
    [
      'm',
      [],
      '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb',
      '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
    ],
    [
      "m/0'",
      [0],
      '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69',
      '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
    ],
    [
      "m/0'/1'",
      [0, 1],
      'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14',
      'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2',
    ],
    [
      "m/0'/1'/2'",
      [0, 1, 2],
      '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c',
      '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9',
    ],
    [
      "m/0'/1'/2'/2'",
      [0, 1, 2, 2],
      '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc',
      '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662',
    ],
    [
      "m/0'/1'/2'/2'/1000000000'",
      [0, 1, 2, 2, 1_000_000_000],
      '68789923a0cac2cd5a29172a475fe9e0fb14cd6adb5ad98a3fa70333e7afa230',
      '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793',
    ],
  ])('%s', (_, path, chainCode, key) => {
    const derived = deriveEd25519(seed, path);
    expect(hex(derived.chainCode)).toBe(chainCode);
    expect(hex(derived.key)).toBe(key);
  });
  it('m: public key a4b2…88ed (the vector writes it with a 00 prefix)', () => {
    expect(hex(nacl.sign.keyPair.fromSeed(deriveEd25519(seed, []).key).publicKey)).toBe(
      'a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed',
    );
  });
  it('refuses an index at or past 2^31 (every index is hardened)', () => {
    expect(() => deriveEd25519(seed, [0x80000000])).toThrow(RangeError);
    expect(() => deriveEd25519(seed, [0x7fffffff])).not.toThrow();
  });
});

describe('BIP-39 (Trezor vectors, passphrase "TREZOR"): the seed under the key', () => {
  // The key for ASK is the seed's first 32 bytes, so the seed shows through it.
  it.each<[string, string]>([
    [
      ABANDON,
      'c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04',
    ],
    [
      'legal winner thank year wave sausage worth useful legal winner thank yellow',
      '2e8905819b8723fe2c1d161860e5ee1830318dbf49a83bd451cfb8440c28bd6fa457fe1296106559a3c80937a1c1069be3a3a5bd381ee6260e8d9739fce1f607',
    ],
    [
      'letter advice cage absurd amount doctor acoustic avoid letter advice cage above',
      'd71de856f81a8acc65e6fc851a38d4d7ec216fd0796d0a6827a3ad6ed5511a30fa280f12eb2e47ed2ac03b5c462a0358d18d69fe4f985ec81778c1b370b652a8',
    ],
  ])('%s', async (phrase, seedHex) => {
    expect(hex(await keySeedFromPhrase(phrase, 'TREZOR', null))).toBe(seedHex.slice(0, 64));
  });
  it('whitespace is collapsed as the Solana CLI does (tabs, newlines, runs of spaces)', async () => {
    expect(normalizePhrase(`  ${ABANDON.replace(/ /g, ' \t\n ')}  `)).toBe(ABANDON);
    expect(hex(await keySeedFromPhrase(ABANDON.replace(/ /g, '\n  '), 'TREZOR', null))).toBe(
      'c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e5349553',
    );
  });
});

describe("the Solana CLI's derivations, against published addresses", () => {
  it("ASK (solana-keygen new): the BIP-39 seed's first 32 bytes — Solana Cookbook, BIP39 example", async () => {
    expect(
      await addressOf('ASK', 'pill tomorrow foster begin walnut borrow virtual kick shift mutual shoe scatter'),
    ).toBe('5ZWj7a1f8tWkjBESHKgrLmXshuXxqeY9SYcfbshpAqPG');
    // Stack Exchange 3075: "solana-keygen gives a pubkey of jtFu…" for this phrase.
    expect(await addressOf('ASK', IMMENSE)).toBe('jtFuWc4r1Y6UNuU13LngguXuyozapVnRVfnv9VwqWKr');
  });
  it("prompt:?key=0/0 and ?key=1/0 are m/44'/501'/0'/0' and /1'/0' — Solana Cookbook, BIP44 example", async () => {
    const phrase = 'neither lonely flavor argue grass remind eye tag avocado spot unusual intact';
    expect(await addressOf('prompt:?key=0/0', phrase)).toBe('5vftMkHL72JaJG6ExQfGAsT2uGVHpRR7oTNUPMs68Y2N');
    expect(await addressOf("prompt://?key=1'/0'", phrase)).toBe('GcXbfQ5yY3uxCyBNDPBbR5FjumHf89E7YHXuULfGDBBv');
    expect(await addressOf("prompt:?full-path=m/44'/501'/0'/0'", phrase)).toBe(
      '5vftMkHL72JaJG6ExQfGAsT2uGVHpRR7oTNUPMs68Y2N',
    );
  });
  it('prompt://?key=0/1 and ?full-path=m/44/2017/0/1 (hardened though written plain) — solana-keygen, Stack Exchange 3075', async () => {
    expect(await addressOf('prompt://?key=0/1', IMMENSE)).toBe('EqqwJANhbtzB2bwFv7N4wEQA8fj3hxAJsoq7iE9szEN8');
    expect(await addressOf('prompt:?full-path=m/44/2017/0/1', IMMENSE)).toBe(
      '97oZZGsDN5nobMDsk4XDhPHjExxqAS5ehfFRUAyBNHEF',
    );
  });
  it("?key=0/0 of the all-abandon phrase: HAgk…, the address wallets show for it at m/44'/501'/0'/0'", async () => {
    expect(await addressOf('prompt:?key=0/0', ABANDON)).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk');
  });
});

/** A second SLIP-0010 over @noble/hashes, from a BIP-39 seed made with @noble's PBKDF2: the expected values below. */
function independent(phrase: string, passphrase: string, path: number[]): string {
  const seed = pbkdf2(sha512, phrase.normalize('NFKD'), `mnemonic${passphrase}`.normalize('NFKD'), {
    c: 2048,
    dkLen: 64,
  });
  let out = hmac(sha512, new TextEncoder().encode('ed25519 seed'), seed);
  for (const index of path) {
    const data = new Uint8Array(37);
    data.set(out.slice(0, 32), 1);
    new DataView(data.buffer).setUint32(33, (index | 0x80000000) >>> 0);
    out = hmac(sha512, out.slice(32), data);
  }
  return address(out.slice(0, 32));
}

describe('the default prompt: (no query) and passphrases, against an independent derivation', () => {
  it("prompt: with no query is m/44'/501' (the Solana SDK's DerivationPath::default()), not the seed's first bytes", async () => {
    const expected = independent(IMMENSE, '', [44, 501]);
    expect(await addressOf('prompt:', IMMENSE)).toBe(expected);
    expect(await addressOf('prompt://', IMMENSE)).toBe(expected);
    expect(await addressOf('prompt:?key=m', IMMENSE)).toBe(expected);
    expect(expected).not.toBe(await addressOf('ASK', IMMENSE));
  });
  it.each<[string, string, number[]]>([
    ['prompt:', 'TREZOR', [44, 501]],
    ['prompt:?key=0/0', 'TREZOR', [44, 501, 0, 0]],
    ['prompt:?key=0', 'TREZOR', [44, 501, 0]],
    ['prompt:?key=0/0', 'correct horse ü', [44, 501, 0, 0]],
  ])('%s with passphrase %j', async (source, passphrase, path) => {
    const expected = independent(ABANDON, passphrase, path);
    expect(await addressOf(source, ABANDON, passphrase)).toBe(expected);
    // The passphrase matters: without it, another key.
    expect(await addressOf(source, ABANDON, '')).not.toBe(expected);
  });
  it('the passphrase is NFKD-normalized, as BIP-39 says (é composed or not is one passphrase)', async () => {
    expect(await addressOf('prompt:?key=0/0', ABANDON, 'caf\u00e9')).toBe(
      await addressOf('prompt:?key=0/0', ABANDON, 'cafe\u0301'),
    );
  });
});

describe('a phrase that is not BIP-39 English is refused, never quoting a word', () => {
  it.each<[string, RegExp]>([
    ['abandon abandon abandon', /has 12, 15, 18, 21 or 24 words; this one has 3/],
    [ABANDON.replace(/about$/, 'zebrax'), /^word 12 is not in the BIP-39 English word list/],
    [ABANDON.replace(/^abandon/, 'Abandon'), /^word 1 is not in the BIP-39 English word list \(words are lower case\)/],
    [ABANDON.replace(/about$/, 'abandon'), /^the checksum does not match/],
  ])('%s', async (phrase, message) => {
    const problem = await phraseProblem(phrase);
    expect(problem).toMatch(message);
    expect(problem).not.toMatch(/zebrax|Abandon|abandon abandon/);
    await expect(keySeedFromPhrase(phrase, '', [44, 501])).rejects.toThrow(/^the seed phrase is not valid/);
  });
  it('a valid phrase has no problem', async () => {
    expect(await phraseProblem(ABANDON)).toBeNull();
  });
});
