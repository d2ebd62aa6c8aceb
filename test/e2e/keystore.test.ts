// The encrypted keystore and the signer sources, the built binary against one sandbox: a key
// imported from each source (a keypair file, stdin: as JSON and base58, a seed phrase at a real
// terminal) signs a buy and a sell that verify under the file keypair's public key; a wrong
// password, a truncated or tampered keystore, a wrong mode, a symlink: exit 2 and nothing sent
// (the sandbox's request log); reads and --dry-run never ask for the password; the API key
// from a file and from standard input; no secret in any output mode, in MCP results or the
// audit log, or on any command line (/proc/<pid>/cmdline). scrypt runs at its production cost
// (N = 2^17, ~0.3 s): the keystore made once here is copied rather than imported again, and
// runs where neither standard input nor a process of their own matters run in-process.
// (base58 on stdin: test/unit/keypair.test.ts.)
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastJsonError } from '../helpers/cli-assert.js';
import { freshHome, json, runCli, type CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { sandboxForFile, type Home } from '../helpers/file-sandbox.js';
import { startMcp } from '../helpers/mcp-client.js';
import { hasTmux, startInTmux } from '../helpers/pty.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

let sb: TestSandbox;
const { envFor, closeAfterAll } = sandboxForFile((started) => (sb = started));

const PASSWORD = 'kestrel-Velvet-9-orbit';
let secrets: string[];
let pwFile: string;
let mainHome: Home;
/** The keystore `main` of the sandbox's wallet, as `keys import` wrote it. */
let mainKeystore: string;

beforeAll(async () => {
  const dir = tempDir('trader-keys-');
  pwFile = join(dir, 'pw');
  writeFileSync(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
  const secret = sb.keypair.secretKey;
  secrets = [
    PASSWORD,
    sb.apiKey,
    bs58.encode(secret),
    JSON.stringify(Array.from(secret)).slice(1, 60),
    Buffer.from(secret.subarray(0, 32)).toString('hex'),
    Buffer.from(secret.subarray(0, 32)).toString('base64'),
  ];
  mainHome = freshHome();
  const r = await trader(mainHome, [
    'keys',
    'import',
    'main',
    '--from',
    sb.keypairPath,
    '--password-file',
    pwFile,
    '--json',
  ]);
  expect(r.code, r.stderr).toBe(0);
  expect(json(r)).toMatchObject({ name: 'main', address: sb.walletAddress, from: 'file' });
  expect(r.stderr).toContain(`the keypair file ${sb.keypairPath} still holds this key in clear`);
  mainKeystore = readFileSync(join(mainHome.HOME, 'keys', 'main.json'), 'utf8');
});

/** `trader …args` in `home` against the sandbox, the wallet keystore:main unless `extra` says otherwise. */
function trader(
  home: Home,
  args: string[],
  extra: Record<string, string> = {},
  input?: string,
  onSpawn?: (pid: number) => void,
): Promise<CliResult> {
  return runCli(args, {
    env: { ...envFor(sb.url, home), TRADER_KEYPAIR: 'keystore:main', ...extra },
    input,
    onSpawn: onSpawn && ((c) => onSpawn(c.pid!)),
  });
}

/** `trader …args` as `trader` does, but in this process (no standard input, no process of its own). */
function inProcess(home: Home, args: string[], extra: Record<string, string> = {}): Promise<CliResult> {
  return runInProcess(args, { ...envFor(sb.url, home), TRADER_KEYPAIR: 'keystore:main', ...extra });
}

/** A fresh home holding keystore `main` (its text changed by `text`, its mode `mode`). */
function homeWithKeystore(text = mainKeystore, mode = 0o600): Home {
  const home = freshHome();
  mkdirSync(join(home.HOME, 'keys'), { mode: 0o700 });
  const path = join(home.HOME, 'keys', 'main.json');
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, mode);
  return home;
}

/** No secret (password, API key, secret key in any encoding) in what a run printed. */
function expectNoSecret(text: string, label: string): void {
  for (const secret of secrets) expect(text.includes(secret), `${label}: a secret was printed:\n${text}`).toBe(false);
}

/** The deposits and authorizations the sandbox received since `since` (a request-log sequence number). */
async function signedSince(since: number) {
  const log = (await sb.requests()).filter((r) => r.seq > since);
  return {
    all: log,
    deposits: log.filter((r) => r.method === 'POST' && r.path.endsWith('/deposit')),
    authorizes: log.filter((r) => r.method === 'POST' && r.path.endsWith('/authorize')),
  };
}
const lastSeq = async () => (await sb.requests()).at(-1)?.seq ?? 0;

describe('a keystore signs what the file keypair signs', () => {
  it('buy (--json --verbose) and sell (human --verbose): both signatures verify under the wallet; no secret printed', async () => {
    const mint = sb.tokens[0]!.mint;
    const since = await lastSeq();
    const buy = await trader(mainHome, [
      'buy',
      mint,
      '0.05sol',
      '--yes',
      '--json',
      '--verbose',
      '--password-file',
      pwFile,
    ]);
    expect(buy.code, buy.stderr).toBe(0);
    const sell = await trader(mainHome, ['sell', mint, '50%', '--yes', '--verbose'], {
      TRADER_KEYSTORE_PASSWORD_FILE: pwFile,
    });
    expect(sell.code, sell.stderr).toBe(0);
    for (const [r, label] of [
      [buy, 'buy'],
      [sell, 'sell'],
    ] as const)
      expectNoSecret(r.stdout + r.stderr, label);

    const { deposits, authorizes } = await signedSince(since);
    expect(deposits).toHaveLength(1);
    const tx = VersionedTransaction.deserialize(
      Buffer.from((deposits[0]!.body as { signedTransaction: string }).signedTransaction, 'base64'),
    );
    expect(nacl.sign.detached.verify(tx.message.serialize(), tx.signatures[0]!, sb.keypair.publicKey.toBytes())).toBe(
      true,
    );
    expect(authorizes).toHaveLength(1);
    const sellId = /\/trade\/sells\/([^/]+)\/authorize$/.exec(authorizes[0]!.path)![1]!;
    const message = (await sb.call('GET', `/trade/sells/${sellId}`)).body.data.authorization.message as string;
    const signature = bs58.decode((authorizes[0]!.body as { signature: string }).signature);
    expect(nacl.sign.detached.verify(Buffer.from(message, 'utf8'), signature, sb.keypair.publicKey.toBytes())).toBe(
      true,
    );
  });

  it('imported from stdin: (a JSON array; base58 is the same path): the same wallet; list and show print no secret', async () => {
    const home = homeWithKeystore();
    const jsonKey = readFileSync(sb.keypairPath, 'utf8');
    const a = await trader(
      home,
      ['keys', 'import', 'piped', '--from', 'stdin:', '--password-file', pwFile],
      {},
      jsonKey,
    );
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain(`Imported keystore piped: wallet ${sb.walletAddress}`);
    // Written 0600 in a 0700 folder beside the config.
    expect(statSync(join(home.HOME, 'keys')).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(join(home.HOME, 'keys')))
      expect(statSync(join(home.HOME, 'keys', f)).mode & 0o777).toBe(0o600);

    const list = await inProcess(home, ['keys', 'list', '--json']);
    expect(json(list).keys.map((k: { name: string; address: string }) => [k.name, k.address])).toEqual([
      ['main', sb.walletAddress],
      ['piped', sb.walletAddress],
    ]);
    const show = await inProcess(home, ['keys', 'show', 'piped']);
    expect(show.stdout).toMatch(/Encryption\s+scrypt \(N=2\^17, r=8, p=1\), aes-256-gcm/);
    // Local time with its zone, as every other time a person reads; --json keeps the file's ISO time.
    expect(show.stdout).toMatch(/^Created\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+$/m);
    expect(show.stdout).not.toMatch(/^Created\s+\S+T/m);
    for (const r of [a, list, show]) expectNoSecret(r.stdout + r.stderr, 'keys');
    // Taken names and a keystore as --from are refused before any secret is read.
    const again = await trader(
      home,
      ['keys', 'import', 'piped', '--from', 'stdin:', '--password-file', pwFile],
      {},
      jsonKey,
    );
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/a keystore named piped exists already/);
  });

  it('the key itself given where its source belongs (TRADER_KEYPAIR="$(cat id.json)", --keypair <base58>, config set keypair): exit 2, printed nowhere, stored nowhere', async () => {
    const home = freshHome();
    const jsonKey = readFileSync(sb.keypairPath, 'utf8');
    const runs = [
      await inProcess(home, ['balance'], { TRADER_KEYPAIR: jsonKey }),
      await inProcess(home, ['balance', '--json', '--keypair', bs58.encode(sb.keypair.secretKey)]),
      await inProcess(home, ['config', 'set', 'keypair', bs58.encode(sb.keypair.secretKey)]),
    ];
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        /(the keypair source|TRADER_KEYPAIR) could be a secret key itself \((a JSON array of numbers|base58 of 64 bytes)[^)]*; not shown here\)/,
      );
      expectNoSecret(r.stdout + r.stderr, 'a key as its source');
    }
    expect((await inProcess(home, ['config', 'get', 'keypair'])).stdout).not.toContain(
      bs58.encode(sb.keypair.secretKey),
    );
  });

  it.skipIf(!hasTmux())(
    'imported from a seed phrase at a hidden prompt (prompt:?key=0/0), the Solana Cookbook address; the phrase never on screen',
    async () => {
      const home = freshHome();
      const s = await startInTmux(['keys', 'import', 'phrase', '--from', 'prompt:?key=0/0'], {
        ...home,
        NO_COLOR: '1',
      });
      closeAfterAll(() => s.close());
      await s.waitFor('Seed phrase (hidden)');
      await s.type('neither lonely flavor argue grass remind eye tag avocado spot unusual intact');
      await s.keys('Enter');
      await s.waitFor('BIP-39 passphrase');
      await s.keys('Enter');
      await s.waitFor('New password for keystore phrase');
      await s.type(PASSWORD);
      await s.keys('Enter');
      await s.waitFor('The same password again');
      await s.type(PASSWORD);
      await s.keys('Enter');
      expect(await s.exitCode()).toBe(0);
      const screen = await s.screen();
      expect(screen).toContain(
        "Imported keystore phrase: wallet 5vftMkHL72JaJG6ExQfGAsT2uGVHpRR7oTNUPMs68Y2N (derived at m/44'/501'/0'/0')",
      );
      expect(screen).not.toMatch(/lonely|avocado/);
      expect(screen).not.toContain(PASSWORD);
    },
  );
});

