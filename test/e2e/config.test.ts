// The config file and settings precedence end to end: `trader config …` in a throw-away HOME,
// and which service (and which key) a command really used, seen from the sandbox's request log.
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectHumanError, expectJsonError, lines, stderrJson } from '../helpers/cli-assert.js';
import { freshHome, json, runCli, type CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { hasTmux, startInTmux } from '../helpers/pty.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

let sb: TestSandbox;
/** A loopback URL where nothing listens: a request there fails fast (exit 3). */
let deadUrl: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  deadUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await sb?.close();
});

/**
 * A home with no settings at all; `run` runs trader there with extra env, in-process (the code
 * the binary runs, without a process start each); `bin` the same through the built binary, for
 * the round trip, the default path and the terminal check.
 */
function home(extra: Record<string, string> = {}) {
  const h = freshHome();
  const env = { ...h, ...extra };
  const run = (args: string[], more: Record<string, string | undefined> = {}): Promise<CliResult> =>
    runInProcess(args, { ...env, ...more });
  const bin = (args: string[], more: Record<string, string | undefined> = {}): Promise<CliResult> =>
    runCli(args, { env: { ...env, ...more } });
  const write = (profiles: Record<string, Record<string, unknown>>, mode = 0o600) => {
    writeFileSync(h.TRADER_CONFIG, JSON.stringify({ profiles }), { mode });
    chmodSync(h.TRADER_CONFIG, mode);
  };
  return { ...h, env, run, bin, write, read: () => JSON.parse(readFileSync(h.TRADER_CONFIG, 'utf8')) };
}

/** The key prefix the sandbox saw on the requests since `from` (by sequence number). */
async function keysSeenSince(from: number): Promise<Array<string | null>> {
  return (await sb.requests()).filter((r) => r.seq > from).map((r) => r.keyPrefix);
}
async function lastSeq(): Promise<number> {
  const all = await sb.requests();
  return all.length ? all[all.length - 1]!.seq : 0;
}

