// --keypair's sources as the Solana CLI reads them (clap-utils parse_signer_source and the
// SDK's DerivationPath::from_uri_any_query), plus keystore:<name>.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/domain/errors.js';
import { describeSource, parseSignerSource, type SignerSource } from '../../src/wallet/signer-source.js';

describe('parseSignerSource', () => {
  it.each<[string, SignerSource]>([
    ['~/.config/solana/id.json', { kind: 'file', path: '~/.config/solana/id.json' }],
    ['./my:key.json', { kind: 'file', path: './my:key.json' }],
    ['/abs/id.json', { kind: 'file', path: '/abs/id.json' }],
    ['file:/abs/id.json', { kind: 'file', path: '/abs/id.json' }],
    ['file:///abs/id.json', { kind: 'file', path: '/abs/id.json' }],
    ['FILE:rel.json', { kind: 'file', path: 'rel.json' }],
    // One letter is a Windows drive, as the Solana CLI reads it.
    ['C:\\keys\\id.json', { kind: 'file', path: 'C:\\keys\\id.json' }],
    ['keystore:main', { kind: 'keystore', name: 'main' }],
    ['keystore:a.b-c_9', { kind: 'keystore', name: 'a.b-c_9' }],
    ['stdin:', { kind: 'stdin' }],
    ['stdin://', { kind: 'stdin' }],
    ['-', { kind: 'stdin' }],
    ['ASK', { kind: 'prompt', path: null }],
    ['prompt:', { kind: 'prompt', path: [44, 501] }],
    ['prompt://', { kind: 'prompt', path: [44, 501] }],
    ['prompt:?', { kind: 'prompt', path: [44, 501] }],
    ['prompt:?key=m', { kind: 'prompt', path: [44, 501] }],
    ['prompt:?key=0', { kind: 'prompt', path: [44, 501, 0] }],
    ['prompt:?key=0/0', { kind: 'prompt', path: [44, 501, 0, 0] }],
    ["prompt://?key=3'/1'", { kind: 'prompt', path: [44, 501, 3, 1] }],
    ['prompt:?key=2147483647', { kind: 'prompt', path: [44, 501, 2147483647] }],
    ["prompt:?full-path=m/44'/501'/0'/0'", { kind: 'prompt', path: [44, 501, 0, 0] }],
    ['prompt:?full-path=m/44/2017/0/1', { kind: 'prompt', path: [44, 2017, 0, 1] }],
    ['prompt:?full-path=m', { kind: 'prompt', path: [] }],
    ["PROMPT:?full-path=m%2F44'%2F501'", { kind: 'prompt', path: [44, 501] }],
  ])('%s', (text, expected) => {
    expect(parseSignerSource(text)).toEqual(expected);
  });

  it.each<[string, RegExp]>([
    ['', /empty/],
    ['file:', /file: names no path/],
    ['keystore:', /keystore name "" is not allowed/],
    ['keystore:../up', /keystore name "..\/up" is not allowed/],
    ['keystore:.hidden', /not allowed/],
    [`keystore:${'a'.repeat(65)}`, /not allowed/],
    [
      'usb://ledger',
      /^usb:\/\/ledger is not supported: trader signs the service's sell authorization as raw text, which the Solana Ledger app does not sign/,
    ],
    ['usb://ledger?key=0/0', /not supported/],
    ['pubkey:abc', /^unknown keypair source scheme "pubkey:"; known: a path, file:, keystore:, prompt:, stdin:/],
    ['https://example.com/id.json', /unknown keypair source scheme "https:"/],
    ['prompt:?key=0/0/0', /too deep: only <account>\/<change>/],
    ['prompt:?key=', /no index given/],
    ['prompt:?key=-1', /"-1" is not a derivation index/],
    ['prompt:?key=2147483648', /"2147483648" is not a derivation index/],
    ['prompt:?key=0/x', /"x" is not a derivation index/],
    ['prompt:?key=0&full-path=m/44', /one query field/],
    ['prompt:?account=0', /query "account" is not known/],
    ['prompt:?full-path=44/501', /must start with m\//],
    ['prompt:something?key=0', /takes only a query/],
  ])('%j is refused: %s', (text, message) => {
    let error: unknown;
    try {
      parseSignerSource(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(message);
  });

  it('a secret key or seed phrase given where its source belongs is refused, and the message holds none of it', async () => {
    const { default: bs58 } = await import('bs58');
    const secret = Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256);
    const phrase = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    const cases: Array<[string, string]> = [
      [JSON.stringify([...secret]), 'a JSON array of numbers'],
      [` ${JSON.stringify([...secret]).replaceAll(',', ', ')}\n`, 'a JSON array of numbers'],
      [bs58.encode(secret), 'base58 of 64 bytes'],
      [`file:${bs58.encode(secret)}`, 'base58 of 64 bytes'],
      [`keystore:${bs58.encode(secret)}`, 'base58 of 64 bytes'],
      [`prompt:${phrase}`, 'a seed phrase'],
      [Buffer.from(secret).toString('hex'), 'hex of 64 bytes'],
      // The 32-byte seed: written as an address is, so an address is refused too (it is no keypair source either).
      [bs58.encode(secret.subarray(0, 32)), 'base58 of 32 bytes'],
      [phrase, 'a seed phrase'],
      [`  ${phrase.replaceAll(' ', '\n')}  `, 'a seed phrase'],
    ];
    for (const [text, what] of cases) {
      let error: unknown;
      try {
        parseSignerSource(text);
      } catch (e) {
        error = e;
      }
      expect(error, text).toBeInstanceOf(UsageError);
      expect((error as UsageError).exitCode).toBe(2);
      const message = (error as Error).message;
      expect(message).toContain(`the keypair source could be a secret key itself (${what}`);
      expect(message).toMatch(/not shown here\).*trader keys import <name> --from stdin:.*--keypair stdin: or prompt:/);
      for (const piece of [
        bs58.encode(secret).slice(0, 8),
        bs58.encode(secret).slice(10, 20),
        Buffer.from(secret).toString('hex').slice(0, 8),
        String(secret.slice(3, 6)),
        'abandon',
      ])
        expect(message).not.toContain(piece);
    }
    // What only looks alike is still a path: a keypair file named by its address (solana-keygen grind), a name with a few words.
    expect(parseSignerSource(`${bs58.encode(secret.subarray(32))}.json`)).toEqual({
      kind: 'file',
      path: `${bs58.encode(secret.subarray(32))}.json`,
    });
    expect(parseSignerSource('my wallet key')).toEqual({ kind: 'file', path: 'my wallet key' });
    expect(parseSignerSource('[old] id.json')).toEqual({ kind: 'file', path: '[old] id.json' });
  });

  it('describes a source by kind and name only', () => {
    expect(describeSource({ kind: 'keystore', name: 'main' })).toBe('keystore main');
    expect(describeSource({ kind: 'prompt', path: [44, 501, 0, 0] })).toBe("the seed phrase at m/44'/501'/0'/0'");
    expect(describeSource({ kind: 'prompt', path: null })).toBe('the seed phrase (ASK)');
    expect(describeSource({ kind: 'stdin' })).toBe('the keypair on standard input');
  });
});
