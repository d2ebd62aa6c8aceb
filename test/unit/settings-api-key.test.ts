// Where the API key comes from (config/settings.ts): one way per level, the flags' level first,
// then TRADER_API_KEY, then the profile's apiKey or apiKeyFile; a file or standard input is
// read later (context.ts), so settings stay pure.
import { describe, expect, it } from 'vitest';
import { resolveSettings, type GlobalOptions } from '../../src/config/settings.js';
import type { Profile } from '../../src/config/config-file.js';

const flags = (extra: Partial<GlobalOptions> = {}): GlobalOptions => ({
  json: false,
  yes: false,
  color: true,
  verbose: false,
  insecure: false,
  ...extra,
});
const resolve = (f: Partial<GlobalOptions>, env: Record<string, string> = {}, profile: Profile = {}, lenient = false) =>
  resolveSettings(flags(f), env, profile, 'default', '/home/u', { lenient });
const api = (s: ReturnType<typeof resolve>) => ({
  apiKey: s.apiKey,
  apiKeySource: s.apiKeySource,
  apiKeyInput: s.apiKeyInput,
});

describe('the API key setting', () => {
  it.each<[string, Partial<GlobalOptions>, Record<string, string>, Profile, object]>([
    [
      '--api-key',
      { apiKey: 'sk_flag' },
      { TRADER_API_KEY: 'sk_env' },
      { apiKey: 'sk_p' },
      { apiKey: 'sk_flag', apiKeySource: 'flag', apiKeyInput: null },
    ],
    [
      '--api-key-file (home expanded)',
      { apiKeyFile: '~/k' },
      { TRADER_API_KEY: 'sk_env' },
      {},
      { apiKey: null, apiKeySource: 'flag', apiKeyInput: { kind: 'file', path: '/home/u/k' } },
    ],
    [
      '--api-key-stdin',
      { apiKeyStdin: true },
      { TRADER_API_KEY: 'sk_env' },
      {},
      { apiKey: null, apiKeySource: 'flag', apiKeyInput: { kind: 'stdin' } },
    ],
    [
      'the environment over the profile file',
      {},
      { TRADER_API_KEY: 'sk_env' },
      { apiKeyFile: '/k' },
      { apiKey: 'sk_env', apiKeySource: 'env', apiKeyInput: null },
    ],
    [
      'an empty environment value is unset',
      {},
      { TRADER_API_KEY: '' },
      { apiKey: 'sk_p' },
      { apiKey: 'sk_p', apiKeySource: 'profile', apiKeyInput: null },
    ],
    [
      'the profile apiKeyFile',
      {},
      {},
      { apiKeyFile: '/etc/k' },
      { apiKey: null, apiKeySource: 'profile', apiKeyInput: { kind: 'file', path: '/etc/k' } },
    ],
    ['none', {}, {}, {}, { apiKey: null, apiKeySource: null, apiKeyInput: null }],
  ])('%s', (_, f, env, profile, expected) => {
    expect(api(resolve(f, env, profile))).toEqual(expected);
  });

  it('two ways at one level are refused; a profile with both is refused unless a config command is fixing it', () => {
    expect(() => resolve({ apiKey: 'a', apiKeyStdin: true })).toThrow(
      /give the API key one way: --api-key and --api-key-stdin were both given/,
    );
    expect(() => resolve({ apiKeyFile: 'f', apiKey: 'a' })).toThrow(/--api-key and --api-key-file/);
    expect(() => resolve({}, {}, { apiKey: 'a', apiKeyFile: '/k' })).toThrow(
      /the profile sets both apiKey and apiKeyFile/,
    );
    expect(api(resolve({}, {}, { apiKey: 'a', apiKeyFile: '/k' }, true)).apiKeyInput).toEqual({
      kind: 'file',
      path: '/k',
    });
  });

  it('the keystore password file: flag over environment, home expanded; none is null (a prompt)', () => {
    expect(resolve({ passwordFile: '~/pw' }, { TRADER_KEYSTORE_PASSWORD_FILE: '/env/pw' }).passwordFile).toBe(
      '/home/u/pw',
    );
    expect(resolve({}, { TRADER_KEYSTORE_PASSWORD_FILE: '/env/pw' }).passwordFile).toBe('/env/pw');
    expect(resolve({}).passwordFile).toBeNull();
    expect(resolve({}, {}, { keypair: 'keystore:main' }).keypair).toBe('keystore:main');
    expect(resolve({}).keypair).toBe('~/.config/solana/id.json');
  });
});
