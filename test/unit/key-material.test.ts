// Key material given where its source belongs: every form a key or seed phrase is written in is
// recognised (and so refused before it can be echoed), and ordinary paths and names are not.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { keyMaterialShape } from '../../src/wallet/key-material.js';
import { keyForms } from '../helpers/key-forms.js';

const secret = Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256);
const seed = secret.subarray(0, 32);
const b58 = bs58.encode(secret);
const hex = Buffer.from(secret).toString('hex');
const phrase = 'abandon ability able about above absent absorb abstract absurd abuse access accident';
const KEY_FORMS = keyForms(secret);

describe('key material', () => {
  it.each(Object.entries(KEY_FORMS))('%s is recognised', (_name, text) => {
    expect(keyMaterialShape(text)).not.toBeNull();
    expect(keyMaterialShape(` ${text}\n`)).not.toBeNull();
    for (const scheme of ['keystore:', 'file:', 'file://', 'prompt:', 'usb://ledger?key='])
      expect(keyMaterialShape(`${scheme}${text}`), scheme).not.toBeNull();
  });

  it('names the form, never the text', () => {
    for (const text of Object.values(KEY_FORMS)) {
      const shape = keyMaterialShape(text)!;
      for (let i = 0; i + 8 <= text.length; i++) expect(shape.includes(text.slice(i, i + 8)), shape).toBe(false);
    }
    expect(keyMaterialShape(hex)).toBe('hex of 64 bytes');
    expect(keyMaterialShape(b58)).toBe('base58 of 64 bytes');
    expect(keyMaterialShape(bs58.encode(seed))).toBe('base58 of 32 bytes');
    expect(keyMaterialShape(phrase)).toBe('a seed phrase');
  });

  it('a long random-looking value of another length is refused too; a short one is not', () => {
    const random = bs58.encode(Uint8Array.from({ length: 48 }, (_, i) => (i * 91 + 7) % 256));
    expect(keyMaterialShape(random)).toMatch(/random-looking/);
    // 39 letters and digits: under the length where a value could be a key (at 40 it is judged).
    expect(keyMaterialShape(b58.slice(0, 39))).toBeNull();
    expect(keyMaterialShape(b58.slice(0, 40))).not.toBeNull();
    expect(keyMaterialShape(hex.slice(0, 39))).toBeNull();
    expect(keyMaterialShape(hex.slice(0, 40))).toBe('hex of 20 bytes');
    // Ten words are a name; eleven could be a phrase with a word missing.
    expect(keyMaterialShape(phrase.split(' ').slice(0, 10).join(' '))).toBeNull();
    expect(keyMaterialShape(phrase.split(' ').slice(0, 11).join(' '))).toBe('a seed phrase');
    expect(keyMaterialShape(Array.from({ length: 15 }, (_, i) => i).join(','))).toBeNull();
    expect(keyMaterialShape(Array.from({ length: 16 }, (_, i) => i).join(','))).not.toBeNull();
  });

  it.each([
    'id.json',
    '~/.config/solana/id.json',
    '/home/alice/.config/solana/id.json',
    '/home/alice/projects/trading/wallets/main-wallet.json',
    'C:\\Users\\Alice\\.config\\solana\\id.json',
    '/Users/Alice/Library/Application Support/Solana/Wallet2/id.json',
    '/home/alice/My Documents/Solana Wallets/Main Account/Backup Copy/Old Keys/keypair.json',
    '/tmp/3f1c2a9e-8b4d-4c2e-9f1a-0b2c3d4e5f60/id.json',
    `/home/alice/grind/${bs58.encode(seed)}.json`,
    'my wallet key',
    '[old] id.json',
    'keystore:main',
    'prompt:?key=0/0',
    "prompt:?full-path=m/44'/501'/0'/0'",
    'stdin:',
    'ASK',
    '/tmp/trader-sandbox-AbC123/keypair.json',
    // Folders made by mkdtemp end in random letters and digits: put together they are no key.
    '/tmp/trader-test-run-Ltd8cL/trader-bad-input-rzsW9l',
    'tmp/vitest-k9QzP2/home-Xy7Rt1/wallet',
  ])('%s is a path or source, not key material', (text) => {
    expect(keyMaterialShape(text)).toBeNull();
  });
});

describe('a base58 secret key is named as one, never as a seed phrase', () => {
  it('5,000 seeded random 64-byte keys: each "base58 of 64 bytes" (0.4% read as 11 words split by digits before)', () => {
    let x = 0x2545f491;
    const byte = () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x & 0xff;
    };
    const names = new Set<string | null>();
    for (let i = 0; i < 5000; i++) names.add(keyMaterialShape(bs58.encode(Uint8Array.from({ length: 64 }, byte))));
    expect([...names]).toEqual(['base58 of 64 bytes']);
  });

  it('24 words joined by digits (no base58 run of a key: "l" and "o" words) are still a seed phrase', () => {
    const words = `${phrase} ${phrase}`.split(' ');
    expect(keyMaterialShape(words.join('1'))).toBe('a seed phrase');
    expect(keyMaterialShape(words.map((w, i) => `${i + 1}${w}`).join(''))).toBe('a seed phrase');
  });
});
