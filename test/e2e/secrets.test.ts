// The API key is never printed: every command, in human, --json and --verbose modes, with the key
// from the environment and from --api-key, successful and failing (bad id, a 5xx burst, 401, a
// service that echoes the key back). --verbose logs each request (method, path, status, ms,
// request id) on stderr, as JSON lines in --json mode.
// Every case runs in-process (src/run.ts, the code the binary runs, without a process start
// each); a sample of each kind also runs through the built binary (`binary` below), checked alike.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trusted } from '../helpers/trust.js';
import { lines } from '../helpers/cli-assert.js';
import { freshHome, runCli, type CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { keyForms, pieceOf } from '../helpers/key-forms.js';
import { completeBuy, newKey, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let M: string;
let buyId: string;
let positionId: string;
let spareIds: string[];
let cancelIds: string[];
const BAD_KEY = 'sk_live_THIS_bad_key_must_never_show_0123456789';

beforeAll(async () => {
  sb = await startTestSandbox();
  M = sb.tokens[0]!.mint;
  const buy = await completeBuy(sb, { mint: M });
  buyId = buy.intent.id;
  positionId = buy.positionId;
  await sb.control('/seed', { positions: 12, positionStatus: 'closed', activity: 10 });
  const positions = await sb.call('GET', '/positions', { query: { limit: 100, status: 'closed' } });
  spareIds = positions.body.data.map((p: { id: string }) => p.id);
  cancelIds = [];
  for (let i = 0; i < 12; i++) {
    const r = await sb.call('POST', '/trade/buys', {
      body: { mint: M, amountLamports: '10000000', idempotencyKey: newKey('cancel') },
    });
    cancelIds.push(r.body.data.intent.id);
  }
});
afterAll(async () => {
  await sb?.close();
});

type Mode = { name: string; flags: string[]; json: boolean; verbose: boolean; viaFlag: boolean };
const MODES: Mode[] = [
  { name: 'env, human', flags: [], json: false, verbose: false, viaFlag: false },
  { name: 'env, --json', flags: ['--json'], json: true, verbose: false, viaFlag: false },
  { name: 'env, --verbose', flags: ['--verbose'], json: false, verbose: true, viaFlag: false },
  { name: 'env, --json --verbose', flags: ['--json', '-v'], json: true, verbose: true, viaFlag: false },
  { name: '--api-key, --verbose', flags: ['--verbose'], json: false, verbose: true, viaFlag: true },
  { name: '--api-key, --json --verbose', flags: ['--json', '--verbose'], json: true, verbose: true, viaFlag: true },
];
/** Commands that also run through the built binary, in every mode. */
const SAMPLE = new Set(['me', 'a bad id (404)']);

/** `trader …args` in-process, and also through the built binary when `binary`: the results, to be checked alike. */
function trader(args: string[], env: Record<string, string>, binary = false): Promise<CliResult[]> {
  return Promise.all([runInProcess(args, env), ...(binary ? [runCli(args, { env })] : [])]);
}

/** Everything a secret could leak into: both streams hold no 8-character piece of the key. */
function assertNoKey(r: CliResult, key: string, label: string) {
  const out = r.stdout + r.stderr;
  for (let i = 0; i + 8 <= key.length; i++) {
    const piece = key.slice(i, i + 8);
    expect(out.includes(piece), `${label}: "${piece}", a piece of the key, was printed\n${out}`).toBe(false);
  }
}

/** --verbose: one line per request; --json: every stderr line is JSON. */
function assertLogShape(r: CliResult, mode: Mode, label: string) {
  const errLines = lines(r.stderr);
  if (mode.json) {
    const parsed = errLines.map((l) => {
      try {
        return JSON.parse(l) as Record<string, any>;
      } catch {
        throw new Error(`${label}: a stderr line is not JSON in --json mode: ${l}`);
      }
    });
    const requests = parsed.filter((p) => 'request' in p).map((p) => p.request);
    if (mode.verbose) {
      expect(requests.length, `${label}: no request logged\n${r.stderr}`).toBeGreaterThan(0);
      for (const q of requests) {
        expect(q, label).toMatchObject({
          method: expect.stringMatching(/^(GET|POST)$/),
          path: expect.stringMatching(/^\//),
          ms: expect.any(Number),
        });
        expect(q.status === null || typeof q.status === 'number', label).toBe(true);
        expect('requestId' in q, label).toBe(true);
      }
    } else {
      expect(requests, label).toEqual([]);
    }
    for (const p of parsed)
      expect(
        Object.keys(p).length === 1 && ['request', 'warning', 'pagination', 'error'].includes(Object.keys(p)[0]!),
        label,
      ).toBe(true);
  } else {
    const logged = errLines.filter((l) => /^(GET|POST) \//.test(l));
    if (mode.verbose) {
      expect(logged.length, `${label}: no request logged\n${r.stderr}`).toBeGreaterThan(0);
      for (const l of logged)
        expect(l, label).toMatch(
          /^(GET|POST) \/\S* (\d{3}|[A-Z_]+|no response) \d+ms( requestId=\S+)?( attempt=\d+)?$/,
        );
      expect(
        logged.some((l) => / 2\d\d \d+ms requestId=req_\w+/.test(l) || / [45]\d\d \d+ms requestId=req_\w+/.test(l)),
        label,
      ).toBe(true);
    } else {
      expect(logged, label).toEqual([]);
    }
  }
  const warned = mode.json
    ? errLines.some((l) => /"warning":".*process list/.test(l))
    : errLines.some((l) => /^warning: .*process list/.test(l));
  expect(warned, `${label}: --api-key warning ${mode.viaFlag ? 'missing' : 'unexpected'}\n${r.stderr}`).toBe(
    mode.viaFlag,
  );
}

describe('the API key never appears in any output', () => {
  // [label, args (per mode index), expected exit]
  const commands = (i: number): Array<[string, string[], number]> => [
    ['me', ['me'], 0],
    ['points', ['points'], 0],
    ['positions', ['positions', '--limit', '3'], 0],
    ['positions <id>', ['positions', positionId], 0],
    ['activity', ['activity', '--limit', '3'], 0],
    ['holdings', ['holdings'], 0],
    ['trades', ['trades', buyId], 0],
    ['cancel', ['cancel', cancelIds[i]!], 0],
    ['buy --dry-run', ['buy', M, '0.01sol', '--dry-run'], 0],
    ['sell --dry-run', ['sell', M, '10%', '--dry-run'], 0],
    ['a bad id (404)', ['positions', randomUUID()], 3],
    ['trades of an unknown id (404)', ['trades', 'sell_doesnotexist'], 3],
  ];

  it.each(MODES.map((m, i) => [m.name, m, i] as const))('%s', async (_name, mode, i) => {
    const env = trusted({
      ...freshHome(),
      TRADER_BASE_URL: sb.url,
      TRADER_KEYPAIR: sb.keypairPath,
      TRADER_RPC_URL: sb.rpcUrl,
      ...(mode.viaFlag ? {} : { TRADER_API_KEY: sb.apiKey }),
    });
    const keyFlag = mode.viaFlag ? ['--api-key', sb.apiKey] : [];
    const list = commands(i);
    const [results, binaryCancel] = await Promise.all([
      Promise.all(list.map(([label, args]) => trader([...args, ...mode.flags, ...keyFlag], env, SAMPLE.has(label)))),
      // A cancel cannot run twice: the binary cancels an intent of its own.
      runCli(['cancel', cancelIds[i + MODES.length]!, ...mode.flags, ...keyFlag], { env }),
    ]);
    [
      ...results.flatMap((rs, k) => rs.map((r) => [r, list[k]!] as const)),
      [binaryCancel, list.find(([label]) => label === 'cancel')!] as const,
    ].forEach(([r, [label, , code]]) => {
      const where = `${mode.name} / ${label}`;
      expect(r.code, `${where}\n${r.stderr}`).toBe(code);
      assertNoKey(r, sb.apiKey, where);
      assertLogShape(r, mode, where);
    });
  });
});

describe('failures that carry or follow the key', () => {
  it('401 with a bad key (env and flag), human, --json and --verbose', async () => {
    const runs = await Promise.all(
      MODES.map((mode, i) =>
        trader(
          ['me', ...mode.flags, ...(mode.viaFlag ? ['--api-key', BAD_KEY] : [])],
          { ...freshHome(), TRADER_BASE_URL: sb.url, ...(mode.viaFlag ? {} : { TRADER_API_KEY: BAD_KEY }) },
          i % 3 === 0,
        ),
      ),
    );
    runs.forEach((rs, i) => {
      const mode = MODES[i]!;
      for (const r of rs) {
        expect(r.code, `${mode.name}\n${r.stderr}`).toBe(3);
        assertNoKey(r, BAD_KEY, mode.name);
        assertLogShape(r, mode, mode.name);
        expect(r.stderr).toMatch(/401/);
      }
    });
  });

  it('a 5xx burst that passes (retried reads) and one that does not: the key is in no log line', async () => {
    // Each run reads its own position, whose exact path carries its own faults. Retry-After: 0
    // spares the backoff, which is not the subject here.
    const burst = async (id: string, status: number, count: number) =>
      sb.control('/faults', {
        match: { method: 'GET', path: `/positions/${id}`, exact: true },
        status,
        retryAfter: 0,
        count,
      });
    const runs = await Promise.all(
      MODES.map(async (mode, i) => {
        const env = { ...freshHome(), TRADER_BASE_URL: sb.url, ...(mode.viaFlag ? {} : { TRADER_API_KEY: sb.apiKey }) };
        const keyFlag = mode.viaFlag ? ['--api-key', sb.apiKey] : [];
        const binary = i === 2 || i === 5;
        // The binary run, if any, meets the same faults again after the in-process one.
        const one = async (id: string, status: number, count: number) => {
          await burst(id, status, count);
          const inProcess = await runInProcess(['positions', id, ...mode.flags, ...keyFlag], env);
          if (!binary) return [inProcess];
          await burst(id, status, count);
          return [inProcess, await runCli(['positions', id, ...mode.flags, ...keyFlag], { env })];
        };
        return Promise.all([one(spareIds[i]!, 503, 2), one(spareIds[i + MODES.length]!, 500, 1)]);
      }),
    );
    runs.forEach(([passed, failed], i) => {
      const mode = MODES[i]!;
      for (const r of passed!) expect(r.code, `${mode.name}\n${r.stderr}`).toBe(0);
      for (const r of failed!) expect(r.code, `${mode.name}\n${r.stderr}`).toBe(3);
      for (const r of [...passed!, ...failed!]) {
        assertNoKey(r, sb.apiKey, mode.name);
        assertLogShape(r, mode, mode.name);
      }
      for (const r of passed!) {
        if (mode.verbose && !mode.json) {
          const attempts = lines(r.stderr).filter((l) => l.startsWith(`GET /positions/${spareIds[i]}`));
          expect(attempts.map((l) => l.split(' ')[2])).toEqual(['503', '503', '200']);
          expect(attempts[2]).toMatch(/attempt=3$/);
        }
        if (mode.verbose && mode.json) {
          const logged = lines(r.stderr)
            .map((l) => JSON.parse(l))
            .filter((p) => p.request);
          expect(logged.map((p) => p.request.status)).toEqual([503, 503, 200]);
        }
      }
    });
  });

  it('a service that echoes the key back in an error body: redacted everywhere', async () => {
    const echo = JSON.stringify({
      error: { code: 'BAD', message: `key ${sb.apiKey} is suspended` },
      requestId: `req_${sb.apiKey}`,
    });
    const ids = MODES.map(() => randomUUID());
    for (const id of ids) {
      await sb.control('/faults', {
        match: { method: 'GET', path: `/positions/${id}`, exact: true },
        status: 400,
        body: echo,
        contentType: 'application/json',
        count: 2,
      });
    }
    const runs = await Promise.all(
      MODES.map((mode, i) =>
        trader(
          ['positions', ids[i]!, ...mode.flags, ...(mode.viaFlag ? ['--api-key', sb.apiKey] : [])],
          { ...freshHome(), TRADER_BASE_URL: sb.url, ...(mode.viaFlag ? {} : { TRADER_API_KEY: sb.apiKey }) },
          i === 5,
        ),
      ),
    );
    runs.forEach((rs, i) => {
      const mode = MODES[i]!;
      for (const r of rs) {
        expect(r.code, `${mode.name}\n${r.stderr}`).toBe(3);
        assertNoKey(r, sb.apiKey, mode.name);
        expect(r.stderr).toMatch(/suspended/);
      }
    });
  });

  it('a long error body with the key where a cut to length would fall, and the key in JSON escapes: no piece printed', async () => {
    const escaped = [...sb.apiKey].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const bodies = [
      // The message is cut at 200 characters: the key straddles the cut.
      JSON.stringify({ error: { code: 'BAD', message: `${'x'.repeat(185)} ${sb.apiKey} is suspended` } }),
      `{"error":{"code":"BAD","message":"key ${escaped} is suspended"},"requestId":"req_${escaped}"}`,
      // Plain text, as a proxy might send.
      `upstream said: ${'y'.repeat(190)}${sb.apiKey}`,
    ];
    const ids = bodies.map(() => randomUUID());
    for (const [k, body] of bodies.entries()) {
      await sb.control('/faults', {
        match: { method: 'GET', path: `/positions/${ids[k]}`, exact: true },
        status: 400,
        body,
        contentType: k === 2 ? 'text/plain' : 'application/json',
        count: 4,
      });
    }
    const env = { ...freshHome(), TRADER_BASE_URL: sb.url, TRADER_API_KEY: sb.apiKey };
    const runs = await Promise.all(
      ids.map((id, k) =>
        Promise.all([
          trader(['positions', id], env, k === 0),
          trader(['positions', id, '--json', '--verbose'], env, k === 1),
        ]),
      ),
    );
    for (const [k, pair] of runs.entries()) {
      for (const r of pair.flat()) {
        expect(r.code, r.stderr).toBe(3);
        assertNoKey(r, sb.apiKey, `body ${k}`);
      }
    }
  });

  it('account fields that echo the key (name, prefix): no piece printed', async () => {
    const account = (await sb.call('GET', '/me')).body.data;
    const echoed = {
      ...account,
      apiKey: { ...account.apiKey, name: `key ${sb.apiKey}`, prefix: sb.apiKey.slice(0, 20) },
    };
    await sb.control('/faults', {
      match: { method: 'GET', path: '/me', exact: true },
      status: 200,
      body: JSON.stringify({ data: echoed, requestId: 'req_echo' }),
      contentType: 'application/json',
      count: 3,
    });
    const env = { ...freshHome(), TRADER_BASE_URL: sb.url, TRADER_API_KEY: sb.apiKey };
    const [human, machine] = await Promise.all([trader(['me'], env), trader(['me', '--json'], env, true)]);
    for (const r of [...human!, ...machine!]) {
      expect(r.code, r.stderr).toBe(0);
      assertNoKey(r, sb.apiKey, 'me');
    }
    for (const r of machine!) expect(JSON.parse(r.stdout).apiKey.prefix).toBe(`${sb.apiKey.slice(0, 4)}…`);
  });

  it('the key echoed transformed (dashed 7-character pieces, upper case, percent-encoded) and as an object key: no piece printed, whatever the case or separators', async () => {
    const dashed = sb.apiKey
      .toUpperCase()
      .match(/.{1,7}/g)!
      .join('-');
    const percent = [...dashed].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    const account = (await sb.call('GET', '/me')).body.data;
    const echoed = {
      ...account,
      apiKey: { ...account.apiKey, name: encodeURIComponent(dashed), prefix: percent },
      echo: { [sb.apiKey]: { seen: dashed } },
    };
    await sb.control('/faults', {
      match: { method: 'GET', path: '/me', exact: true },
      status: 200,
      body: JSON.stringify({ data: echoed, requestId: 'req_echo2' }),
      contentType: 'application/json',
      count: 3,
    });
    const env = { ...freshHome(), TRADER_BASE_URL: sb.url, TRADER_API_KEY: sb.apiKey };
    const [human, machine] = await Promise.all([trader(['me'], env), trader(['me', '--json', '--verbose'], env, true)]);
    // The secret part, as letters and digits with case ignored: no 8 of them in a row anywhere.
    const secret = sb.apiKey.slice(sb.apiKey.lastIndexOf('_') + 1).toLowerCase();
    for (const r of [...human!, ...machine!]) {
      expect(r.code, r.stderr).toBe(0);
      assertNoKey(r, sb.apiKey, 'me');
      const flat = decodeURIComponent((r.stdout + r.stderr).replace(/%(?![0-9a-f]{2})/gi, '%25'))
        .replace(/[^0-9a-z]/gi, '')
        .toLowerCase();
      for (let i = 0; i + 8 <= secret.length; i++)
        expect(
          flat.includes(secret.slice(i, i + 8)),
          `a piece of the key, transformed, was printed\n${r.stdout}${r.stderr}`,
        ).toBe(false);
    }
    for (const r of machine!) {
      const data = JSON.parse(r.stdout);
      expect(Object.keys(data.echo)).toEqual([`${sb.apiKey.slice(0, 4)}…`]);
      expect(data.apiKey.name).toBe(`${sb.apiKey.slice(0, 4)}…`);
    }
  });

  it('the key echoed base64-, base64url- or hex-encoded, reversed, or in 7-character windows shifted by one: no form of it printed, in human, --json and --verbose', async () => {
    const key = sb.apiKey;
    const secret = key.slice(key.lastIndexOf('_') + 1);
    const hex = Buffer.from(key).toString('hex');
    const windows = Array.from({ length: key.length - 6 }, (_, i) => key.slice(i, i + 7)).join(' ');
    const forms: Record<string, string> = {
      base64: Buffer.from(`key=${key}`).toString('base64'),
      base64url: Buffer.from(`${key}`).toString('base64url'),
      hex,
      reversed: [...key].reverse().join(''),
    };
    const account = (await sb.call('GET', '/me')).body.data;
    const echoed = {
      ...account,
      apiKey: { ...account.apiKey, name: forms.base64, prefix: forms.reversed },
      note: forms.hex,
      tag: forms.base64url,
      windows,
    };
    // The request id echoes it too (the --verbose line and the error tail print request ids).
    const body = JSON.stringify({ data: echoed, requestId: `req_${Buffer.from(key).toString('base64url')}` });
    await sb.control('/faults', {
      match: { method: 'GET', path: '/me', exact: true },
      status: 200,
      body,
      contentType: 'application/json',
      count: 5,
    });
    const env = { ...freshHome(), TRADER_BASE_URL: sb.url, TRADER_API_KEY: key };
    const runs = await Promise.all([
      trader(['me'], env),
      trader(['me', '--json'], env),
      trader(['me', '--verbose'], env),
      trader(['me', '--json', '--verbose'], env, true),
    ]);
    /** 8 letters and digits in a row of `form` (case folded) found in `out`. */
    const pieceOf = (out: string, form: string) => {
      const flat = out.replace(/[^0-9a-z]/gi, '').toLowerCase();
      const f = form.replace(/[^0-9a-z]/gi, '').toLowerCase();
      for (let i = 0; i + 8 <= f.length; i++) if (flat.includes(f.slice(i, i + 8))) return f.slice(i, i + 8);
      return null;
    };
    for (const r of runs.flat()) {
      expect(r.code, r.stderr).toBe(0);
      assertNoKey(r, key, 'me');
      const out = r.stdout + r.stderr;
      // The key's public head (sk_sandbox_) is no secret: of each encoding, the characters that depend on the secret part.
      const head = key.length - secret.length;
      const after = (encoded: string, before: number) => encoded.slice(Math.ceil(((before + head) * 8) / 6));
      for (const [name, form] of Object.entries({
        base64: after(forms.base64!, 4),
        base64url: after(forms.base64url!, 0),
        hex: Buffer.from(secret).toString('hex'),
        reversed: [...secret].reverse().join(''),
        secret,
        base64key: after(Buffer.from(key).toString('base64'), 0),
      })) {
        expect(pieceOf(out, form), `${name} left in:\n${out}`).toBeNull();
      }
      // The windows: what is left of them holds too little of the secret to put it back together.
      const flat = out.replace(/[^0-9a-z]/gi, '').toLowerCase();
      const fours = new Set(
        Array.from({ length: secret.length - 3 }, (_, i) => secret.slice(i, i + 4).toLowerCase()).filter((p) =>
          flat.includes(p),
        ),
      );
      expect(fours.size, out).toBeLessThan(secret.length / 3);
    }
  });

  it('TRADER_DEBUG=1 is --verbose', async () => {
    const r = await runCli(['me'], {
      env: { ...freshHome(), TRADER_BASE_URL: sb.url, TRADER_API_KEY: sb.apiKey, TRADER_DEBUG: '1' },
    });
    expect(r.code).toBe(0);
    assertNoKey(r, sb.apiKey, 'TRADER_DEBUG');
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^GET \/me 200 \d+ms requestId=req_\w+$/)]);
  });
});

describe('config list / get with the key in the profile', () => {
  it('human and --json, with and without --verbose: masked, never whole', async () => {
    const h = freshHome();
    const set = await runCli(['config', 'set', 'apiKey', sb.apiKey], { env: h });
    expect(set.code).toBe(0);
    assertNoKey(set, sb.apiKey, 'config set');
    const runs = await Promise.all(
      [
        ['config', 'list'],
        ['config', 'get', 'apiKey'],
      ].flatMap((args, a) =>
        [[], ['--json'], ['--verbose'], ['--json', '--verbose']].map((flags, f) =>
          trader([...args, ...flags], h, a === 0 && f === 3),
        ),
      ),
    );
    runs.flat().forEach((r, i) => {
      expect(r.code, r.stderr).toBe(0);
      assertNoKey(r, sb.apiKey, `config #${i}`);
      expect(r.stdout).toMatch(/…/);
    });
    // And the commands using that profile key.
    const me = await runCli(['me', '--verbose'], { env: { ...h, TRADER_BASE_URL: sb.url } });
    expect(me.code, me.stderr).toBe(0);
    assertNoKey(me, sb.apiKey, 'me with the profile key');
  });
});

describe('a secret key or seed phrase given where its source belongs', () => {
  // Not the sandbox's key: a key of its own, so that a piece of it found anywhere is an echo.
  const secret = Uint8Array.from({ length: 64 }, (_, i) => (i * 53 + 29) % 256);
  const forms = Object.entries(keyForms(secret));
  const REFUSAL =
    /could be a secret key itself \([^)]*; not shown here\), not where one is: .*trader keys import <name> --from stdin:.*--keypair stdin: or prompt:/;

  /** The config file and the journal beside it: what a refused run must not have stored. */
  const stored = (home: { TRADER_CONFIG: string }) =>
    [home.TRADER_CONFIG, join(dirname(home.TRADER_CONFIG), 'journal.jsonl')]
      .map((p) => (existsSync(p) ? readFileSync(p, 'utf8') : ''))
      .join('\n');

  it.each(forms)(
    '%s: --keypair, TRADER_KEYPAIR, keystore:, file:, config set keypair: exit 2, in no output, config or journal',
    async (_name, form) => {
      const home = freshHome();
      const env = trusted({ ...home, TRADER_BASE_URL: sb.url, TRADER_API_KEY: sb.apiKey, TRADER_RPC_URL: sb.rpcUrl });
      const buy = ['buy', M, '0.01sol', '--yes'];
      const runs = await Promise.all([
        runInProcess([...buy, '--keypair', form], env),
        runInProcess([...buy, '--json'], { ...env, TRADER_KEYPAIR: form }),
        runInProcess([...buy, '--keypair', `keystore:${form}`], env),
        runInProcess(['balance', '--json'], { ...env, TRADER_KEYPAIR: `keystore:${form}` }),
        runInProcess([...buy, '--keypair', `file:${form}`], env),
        runInProcess(['balance'], { ...env, TRADER_KEYPAIR: `file://${form}` }),
        runInProcess(['config', 'set', 'keypair', form], env),
        runInProcess(['config', 'set', 'keypair', `keystore:${form}`], env),
        runInProcess(['config', 'set', 'keypair', `file:${form}`], env),
        // A variable that wins over the profile is named by config get/set with its value: not this one.
        runInProcess(['config', 'get', 'keypair'], { ...env, TRADER_KEYPAIR: form }),
      ]);
      for (const [i, r] of runs.entries()) {
        expect(r.code, `run ${i}\n${r.stderr}`).toBe(2);
        expect(r.stderr, `run ${i}`).toMatch(REFUSAL);
        expect(pieceOf(r.stdout + r.stderr, form), `run ${i} echoed a piece of the key`).toBeNull();
      }
      expect(pieceOf(stored(home), form), 'stored').toBeNull();
      expect(existsSync(join(dirname(home.TRADER_CONFIG), 'journal.jsonl'))).toBe(false);
    },
  );

  it('through the built binary too (a sample), and an ordinary path still works', async () => {
    const home = freshHome();
    const env = trusted({ ...home, TRADER_BASE_URL: sb.url, TRADER_API_KEY: sb.apiKey, TRADER_RPC_URL: sb.rpcUrl });
    const samples = ['hex of 64 bytes', 'base58 of the 32-byte seed', 'seed phrase of 12 words'].map(
      (n) => keyForms(secret)[n]!,
    );
    const runs = await Promise.all(
      samples.flatMap((form) => [
        runCli(['balance', '--json'], { env: { ...env, TRADER_KEYPAIR: form } }),
        runCli(['config', 'set', 'keypair', form], { env }),
      ]),
    );
    for (const [i, r] of runs.entries()) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/could be a secret key itself/);
      expect(pieceOf(r.stdout + r.stderr, samples[i >> 1]!)).toBeNull();
    }
    expect(pieceOf(stored(home), samples.join(''))).toBeNull();
    // The control: the sandbox's keypair file, by its path, is set and used.
    const set = await runInProcess(['config', 'set', 'keypair', sb.keypairPath], env);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(readFileSync(home.TRADER_CONFIG, 'utf8')).profiles.default.keypair).toBe(sb.keypairPath);
    expect((await runInProcess(['balance'], env)).code).toBe(0);
  });

  it('a keypair file holding a wallet export (base58 of the 64 bytes): refused as not JSON, pointing to stdin: and keys import, the content not shown', async () => {
    const home = freshHome();
    const file = join(dirname(home.TRADER_CONFIG), 'exported.txt');
    writeFileSync(file, `${bs58.encode(sb.keypair.secretKey)}\n`, { mode: 0o600 });
    const r = await runInProcess(['balance'], {
      ...home,
      TRADER_BASE_URL: sb.url,
      TRADER_API_KEY: sb.apiKey,
      TRADER_RPC_URL: sb.rpcUrl,
      TRADER_KEYPAIR: file,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `keypair file ${file}: is not JSON: it holds what could be a secret key (base58 of 64 bytes; not shown)`,
    );
    expect(r.stderr).toContain(`\`trader keys import <name> --from stdin: < ${file}\``);
    expect(r.stderr).toContain(`--keypair stdin: < ${file}`);
    expect(pieceOf(r.stdout + r.stderr, bs58.encode(sb.keypair.secretKey))).toBeNull();
  });

  it('a key an earlier version stored as the profile keypair: config list and get do not show it, other commands refuse it', async () => {
    const home = freshHome();
    const form = keyForms(secret)['base58 of 64 bytes']!;
    writeFileSync(home.TRADER_CONFIG, JSON.stringify({ profiles: { default: { keypair: form } } }), { mode: 0o600 });
    const env = { ...home, TRADER_BASE_URL: sb.url, TRADER_API_KEY: sb.apiKey, TRADER_RPC_URL: sb.rpcUrl };
    const [list, get, balance] = await Promise.all([
      runInProcess(['config', 'list', '--json'], env),
      runInProcess(['config', 'get', 'keypair', '--json'], env),
      runInProcess(['balance'], env),
    ]);
    for (const r of [list, get]) {
      expect(r.code, r.stderr).toBe(0);
      const shown = JSON.parse(r.stdout);
      expect(shown.value ?? shown.settings.keypair).toBe(
        '(could be a secret key, not shown: remove it with `trader config set keypair ""`)',
      );
    }
    expect(balance.code).toBe(2);
    expect(balance.stderr).toMatch(/the profile's keypair could be a secret key itself/);
    // A source given for the run wins, and the profile's is then not read.
    expect((await runInProcess(['balance'], { ...env, TRADER_KEYPAIR: sb.keypairPath })).code).toBe(0);
    for (const r of [list, get, balance]) expect(pieceOf(r.stdout + r.stderr, form)).toBeNull();
  });
});