describe('config set / get / list / path', () => {
  it('round trip; the file is written with mode 0600; path names $TRADER_CONFIG', async () => {
    const h = home();
    const set = (k: string, v: string) => h.run(['config', 'set', k, v]);
    for (const [k, v] of [
      ['baseUrl', sb.url],
      ['apiKey', sb.apiKey],
      ['keypair', sb.keypairPath],
      ['treasury', sb.treasury],
      ['maxBuyLamports', '0.5sol'], // a lamport key takes SOL as a trade's amount does, and stores lamports
      ['maxSlippageBps', '300'],
      ['timeout', '120'],
    ]) {
      const r = await set(k!, v!); // sequential: each rewrites the file
      expect(r.code, r.stderr).toBe(0);
      if (k === 'maxBuyLamports')
        expect(r.stdout).toBe('set maxBuyLamports = 500000000 lamports (0.5 SOL) in profile "default"\n');
    }
    expect(statSync(h.TRADER_CONFIG).mode & 0o777).toBe(0o600);
    expect(h.read()).toEqual({
      profiles: {
        default: {
          baseUrl: sb.url,
          apiKey: sb.apiKey,
          keypair: sb.keypairPath,
          treasury: sb.treasury,
          maxBuyLamports: '500000000',
          maxSlippageBps: 300,
          timeout: 120,
        },
      },
    });
    const [getUrl, getUrlJson, getMissing, path, pathJson, list, listJson, me] = await Promise.all([
      h.bin(['config', 'get', 'baseUrl']),
      h.bin(['config', 'get', 'baseUrl', '--json']),
      h.bin(['config', 'get', 'maxFeeLamports', '--json']),
      h.bin(['config', 'path']),
      h.bin(['config', 'path', '--json']),
      h.bin(['config', 'list']),
      h.bin(['config', 'list', '--json']),
      h.bin(['me', '--json']),
    ]);
    expect(getUrl.stdout).toBe(`${sb.url}\n`);
    expect(json(getUrlJson)).toEqual({ profile: 'default', key: 'baseUrl', value: sb.url, overriddenBy: null });
    expect(json(getMissing)).toEqual({ profile: 'default', key: 'maxFeeLamports', value: null, overriddenBy: null });
    expect(path.stdout).toBe(`${h.TRADER_CONFIG}\n`);
    expect(json(pathJson)).toEqual({ path: h.TRADER_CONFIG });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(h.TRADER_CONFIG);
    expect(list.stdout).toMatch(/maxSlippageBps\s+300/);
    expect(list.stdout).toMatch(/maxBuyLamports\s+500000000 lamports \(0\.5 SOL\)\n/);
    expect(list.stdout).toMatch(new RegExp(`treasury\\s+${sb.treasury}`));
    // The key masked once, as config get shows it (trial 4: list counted the mask's own characters).
    const masked = `${sb.apiKey.slice(0, 4)}…(${sb.apiKey.length} characters)`;
    expect(list.stdout).toMatch(new RegExp(`^apiKey\\s+${masked.replace(/[(.)]/g, '\\$&')}$`, 'm'));
    expect(json(listJson).settings.apiKey).toBe(masked);
    const listed = json(listJson);
    expect(listed.profile).toBe('default');
    expect(listed.settings).toMatchObject({
      baseUrl: sb.url,
      keypair: sb.keypairPath,
      maxBuyLamports: '500000000',
      timeout: 120,
    });
    // The saved profile is what a command uses.
    expect(me.code, me.stderr).toBe(0);
    expect(json(me).walletAddress).toBe(sb.walletAddress);

    // "" removes a key.
    const removed = await h.bin(['config', 'set', 'timeout', '']);
    expect(removed.code).toBe(0);
    expect(h.read().profiles.default.timeout).toBeUndefined();
  });

  it('list and get apiKey never show the whole key (human and --json); set apiKey warns about shell history', async () => {
    const h = home();
    const set = await h.run(['config', 'set', 'apiKey', sb.apiKey]);
    expect(set.code).toBe(0);
    expect(set.stderr).toMatch(/warning:.*history/);
    const runs = await Promise.all([
      h.run(['config', 'get', 'apiKey']),
      h.run(['config', 'get', 'apiKey', '--json']),
      h.run(['config', 'list']),
      h.run(['config', 'list', '--json']),
      h.run(['config', 'set', 'apiKey', sb.apiKey, '--json']),
    ]);
    for (const r of [set, ...runs]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(sb.apiKey);
      expect(r.stdout + r.stderr).not.toContain(sb.apiKey.slice(8)); // nor a long piece of it
    }
    expect(runs[0]!.stdout.trim()).toMatch(/….*characters/);
    expect(json(runs[1]!).value).toMatch(/….*characters/);
    expect(json(runs[3]!).settings.apiKey).toMatch(/….*characters/);
    expect(stderrJson(runs[4]!)[0]).toHaveProperty('warning');
  });

  it('a config file others can read: a warning (a JSON line in --json mode), the command still runs', async () => {
    const h = home();
    h.write({ default: { baseUrl: sb.url, apiKey: sb.apiKey } }, 0o644);
    const [human, machine] = await Promise.all([h.run(['me']), h.run(['me', '--json'])]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toMatch(/^warning: .*can be read by other users.*chmod 600/m);
    expect(machine.code, machine.stderr).toBe(0);
    const warnings = stderrJson(machine);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].warning).toMatch(/chmod 600/);
    expect(json(machine).walletAddress).toBe(sb.walletAddress);
    // Once fixed, no warning; and `config set` writes 0600 again.
    const set = await h.run(['config', 'set', 'maxSlippageBps', '100']);
    expect(set.code).toBe(0);
    expect(statSync(h.TRADER_CONFIG).mode & 0o777).toBe(0o600);
    expect((await h.run(['me'])).stderr).toBe('');
  });

  it('the default path is $XDG_CONFIG_HOME/trader/config.json, else ~/.config/trader/config.json', async () => {
    const dir = tempDir('trader-xdg-');
    const [xdg, plain] = await Promise.all([
      runCli(['config', 'path'], { env: { HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg') } }),
      runCli(['config', 'path'], { env: { HOME: dir } }),
    ]);
    expect(xdg.stdout.trim()).toBe(join(dir, 'xdg', 'trader', 'config.json'));
    expect(plain.stdout.trim()).toBe(join(dir, '.config', 'trader', 'config.json'));
    const set = await runCli(['config', 'set', 'baseUrl', sb.url], { env: { HOME: dir } });
    expect(set.code, set.stderr).toBe(0);
    const file = join(dir, '.config', 'trader', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, '.config', 'trader')).mode & 0o077).toBe(0);
  });

  it('bad keys, bad values and a malformed file: exit 2, one line, the file untouched', async () => {
    const h = home();
    h.write({ default: { baseUrl: sb.url } });
    const before = readFileSync(h.TRADER_CONFIG, 'utf8');
    const runs = await Promise.all([
      h.run(['config', 'set', 'colour', 'red']),
      h.run(['config', 'get', 'nope']),
      h.run(['config', 'set', 'baseUrl', 'not a url']),
      h.run(['config', 'set', 'maxSlippageBps', '10001']),
      h.run(['config', 'set', 'maxBuyLamports', '-5']),
      h.run(['config', 'set', 'maxBuyLamports', '18446744073709551616']),
      h.run(['config', 'set', 'maxBuyLamports', '0.0000000001sol']),
      h.run(['config', 'set', 'maxBuyLamports', '0.5']),
      h.run(['config', 'set', 'timeout', 'abc']),
      h.run(['config', 'set', 'treasury', 'not-base58-0OIl']),
    ]);
    for (const r of runs) expectHumanError(r, 2);
    expect(readFileSync(h.TRADER_CONFIG, 'utf8')).toBe(before);

    writeFileSync(h.TRADER_CONFIG, '{"profiles": {', { mode: 0o600 });
    const [broken, brokenJson] = await Promise.all([h.run(['me']), h.run(['me', '--json'])]);
    expectHumanError(broken, 2, /not valid JSON/);
    expect(expectJsonError(brokenJson, 2).code).toBe('CONFIG');
  });

  it('config init needs a terminal: without one, exit 2 and nothing written', async () => {
    const h = home();
    const [human, machine] = await Promise.all([
      h.bin(['config', 'init'], { TRADER_BASE_URL: sb.url }),
      h.bin(['config', 'init', '--json']),
    ]);
    expectHumanError(human, 2, /interactive terminal/);
    expectJsonError(machine, 2);
    expect(() => statSync(h.TRADER_CONFIG)).toThrow();
  });
});