describe.skipIf(!hasTmux())('the password at a terminal', () => {
  it('a buy asks for it hidden only after the yes; a wrong one may be typed again; then it signs', async () => {
    const s = await startInTmux(['buy', sb.tokens[0]!.mint, '0.01sol'], {
      ...envFor(sb.url, mainHome),
      TRADER_KEYPAIR: 'keystore:main',
      NO_COLOR: '1',
    });
    closeAfterAll(() => s.close());
    const review = await s.waitFor('Sign and send this deposit? (y/N)');
    expect(review).not.toMatch(/password/i);
    await s.keys('y', 'Enter');
    await s.waitFor('Password for keystore main');
    await s.type('not-the-password');
    await s.keys('Enter');
    await s.waitFor('Wrong password; password for keystore main (try 2 of 3)');
    await s.type(PASSWORD);
    await s.keys('Enter');
    expect(await s.exitCode()).toBe(0);
    const screen = await s.screen();
    expect(screen).toMatch(/^Status\s+completed$/m);
    expect(screen).not.toContain(PASSWORD);
    expect(screen).not.toContain('not-the-password');
  });
});

describe('what cannot be unlocked is refused: exit 2, nothing signed or sent', () => {
  it('a wrong password: the buy intent is cancelled, no deposit is sent', async () => {
    const bad = join(tempDir('trader-bad-pw-'), 'pw');
    writeFileSync(bad, 'kestrel-velvet-9-orbit\n', { mode: 0o600 });
    const since = await lastSeq();
    const r = await trader(mainHome, ['buy', sb.tokens[1]!.mint, '0.01sol', '--yes', '--json', '--password-file', bad]);
    expect(r.code).toBe(2);
    expect(lastJsonError(r)).toMatchObject({ code: 'KEYSTORE_PASSWORD' });
    expect(lastJsonError(r).message).toMatch(
      /^keystore main did not open: wrong password, or the keystore file was changed .*; nothing was signed; the buy intent was cancelled$/,
    );
    const { deposits, all } = await signedSince(since);
    expect(deposits).toEqual([]);
    const created = all.find((e) => e.method === 'POST' && e.path === '/api/v1/trade/buys')!;
    const intentId = all
      .find((e) => e.method === 'POST' && e.path.endsWith('/cancel'))!
      .path.split('/')
      .at(-2);
    expect(created).toBeTruthy();
    expect((await sb.call('GET', `/trade/buys/${intentId}`)).body.data.intent.status).toBe('cancelled');
  });

  it('a tampered keystore (one bit of its ciphertext) does not authenticate: no deposit', async () => {
    const doc = JSON.parse(mainKeystore);
    const bytes = Buffer.from(doc.ciphertext, 'base64');
    bytes[5] ^= 0x20;
    const since = await lastSeq();
    const r = await trader(homeWithKeystore(JSON.stringify({ ...doc, ciphertext: bytes.toString('base64') })), [
      'buy',
      sb.tokens[1]!.mint,
      '0.01sol',
      '--yes',
      '--password-file',
      pwFile,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/keystore main did not open: wrong password, or the keystore file was changed/);
    expect((await signedSince(since)).deposits).toEqual([]);
  });

  it.each<[string, () => Home, RegExp]>([
    [
      'truncated',
      () => homeWithKeystore(mainKeystore.slice(0, 200)),
      /^error: keystore main is not JSON \(truncated or damaged\); refused$/m,
    ],
    [
      'readable by others (0644)',
      () => homeWithKeystore(mainKeystore, 0o644),
      /has mode 644, so other users can reach it; refused: run chmod 600/,
    ],
    ['group-readable (0640)', () => homeWithKeystore(mainKeystore, 0o640), /has mode 640/],
    [
      'a symlink to a keystore',
      () => {
        const home = freshHome();
        mkdirSync(join(home.HOME, 'keys'), { mode: 0o700 });
        const real = join(tempDir('trader-elsewhere-'), 'main.json');
        writeFileSync(real, mainKeystore, { mode: 0o600 });
        symlinkSync(real, join(home.HOME, 'keys', 'main.json'));
        return home;
      },
      /keystore .*main\.json is a symbolic link; refused/,
    ],
    [
      'in a symlinked keys folder',
      () => {
        const home = freshHome();
        const elsewhere = tempDir('trader-keys-elsewhere-');
        chmodSync(elsewhere, 0o700);
        writeFileSync(join(elsewhere, 'main.json'), mainKeystore, { mode: 0o600 });
        symlinkSync(elsewhere, join(home.HOME, 'keys'));
        return home;
      },
      /keystore folder .*keys is a symbolic link; refused/,
    ],
  ])('%s: refused before any request', async (_, makeHome, message) => {
    const home = makeHome();
    const since = await lastSeq();
    const buy = await inProcess(home, ['buy', sb.tokens[1]!.mint, '0.01sol', '--yes', '--password-file', pwFile]);
    expect(buy.code, buy.stderr).toBe(2);
    expect(buy.stderr).toMatch(message);
    expect((await signedSince(since)).all).toEqual([]);
  });
});

describe('the password is asked only for a signature', () => {
  it('balance, a --dry-run buy and sell with no password file and no terminal succeed; a real trade is refused before anything is sent', async () => {
    const mint = sb.tokens[0]!.mint;
    const balance = await inProcess(mainHome, ['balance', '--json']);
    expect(balance.code, balance.stderr).toBe(0);
    expect(json(balance).address).toBe(sb.walletAddress);
    const dryBuy = await inProcess(mainHome, ['buy', mint, '0.01sol', '--dry-run', '--json']);
    expect(dryBuy.code, dryBuy.stderr).toBe(0);
    const drySell = await inProcess(mainHome, ['sell', mint, '10%', '--dry-run', '--json']);
    expect(drySell.code, drySell.stderr).toBe(0);
    for (const r of [balance, dryBuy, drySell]) expect(r.stderr).not.toMatch(/password/i);

    const since = await lastSeq();
    const buy = await inProcess(mainHome, ['buy', mint, '0.01sol', '--yes']);
    expect(buy.code).toBe(2);
    expect(buy.stderr).toMatch(
      /^error: keystore main needs its password to sign, and there is no terminal to ask it on: pass --password-file <path> or set TRADER_KEYSTORE_PASSWORD_FILE$/m,
    );
    expect((await signedSince(since)).all).toEqual([]);
  });
});

describe('the API key from a file or standard input', () => {
  it('--api-key-stdin, --api-key-file, the profile apiKeyFile and `config set apiKey -` all reach the service; none prints the key', async () => {
    const home = freshHome();
    const keyFile = join(tempDir('trader-key-'), 'key');
    writeFileSync(keyFile, `${sb.apiKey}\n`, { mode: 0o600 });
    const noKey = { TRADER_API_KEY: '' };
    const runs = [
      await trader(home, ['me', '--json', '--api-key-stdin'], noKey, `${sb.apiKey}\n`),
      await inProcess(home, ['me', '--json', '--api-key-file', keyFile], noKey),
    ];
    expect((await inProcess(home, ['config', 'set', 'apiKeyFile', keyFile], noKey)).code).toBe(0);
    runs.push(await inProcess(home, ['me', '--json'], noKey));
    expect((await inProcess(home, ['config', 'set', 'apiKeyFile', ''], noKey)).code).toBe(0);
    const set = await trader(home, ['config', 'set', 'apiKey', '-'], noKey, `${sb.apiKey}\n`);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).not.toMatch(/shell history/);
    runs.push(set, await inProcess(home, ['me', '--json'], noKey));
    for (const r of [runs[0]!, runs[1]!, runs[2]!, runs[4]!]) {
      expect(r.code, r.stderr).toBe(0);
      expect(json(r).walletAddress).toBe(sb.walletAddress);
    }
    for (const r of runs) expectNoSecret(r.stdout + r.stderr, 'api key');

    const both = await inProcess(home, ['me', '--api-key-file', keyFile, '--api-key-stdin']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give the API key one way: --api-key-file and --api-key-stdin were both given/);
    const twoStdin = await inProcess(home, ['me', '--api-key-stdin', '--keypair', 'stdin:']);
    expect(twoStdin.code).toBe(2);
    expect(twoStdin.stderr).toMatch(/standard input can carry one secret/);
  });
});

