import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/domain/errors.js';
import { loadKeypair, parseSecretKeyText } from '../../src/wallet/keypair.js';
import { tempDir } from '../helpers/temp.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('trader-keypair-');
});

function writeKey(name: string, content: string, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  chmodSync(path, mode);
  return path;
}

function keypairError(path: string): UsageError {
  try {
    loadKeypair(path);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).code).toBe('KEYPAIR');
    return e as UsageError;
  }
  throw new Error('expected a UsageError');
}

const kp = nacl.sign.keyPair();
const secretJson = JSON.stringify(Array.from(kp.secretKey));

describe('loadKeypair', () => {
  it('loads a Solana CLI keypair file', () => {
    const path = writeKey('good.json', secretJson);
    const loaded = loadKeypair(path);
    expect(loaded.publicKey).toBe(bs58.encode(kp.publicKey));
    expect(Array.from(loaded.secretKey)).toEqual(Array.from(kp.secretKey));
    expect(loaded.secretKey).toHaveLength(64);
    expect(loaded.warnings).toEqual([]);
  });

  it('warns (but loads) when group or others can read the file', () => {
    const path = writeKey('open.json', secretJson, 0o644);
    const loaded = loadKeypair(path);
    expect(loaded.publicKey).toBe(bs58.encode(kp.publicKey));
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toContain('chmod 600');
    expect(loaded.warnings[0]).toContain('644');
    // Group-readable is readable by others too: 0640 and 0604 warn, 0600 and 0400 do not.
    expect(loadKeypair(writeKey('group.json', secretJson, 0o640)).warnings).toHaveLength(1);
    expect(loadKeypair(writeKey('other.json', secretJson, 0o604)).warnings).toHaveLength(1);
    expect(loadKeypair(writeKey('private.json', secretJson, 0o600)).warnings).toEqual([]);
    expect(loadKeypair(writeKey('readonly.json', secretJson, 0o400)).warnings).toEqual([]);
  });

  it('skips the permission check on Windows', () => {
    const path = writeKey('win.json', secretJson, 0o644);
    expect(loadKeypair(path, { platform: 'win32' }).warnings).toEqual([]);
  });

  it('missing file: names the path and how to set it', () => {
    const err = keypairError(join(dir, 'nope.json'));
    expect(err.message).toContain(join(dir, 'nope.json'));
    expect(err.message).toContain('--keypair');
    expect(err.message).toContain('TRADER_KEYPAIR');
  });

  it("missing file in a stopped sandbox's folder: says the sandbox was stopped and how to start one, as its refused connection does", () => {
    const path = join(dir, 'trader-sandbox-Ab12Cd', 'id.json');
    expect(keypairError(path).message).toBe(
      `keypair file ${path}: not found; it was a sandbox's, and stopping the sandbox removed it: no sandbox is running for it; start one with \`eval "$(trader sandbox --background)"\``,
    );
    // Only a sandbox's own folder: a folder merely named like one elsewhere in the path is an ordinary missing file.
    expect(keypairError(join(dir, 'trader-sandbox-Ab12Cd', 'keys', 'id.json')).message).toContain('solana-keygen new');
  });

  it('a directory is refused', () => {
    expect(keypairError(dir).message).toContain('not a regular file');
  });

  it('unreadable file', () => {
    const err = (() => {
      try {
        loadKeypair('/x', {
          fs: {
            statSync: () => ({ mode: 0o100600, isFile: () => true }),
            readFileSync: () => {
              throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
            },
          },
        });
      } catch (e) {
        return e as UsageError;
      }
      throw new Error('expected an error');
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toContain('permission denied');
  });

  it.each([
    ['not JSON', '[1,2,3', /not JSON/],
    ['an object', '{"secretKey":[1,2]}', /not a JSON array/],
    ['63 values', JSON.stringify(Array.from(kp.secretKey).slice(0, 63)), /holds 63 values/],
    ['65 values', JSON.stringify([...Array.from(kp.secretKey), 0]), /holds 65 values/],
    ['a value above 255', JSON.stringify([256, ...Array.from(kp.secretKey).slice(1)]), /0 to 255/],
    ['a negative value', JSON.stringify([-1, ...Array.from(kp.secretKey).slice(1)]), /0 to 255/],
    ['a fraction', JSON.stringify([1.5, ...Array.from(kp.secretKey).slice(1)]), /0 to 255/],
    ['a string', JSON.stringify(['1', ...Array.from(kp.secretKey).slice(1)]), /0 to 255/],
    ['a null', JSON.stringify([null, ...Array.from(kp.secretKey).slice(1)]), /0 to 255/],
  ])('refuses a file with %s', (_name, content, why) => {
    expect(keypairError(writeKey(`bad-${Math.random()}.json`, content)).message).toMatch(why);
  });

  it('refuses a file whose second half is not the public key of its first half', () => {
    const other = nacl.sign.keyPair();
    const mixed = [...Array.from(kp.secretKey.slice(0, 32)), ...Array.from(other.publicKey)];
    expect(keypairError(writeKey('mixed.json', JSON.stringify(mixed))).message).toContain('not the public key');
  });

  it('never puts secret bytes in a message', () => {
    // A file that is almost valid JSON: JSON.parse's own message would quote the content.
    const content = `${secretJson.slice(0, -1)},]`;
    const err = keypairError(writeKey('leak.json', content));
    expect(err.message).not.toContain(secretJson.slice(1, 20));
    const mixed = [...Array.from(kp.secretKey.slice(0, 32)), ...Array.from(nacl.sign.keyPair().publicKey)];
    const err2 = keypairError(writeKey('leak2.json', JSON.stringify(mixed)));
    expect(err2.message).not.toContain(String(mixed.slice(0, 4).join(',')));
    expect(err2.message).not.toContain(bs58.encode(kp.secretKey.slice(0, 32)));
  });
});

describe('parseSecretKeyText (stdin: and keys import --from stdin:)', () => {
  it('reads a JSON array or the same 64 bytes in base58 (a wallet export), surrounding whitespace ignored', () => {
    expect(Array.from(parseSecretKeyText(`  ${secretJson}\n`, 'stdin'))).toEqual(Array.from(kp.secretKey));
    expect(Array.from(parseSecretKeyText(`${bs58.encode(kp.secretKey)}\n`, 'stdin'))).toEqual(Array.from(kp.secretKey));
  });
  it.each<[string, () => string, RegExp]>([
    ['empty', () => ' \n', /^stdin: is empty; expected a JSON array of 64 numbers or a base58 secret key$/],
    [
      '32 bytes of base58 (a seed, not a keypair)',
      () => bs58.encode(kp.secretKey.subarray(0, 32)),
      /^stdin: decodes to 32 bytes; a base58 secret key is 64 bytes/,
    ],
    [
      'base58 whose halves do not match',
      () => bs58.encode(Uint8Array.from([...kp.secretKey.subarray(0, 32), ...nacl.sign.keyPair().publicKey])),
      /is corrupt: its second half is not the public key of its first half/,
    ],
    ['not base58', () => 'not-base58-0OIl', /is neither a JSON array nor base58/],
    ['broken JSON', () => secretJson.slice(0, 40), /is not JSON/],
  ])('%s is refused, quoting none of it', (_, text, message) => {
    const input = text();
    let error: unknown;
    try {
      parseSecretKeyText(input, 'stdin');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
    if (input.trim().length > 8) expect((error as Error).message).not.toContain(input.trim().slice(0, 12));
  });
});