describe.skipIf(!hasTmux())('config init at a terminal (tmux)', () => {
  it('the key prompt echoes nothing as the key is typed: no key, no star per character (its length), before or after Enter', async () => {
    const h = home();
    const s = await startInTmux(['config', 'init'], { ...h.env, NO_COLOR: '1' }, { width: 80, height: 24 });
    try {
      await s.waitFor('Service URL');
      await s.type(sb.url);
      await s.keys('Enter');
      await s.waitFor('API key');
      await s.type(sb.apiKey);
      // Typed, not yet entered: the prompt's line shows the masked hint only.
      const typed = await s.waitFor('[input is masked]');
      const promptLine = typed.split('\n').find((l) => l.includes('API key'))!;
      expect(promptLine).not.toContain('*');
      expect(typed).not.toContain('*');
      expect(typed).not.toContain(sb.apiKey);
      expect(typed).not.toContain(sb.apiKey.slice(0, 6));
      await s.keys('Enter');
      await s.waitFor('Wallet keypair file');
      await s.type(sb.keypairPath);
      await s.keys('Enter');
      // The RPC URL, pre-filled: Enter keeps it.
      await s.waitFor('Solana RPC URL');
      await s.keys('Enter');
      const done = await s.waitFor('Saved profile');
      expect(await s.exitCode()).toBe(0);
      expect(done).not.toContain('*');
      expect(done).not.toContain(sb.apiKey);
      expect(h.read().profiles.default.apiKey).toBe(sb.apiKey);
    } finally {
      await s.close();
    }
  });
});