/** The command lines of `pid` and every process under it. */
function commandLines(pid: number): string[] {
  const out: string[] = [];
  const walk = (p: number) => {
    try {
      out.push(readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' '));
      for (const task of readdirSync(`/proc/${p}/task`)) {
        for (const child of readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').split(' ').filter(Boolean))
          walk(Number(child));
      }
    } catch {
      /* ended meanwhile */
    }
  };
  walk(pid);
  return out;
}

describe.skipIf(process.platform !== 'linux')('no secret on a command line, in MCP results or the audit log', () => {
  it('trader mcp with a keystore and its password file trades; its results and audit log hold no secret; no process argv does', async () => {
    const home = homeWithKeystore();
    const keyFile = join(tempDir('trader-key-'), 'key');
    writeFileSync(keyFile, sb.apiKey, { mode: 0o600 });
    const base = { ...envFor(sb.url, home), TRADER_API_KEY: '', TRADER_KEYPAIR: 'keystore:main' };
    for (const [key, value] of [
      ['maxBuyLamports', '200000000'],
      ['maxSlippageBps', '500'],
      ['maxDailyBuyLamports', '1000000000'],
      ['maxDailySellLamports', '1000000000'],
      ['treasury', sb.treasury],
    ] as const) {
      expect((await runInProcess(['config', 'set', key, value], base)).code).toBe(0);
    }
    const session = await startMcp({
      env: base,
      args: ['--allow-trading', '--no-confirm', '--api-key-file', keyFile, '--password-file', pwFile],
    });
    closeAfterAll(() => session.close());
    const lines = commandLines(session.pid()!);
    expect(lines[0]).toContain('mcp');
    for (const line of lines) expectNoSecret(line, 'mcp argv');

    const balance = await session.call('balance', {});
    expect(balance.structuredContent.address).toBe(sb.walletAddress);
    const buy = await session.call('buy', { token: sb.tokens[0]!.mint, amount: '0.01sol' });
    expect(buy.isError, JSON.stringify(buy)).toBeFalsy();
    expectNoSecret(JSON.stringify([balance, buy]), 'mcp results');
    expectNoSecret(readFileSync(join(home.HOME, 'mcp-audit.jsonl'), 'utf8'), 'audit log');
    expectNoSecret(session.stderr(), 'mcp stderr');

    // A wallet typed or piped in cannot share standard input with the protocol.
    const refused = await runInProcess(['mcp', '--keypair', 'prompt:'], base);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /trader mcp reads the protocol on standard input, so the wallet cannot be typed or piped there/,
    );
  });

  it('a trade with keystore, password file and API key file: its command line holds none of them', async () => {
    const keyFile = join(tempDir('trader-key-'), 'key');
    writeFileSync(keyFile, sb.apiKey, { mode: 0o600 });
    let lines: string[] = [];
    const r = await trader(
      mainHome,
      [
        'buy',
        sb.tokens[0]!.mint,
        '0.01sol',
        '--yes',
        '--dry-run',
        '--api-key-file',
        keyFile,
        '--password-file',
        pwFile,
      ],
      { TRADER_API_KEY: '' },
      undefined,
      (pid) => {
        lines = commandLines(pid);
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(lines.join('\n')).toContain('--api-key-file');
    for (const line of lines) expectNoSecret(line, 'trader argv');
  });
});

describe('export, passwd, remove', () => {
  it('export writes a Solana CLI keypair file (0600, never over a file); passwd changes the password; remove needs --yes', async () => {
    const home = homeWithKeystore();
    const out = join(tempDir('trader-export-'), 'id.json');
    const exported = await trader(home, ['keys', 'export', 'main', '--output', out, '--password-file', pwFile]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`this is the secret key of wallet ${sb.walletAddress} in clear`);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(Array.from(sb.keypair.secretKey));
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expectNoSecret(exported.stdout + exported.stderr, 'export --output');
    // Refused before the password is asked (none given here: it would need one).
    const over = await inProcess(home, ['keys', 'export', 'main', '--output', out]);
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/exists already; choose a new file \(nothing was written\)/);

    const newPw = join(tempDir('trader-new-pw-'), 'pw');
    writeFileSync(newPw, 'a-new-longer-passphrase\n', { mode: 0o600 });
    const passwd = await trader(home, [
      'keys',
      'passwd',
      'main',
      '--password-file',
      pwFile,
      '--new-password-file',
      newPw,
    ]);
    expect(passwd.code, passwd.stderr).toBe(0);
    const oldFails = await trader(home, ['keys', 'export', 'main', '--output', `${out}.2`, '--password-file', pwFile]);
    expect(oldFails.code).toBe(2);
    expect(oldFails.stderr).toMatch(/keystore main did not open/);

    const noYes = await inProcess(home, ['keys', 'remove', 'main']);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(
      /removing keystore main \(wallet \w+\) needs --yes when not interactive; nothing was removed/,
    );
    const removed = await inProcess(home, ['keys', 'remove', 'main', '--yes']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(readdirSync(join(home.HOME, 'keys'))).toEqual([]);
  });
});