describe('precedence: flag > environment > profile', () => {
  it('base URL: --base-url beats TRADER_BASE_URL beats the profile', async () => {
    const h = home();
    h.write({ default: { baseUrl: deadUrl, apiKey: sb.apiKey } });
    const [profileOnly, envWins, flagWins, envLoses] = await Promise.all([
      h.run(['me', '--json']),
      h.run(['me', '--json'], { TRADER_BASE_URL: sb.url }),
      h.run(['me', '--json', '--base-url', sb.url], { TRADER_BASE_URL: deadUrl }),
      h.run(['--base-url', deadUrl, 'me', '--json'], { TRADER_BASE_URL: sb.url }),
    ]);
    expect(expectJsonError(profileOnly, 3).status).toBeNull(); // the profile's dead URL was used
    expect(envWins.code, envWins.stderr).toBe(0);
    expect(flagWins.code, flagWins.stderr).toBe(0);
    expect(expectJsonError(envLoses, 3).status).toBeNull();
    expect(json(flagWins).walletAddress).toBe(sb.walletAddress);
  });

  it('the base URL may end in /, /api/v1 or /api/v1/', async () => {
    const h = home({ TRADER_API_KEY: sb.apiKey });
    const runs = await Promise.all(
      [`${sb.url}/`, `${sb.url}/api/v1`, `${sb.url}/api/v1/`].map((u) =>
        h.run(['me', '--json'], { TRADER_BASE_URL: u }),
      ),
    );
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(json(r).walletAddress).toBe(sb.walletAddress);
    }
  });

  it('API key: --api-key beats TRADER_API_KEY beats the profile (the sandbox saw which key)', async () => {
    const h = home();
    h.write({ default: { baseUrl: sb.url, apiKey: sb.readOnlyApiKey } });
    const prefix = async (r: Promise<CliResult>) => {
      const from = await lastSeq();
      const res = await r;
      expect(res.code, res.stderr).toBe(0);
      return { res, keys: await keysSeenSince(from) };
    };
    const ro = sb.readOnlyApiKey.slice(0, 16);
    const main = sb.apiKey.slice(0, 16);
    // Sequential: each run's requests are told apart by the log's sequence numbers.
    const a = await prefix(h.run(['me', '--json']));
    expect(a.keys).toEqual([ro]);
    const b = await prefix(h.run(['me', '--json'], { TRADER_API_KEY: sb.apiKey }));
    expect(b.keys).toEqual([main]);
    const c = await prefix(h.run(['me', '--json', '--api-key', sb.readOnlyApiKey], { TRADER_API_KEY: sb.apiKey }));
    expect(c.keys).toEqual([ro]);
    expect(stderrJson(c.res)).toEqual([{ warning: expect.stringMatching(/process list/) }]);
    // The account's display prefix is a piece of the key: shown only as its first 4 characters.
    expect(json(a.res).apiKey.prefix).toBe(`${ro.slice(0, 4)}…`);
  });

  it('--profile and TRADER_PROFILE pick the profile; `config set` writes into it', async () => {
    const h = home();
    h.write({ default: { baseUrl: deadUrl, apiKey: sb.apiKey }, other: { baseUrl: sb.url, apiKey: sb.otherApiKey } });
    const [flag, env, dflt, envVsFlag] = await Promise.all([
      h.run(['me', '--json', '--profile', 'other']),
      h.run(['me', '--json'], { TRADER_PROFILE: 'other' }),
      h.run(['me', '--json']),
      h.run(['--profile', 'default', 'me', '--json'], { TRADER_PROFILE: 'other' }),
    ]);
    expect(flag.code, flag.stderr).toBe(0);
    expect(json(flag).walletAddress).not.toBe(sb.walletAddress); // the other account
    expect(json(env)).toEqual(json(flag));
    expectJsonError(dflt, 3);
    expectJsonError(envVsFlag, 3); // --profile default beats TRADER_PROFILE=other

    const set = await h.run(['--profile', 'other', 'config', 'set', 'maxSlippageBps', '42']);
    expect(set.code, set.stderr).toBe(0);
    const doc = h.read();
    expect(doc.profiles.other.maxSlippageBps).toBe(42);
    expect(doc.profiles.default.maxSlippageBps).toBeUndefined();
    const list = await h.run(['config', 'list', '--json'], { TRADER_PROFILE: 'other' });
    expect(json(list).profile).toBe('other');
    expect(json(list).settings.maxSlippageBps).toBe(42);
  });
});

describe('a variable or flag that wins over the profile', () => {
  it('config set / get / list say so with the value used (a keystore set while TRADER_KEYPAIR is exported); without one, nothing is said', async () => {
    const h = home();
    const env = { TRADER_KEYPAIR: '/tmp/plain/id.json' };
    const set = await h.run(['config', 'set', 'keypair', 'keystore:main'], env);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe('set keypair = keystore:main in profile "default"\n');
    const said =
      'TRADER_KEYPAIR is set in this environment and wins over profile "default"\'s keypair: commands run here use /tmp/plain/id.json';
    expect(set.stderr).toBe(`warning: ${said}\n`);
    const [get, getJson, list, listJson, flag, plain] = await Promise.all([
      h.run(['config', 'get', 'keypair'], env),
      h.run(['config', 'get', 'keypair', '--json'], env),
      h.run(['config', 'list'], env),
      h.run(['config', 'list', '--json'], env),
      h.run(['config', 'get', 'keypair', '--keypair', '/k.json']),
      h.run(['config', 'get', 'keypair']),
    ]);
    expect([get.stdout, get.stderr]).toEqual(['keystore:main\n', `warning: ${said}\n`]);
    expect(json(getJson)).toEqual({
      profile: 'default',
      key: 'keypair',
      value: 'keystore:main',
      overriddenBy: 'TRADER_KEYPAIR',
    });
    expect(list.stdout).toMatch(/^keypair\s+keystore:main \(TRADER_KEYPAIR wins here: \/tmp\/plain\/id\.json\)$/m);
    expect(json(listJson).overrides).toEqual({ keypair: 'TRADER_KEYPAIR' });
    expect(flag.stderr).toContain(
      '--keypair is set on this command line and wins over profile "default"\'s keypair: commands run here use /k.json',
    );
    expect([plain.stdout, plain.stderr]).toEqual(['keystore:main\n', '']);
  });
});

describe('no configuration at all', () => {
  it('exit 2 with one line naming `trader config init`, the variables and `trader sandbox`; no request', async () => {
    const h = home();
    const [human, machine, keyOnly, urlOnly] = await Promise.all([
      h.run(['me']),
      h.run(['positions', '--json']),
      h.run(['points'], { TRADER_API_KEY: sb.apiKey }),
      h.run(['points'], { TRADER_BASE_URL: deadUrl }),
    ]);
    const line = expectHumanError(human, 2);
    expect(lines(human.stderr)).toHaveLength(1);
    for (const needle of ['trader config init', 'TRADER_BASE_URL', 'TRADER_API_KEY', 'trader sandbox'])
      expect(line).toContain(needle);
    const err = expectJsonError(machine, 2);
    expect(err.code).toBe('NOT_CONFIGURED');
    expect(err.message).toContain('trader config init');
    expectHumanError(keyOnly, 2, /no service URL/);
    expectHumanError(urlOnly, 2, /no API key/); // the dead URL was never contacted: exit 2, not 3
  });
});
