// The table tier: argv → typed options for every command, through the program exactly as the
// binary builds it, with the run replaced (ProgramHooks.execute) — nothing runs, no file is
// read, no request is sent. Defaults, every option, and the usage errors (exit 2) with their
// messages. The binary's own behaviour on bad input is in test/e2e/bad-input.test.ts.
import { PassThrough } from 'node:stream';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import type { GlobalOptions } from '../../src/config/settings.js';
import type { AnyCommand, CommandDefinition } from '../../src/cli/definition.js';
import { COMMANDS } from '../../src/command-table.js';
import {
  DEFAULT_WATCH_INTERVAL_SECONDS,
  SANDBOX_HOST,
  SANDBOX_START_BALANCE_LAMPORTS,
} from '../../src/domain/defaults.js';
import { UsageError } from '../../src/domain/errors.js';
import { buildProgram } from '../../src/program.js';

const M = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
const T = 'FkD9N7noZTJVUa3vV4nTrNcftCW8UPHtDPgceYqmmJkS';
const U = '3f0c2a9e-1b2c-4d5e-8f90-0123456789ab';

/** Every definition by the words that name it (`buy`, `config trust forget`). */
async function definitionNames(): Promise<Map<AnyCommand, string>> {
  const names = new Map<AnyCommand, string>();
  const add = (command: AnyCommand, name: string) => {
    names.set(command, name);
    for (const sub of command.subcommands ?? []) add(sub.command, `${name} ${sub.name}`);
  };
  for (const entry of COMMANDS) add(await entry.definition(), entry.name);
  return names;
}
const NAMES = await definitionNames();

interface Parsed {
  command: string;
  options: unknown;
  globals: GlobalOptions;
}

/** What `trader ...argv` is parsed into; throws what the run would print as its error. */
async function parse(argv: string[]): Promise<Parsed> {
  let parsed: Parsed | undefined;
  const quiet = new PassThrough();
  quiet.resume();
  const program = buildProgram({
    facts: {
      stdout: quiet,
      stderr: quiet,
      stdin: quiet,
      env: {},
      home: '/nonexistent',
      clock: systemClock,
      signal: new AbortController().signal,
      version: '0.0.0-test',
      fetch: () => Promise.reject(new Error('parsing must not send anything')),
    },
    runCaptured: () => Promise.reject(new Error('parsing runs nothing')),
    onFlags: () => {},
    execute: async (definition: CommandDefinition<unknown>, options, globals) => {
      parsed = { command: NAMES.get(definition) ?? '?', options, globals };
    },
  });
  await program.parseAsync(argv, { from: 'user' });
  if (!parsed) throw new Error(`nothing ran for ${JSON.stringify(argv)}`);
  return parsed;
}

/** The options `trader ...argv` runs `command` with. */
async function options(command: string, argv: string[]): Promise<unknown> {
  const parsed = await parse(argv);
  expect(parsed.command).toBe(command);
  return parsed.options;
}

/** The one-line usage error (exit 2) `trader ...argv` stops with before anything runs. */
async function usageError(argv: string[]): Promise<string> {
  const err = await parse(argv).then(
    () => null,
    (e: unknown) => e,
  );
  if (err instanceof UsageError) return err.message;
  if (err instanceof CommanderError) {
    expect(err.exitCode).toBe(1); // commander's usage errors; src/run.ts prints them as exit 2
    return err.message;
  }
  throw new Error(`${JSON.stringify(argv)} was not refused: ${String(err)}`);
}

const TRADE_DEFAULTS = { slippageBps: undefined, idempotencyKey: undefined, wait: true, dryRun: false };
const PAGE_DEFAULTS = { limit: undefined, cursor: undefined, all: false, csv: false, wide: false };

describe('buy', () => {
  it.each<[string[], object]>([
    [
      ['buy', M, '0.1sol'],
      {
        token: { kind: 'mint', mint: M },
        amount: 100_000_000n,
        amountText: '0.1sol',
        maxFeeLamports: undefined,
        ...TRADE_DEFAULTS,
      },
    ],
    [
      ['buy', 'WOOF', '250000000'],
      { token: { kind: 'lookup', text: 'WOOF' }, amount: 250_000_000n, amountText: '250000000' },
    ],
    [['buy', '$woof', '1SOL'], { token: { kind: 'lookup', text: '$woof' }, amount: 1_000_000_000n }],
    [['buy', M.slice(0, 8), '0.000000001sol'], { token: { kind: 'lookup', text: M.slice(0, 8) }, amount: 1n }],
    [
      [
        'buy',
        M,
        '1sol',
        '--slippage-bps',
        '50',
        '--idempotency-key',
        'key-1',
        '--max-fee-lamports',
        '5000',
        '--no-wait',
        '--dry-run',
      ],
      { slippageBps: 50, idempotencyKey: 'key-1', maxFeeLamports: 5000n, wait: false, dryRun: true },
    ],
    [
      ['--yes', 'buy', M, '1sol', '--max-fee-lamports', '0', '--slippage-bps', '0'],
      { slippageBps: 0, maxFeeLamports: 0n },
    ],
  ])('%j', async (argv, expected) => {
    expect(await options('buy', argv)).toMatchObject(expected);
  });

  it.each<[string[], RegExp]>([
    [['buy', M, '-1sol'], /^invalid amount "-1sol": it is negative/],
    [['buy', M, '1.5'], /^invalid amount "1\.5": a decimal amount needs the suffix sol/],
    [['buy', M, '0'], /^invalid amount "0": it must be more than zero/],
    [['buy', M, '0.0000000001sol'], /SOL has at most 9 decimals/],
    [['buy', M, '18446744073709551616'], /more than the largest possible amount/],
    [['buy', 'not base58 0OIl', '1'], /^token must be a mint address/],
    [
      ['buy', M, '1', '--slippage-bps', '10001'],
      /^invalid --slippage-bps "10001": use a whole number of basis points from 0 to 10000/,
    ],
    [['buy', M, '1', '--max-fee-lamports', '1.5'], /^invalid --max-fee-lamports "1\.5"/],
    [['buy', M, '1', '--idempotency-key', 'a b'], /^--idempotency-key must be 1-128 letters/],
    [['buy', M], /missing required argument 'amount'/],
    [['buy', M, '1', 'extra'], /too many arguments/],
    [['buy', M, '1', '--slipage-bps', '5'], /unknown option '--slipage-bps'.*--slippage-bps/],
  ])('%j → %s', async (argv, message) => {
    expect(await usageError(argv)).toMatch(message);
  });
});

describe('sell', () => {
  it.each<[string[], object]>([
    [
      ['sell', M, '50%'],
      {
        token: { kind: 'mint', mint: M },
        amount: { kind: 'percent', percent: 50n },
        minSolLamports: null,
        ...TRADE_DEFAULTS,
      },
    ],
    [['sell', 'WOOF', 'all'], { token: { kind: 'lookup', text: 'WOOF' }, amount: { kind: 'all' } }],
    [['sell', M, 'ALL'], { amount: { kind: 'all' } }],
    [['sell', M, '1000000'], { amount: { kind: 'raw', units: 1_000_000n } }],
    [
      [
        'sell',
        M,
        '100%',
        '--slippage-bps',
        '300',
        '--idempotency-key',
        'k',
        '--min-sol',
        '0.2',
        '--no-wait',
        '--dry-run',
      ],
      {
        amount: { kind: 'percent', percent: 100n },
        slippageBps: 300,
        idempotencyKey: 'k',
        minSolLamports: 200_000_000n,
        wait: false,
        dryRun: true,
      },
    ],
    [['sell', M, '1', '--min-sol', '0'], { minSolLamports: 0n }],
    [['sell', M, '1', '--min-sol', '1.5sol'], { minSolLamports: 1_500_000_000n }],
    [
      ['sell', 'SGLD', '1.5sgld'],
      {
        token: { kind: 'lookup', text: 'SGLD' },
        amount: { kind: 'tokens', text: '1.5sgld', number: '1.5', unit: 'sgld' },
        amountText: '1.5sgld',
      },
    ],
    [['sell', M, '1.5tokens'], { amount: { kind: 'tokens', text: '1.5tokens', number: '1.5', unit: 'tokens' } }],
    [['sell', M, '10'], { amount: { kind: 'raw', units: 10n } }],
  ])('%j', async (argv, expected) => {
    expect(await options('sell', argv)).toMatchObject(expected);
  });

  it.each<[string[], RegExp]>([
    [['sell', M, '0%'], /the percentage must be from 1 to 100/],
    [['sell', M, '101%'], /the percentage must be from 1 to 100/],
    [['sell', M, '50.5%'], /the percentage must be a whole number/],
    [['sell', M, '-5%'], /^invalid amount "-5%": it is negative/],
    [
      ['sell', M, '1.5'],
      /^invalid amount "1\.5": a number with decimal places is whole tokens and needs the unit: 1\.5tokens; use raw token units \(1000000\), whole tokens with the symbol or "tokens" \(1\.5sgld, 1\.5tokens\), all, or a whole percentage from 1% to 100%$/,
    ],
    // A token typed as a symbol makes the example its own; a mint prefix (8+ characters) does not.
    [
      ['sell', '$woof', '2.5'],
      /needs the unit: 2\.5woof or 2\.5tokens; use raw token units \(1000000\), whole tokens with the symbol or "tokens" \(1\.5woof, 1\.5tokens\)/,
    ],
    [
      ['sell', M.slice(0, 8), '2.5'],
      /needs the unit: 2\.5tokens; use raw token units \(1000000\), whole tokens with the symbol or "tokens" \(1\.5sgld, 1\.5tokens\)/,
    ],
    [['sell', M, '0tokens'], /^invalid amount "0tokens": it must be more than zero/],
    [['sell', M, '-1.5sgld'], /^invalid amount "-1\.5sgld": it is negative/],
    [['sell', 'WOOF/../x', '1'], /^token must be a mint address/],
    [['sell', M, '1', '--min-sol', '1e-3'], /^invalid --min-sol "1e-3"/],
    [['sell', M, '1', '--slippage-bps', '-1'], /slippage-bps/],
  ])('%j → %s', async (argv, message) => {
    expect(await usageError(argv)).toMatch(message);
  });
});

describe('cancel, trades, positions: ids whole or as a prefix', () => {
  it.each<[string, string[], object]>([
    ['cancel', ['cancel', U.toUpperCase()], { buyId: { kind: 'full', id: U } }],
    ['cancel', ['cancel', '3f0c2a9e…'], { buyId: { kind: 'prefix', prefix: '3f0c2a9e' } }],
    [
      'trades',
      ['trades', U],
      { id: { kind: 'full', id: U }, watch: false, intervalSeconds: DEFAULT_WATCH_INTERVAL_SECONDS },
    ],
    [
      'trades',
      ['trades', 'sell_abc123', '--watch', '--interval', '2.5'],
      { id: { kind: 'full', id: 'sell_abc123' }, watch: true, intervalSeconds: 2.5 },
    ],
    ['trades', ['trades', U, '--verify'], { id: { kind: 'full', id: U }, watch: false, verify: true }],
    ['trades', ['trades', '3F0C2A9E-1b'], { id: { kind: 'prefix', prefix: '3f0c2a9e-1b', typed: '3F0C2A9E-1b' } }],
    ['trades', ['trades', 'sg_group:key.1'], { id: { kind: 'full', id: 'sg_group:key.1' } }],
    ['trades', ['trades', U, '--status'], { id: { kind: 'full', id: U }, statusOnly: true, watch: false }],
    ['trades', ['trades'], { id: null, watch: false, statusOnly: false, limit: 25, wide: false }],
    ['trades', ['trades', '--limit', '1', '--wide'], { id: null, limit: 1, wide: true }],
    ['trades', ['trades', '--limit', '100'], { id: null, limit: 100 }],
    ['positions', ['positions'], { id: null, status: undefined, ...PAGE_DEFAULTS }],
    ['positions', ['positions', '3f0c2a9e'], { id: { kind: 'prefix', prefix: '3f0c2a9e' } }],
    [
      'positions',
      ['positions', '--status', 'open', '--limit', '100', '--cursor', 'abc%3D', '--all', '--csv', '--wide'],
      { id: null, status: 'open', limit: 100, cursor: 'abc%3D', all: true, csv: true, wide: true },
    ],
  ])('%s %j', async (command, argv, expected) => {
    expect(await options(command, argv)).toMatchObject(expected);
  });

  it.each<[string[], RegExp]>([
    [['cancel', 'not-a-uuid'], /^buy id must be a uuid like 3f0c2a9e-…, or its first 8 or more characters/],
    [['cancel', '3f0c2a9'], /^buy id "3f0c2a9" is too short: type at least 8 characters/],
    [['cancel'], /missing required argument 'buyId'/],
    [['trades', 'dead'], /^trade id "dead" is too short/],
    [['trades', '--limit', '0'], /--limit/],
    [['trades', '--limit', '101'], /--limit/],
    [['trades', '--watch'], /^--watch follows one trade: give its id/],
    [['trades', U, '--limit', '5'], /^--limit is for the list/],
    [['trades', 'sell_a/b'], /^sell id must be sell_ followed by letters or digits/],
    [['trades', '--', '-x'], /^trade id must be a buy id/],
    [['trades', U, '--verify', '--watch'], /^--verify and --watch cannot be combined/],
    [['trades', U, '--interval', '1.9'], /^invalid --interval "1\.9": use a number of seconds, at least 2/],
    [['trades', U, '--status', '--watch'], /^--status and --watch do not go together/],
    [['trades', 'sell_abc123', '--status'], /^--status reads a trade id or buy id; a sell_… id has no compact status/],
    [['positions', '../activity'], /^position id must be a uuid/],
    [['positions', '--status', 'OPEN'], /^--status must be one of pending_deposit, .*; got "OPEN"/],
    [['positions', '--limit', '0'], /^invalid --limit "0": use a whole number from 1 to 100/],
    [['positions', '--cursor', ''], /^--cursor must be the nextCursor value from a previous page/],
    [['positions', '--csv', '--json'], /^--csv and --json cannot be used together/],
    [['positions', U, U], /too many arguments/],
  ])('%j → %s', async (argv, message) => {
    expect(await usageError(argv)).toMatch(message);
  });
});

describe('activity, holdings, pnl, me, points', () => {
  it.each<[string, string[], object]>([
    ['activity', ['activity'], { types: undefined, ...PAGE_DEFAULTS }],
    [
      'activity',
      ['activity', '--type', 'buy, sell,buy', '--limit', '1', '--cursor', 'c', '--all', '--csv', '--wide'],
      { types: ['buy', 'sell'], limit: 1, cursor: 'c', all: true, csv: true, wide: true },
    ],
    ['holdings', ['holdings'], { csv: false, wide: false }],
    ['holdings', ['holdings', '--csv', '--wide'], { csv: true, wide: true }],
    ['pnl', ['pnl'], { token: null, since: null, csv: false }],
    [
      'pnl',
      ['pnl', '--token', 'WOOF', '--since', '2026-01-01T00:00:00Z', '--csv'],
      { token: { kind: 'lookup', text: 'WOOF' }, since: Date.UTC(2026, 0, 1), csv: true },
    ],
    ['pnl', ['pnl', '--since', '2026-01-01'], { since: new Date(2026, 0, 1).getTime() }],
    ['me', ['me'], {}],
    ['balance', ['balance', '--json'], { tokens: false }],
    ['balance', ['balance', '--tokens'], { tokens: true }],
    ['points', ['points', '--json'], {}],
    ['token', ['token', 'WOOF'], { token: { kind: 'lookup', text: 'WOOF' } }],
    [
      'token',
      ['token', 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd'],
      { token: { kind: 'mint', mint: 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd' } },
    ],
    ['lock', ['lock'], { reason: null }],
    ['lock', ['lock', ' price feed down '], { reason: 'price feed down' }],
    ['unlock', ['unlock'], {}],
  ])('%s %j', async (command, argv, expected) => {
    expect(await options(command, argv)).toEqual(expect.objectContaining(expected));
  });

  it.each<[string[], RegExp]>([
    [
      ['activity', '--type', 'buy,,sell'],
      /^--type must be a comma-separated list of buy, sell, deposit, payout, refund; "" is not one/,
    ],
    [['activity', '--limit', '101'], /^invalid --limit "101"/],
    [['activity', '--json', '--csv'], /^--csv and --json cannot be used together/],
    [['holdings', '--csv', '--json'], /^--csv and --json cannot be used together/],
    [['pnl', '--since', '2026-02-30'], /^--since must be a date like 2026-01-01/],
    [
      ['pnl', '--token', 'a b'],
      /^--token must be a mint address \(base58, 32 bytes\), or the symbol or first 8\+ characters of the mint of a token you hold or traded; got "a b"$/,
    ],
    [['me', 'extra'], /too many arguments/],
    [['lock', 'a\nb'], /^the reason must be one line of at most 200 characters/],
    [['lock', 'x'.repeat(201)], /^the reason must be one line of at most 200 characters/],
    [['unlock', '--yes-please'], /unknown option '--yes-please'/],
    [['me', '--bogus'], /unknown option '--bogus'/],
  ])('%j → %s', async (argv, message) => {
    expect(await usageError(argv)).toMatch(message);
  });
});

describe('config', () => {
  it.each<[string, string[], object]>([
    ['config init', ['config', 'init'], {}],
    ['config list', ['config', 'list'], {}],
    ['config path', ['config', 'path'], {}],
    ['config get', ['config', 'get', 'baseUrl'], { key: 'baseUrl' }],
    ['config set', ['config', 'set', 'maxBuyLamports', '500000000'], { key: 'maxBuyLamports', value: '500000000' }],
    ['config set', ['config', 'set', 'maxSlippageBps', '300'], { key: 'maxSlippageBps', value: 300 }],
    ['config set', ['config', 'set', 'timeout', '1.5'], { key: 'timeout', value: 1.5 }],
    ['config set', ['config', 'set', 'treasury', T], { key: 'treasury', value: T }],
    [
      'config set',
      ['config', 'set', 'baseUrl', 'https://api.example.com'],
      { key: 'baseUrl', value: 'https://api.example.com' },
    ],
    [
      'config set',
      ['config', 'set', 'baseUrl', 'http://127.0.0.1:8787'],
      { key: 'baseUrl', value: 'http://127.0.0.1:8787' },
    ],
    [
      'config set',
      ['--insecure', 'config', 'set', 'baseUrl', 'http://example.com'],
      { key: 'baseUrl', value: 'http://example.com' },
    ],
    ['config set', ['config', 'set', 'apiKey', ''], { key: 'apiKey', value: undefined }],
    // `-`: read from standard input (hidden on a terminal), never typed as an argument.
    ['config set', ['config', 'set', 'apiKey', '-'], { key: 'apiKey', value: undefined, fromInput: true }],
    ['config set', ['config', 'set', 'apiKeyFile', '~/.trader-key'], { key: 'apiKeyFile', value: '~/.trader-key' }],
    ['config set', ['config', 'set', 'keypair', 'keystore:main'], { key: 'keypair', value: 'keystore:main' }],
    ['config set', ['config', 'set', 'keypair', 'prompt:?key=0/0'], { key: 'keypair', value: 'prompt:?key=0/0' }],
    ['config trust', ['config', 'trust'], {}],
    ['config trust show', ['config', 'trust', 'show'], {}],
    [
      'config trust accept-wording',
      ['config', 'trust', 'accept-wording', ' 3f9a1c0d2b7e4a51 '],
      { fingerprint: '3f9a1c0d2b7e4a51' },
    ],
    [
      'config trust accept-token',
      ['config', 'trust', 'accept-token', 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd', ' 0123456789abcdef '],
      { mint: 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd', fingerprint: '0123456789abcdef' },
    ],
    [
      'config trust accept-risks',
      ['config', 'trust', 'accept-risks', 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd', ' 0123456789abcdef '],
      { mint: 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd', fingerprint: '0123456789abcdef' },
    ],
    [
      'config trust accept-treasury',
      ['config', 'trust', 'accept-treasury', 'FkD9N7noZTJVUa3vV4nTrNcftCW8UPHtDPgceYqmmJkS'],
      { address: 'FkD9N7noZTJVUa3vV4nTrNcftCW8UPHtDPgceYqmmJkS' },
    ],
    ['config trust forget', ['config', 'trust', 'forget', 'wording'], { what: 'wording' }],
    ['config trust forget', ['config', 'trust', 'forget', 'tokens'], { what: 'tokens' }],
  ])('%s %j', async (command, argv, expected) => {
    expect(await options(command, argv)).toEqual(expected);
  });

  it.each<[string[], RegExp]>([
    [['config', 'get', 'nope'], /^unknown config key "nope"; keys: baseUrl, /],
    [
      ['config', 'set', 'baseUrl', 'not a url'],
      /^invalid config key baseUrl "not a url": expected https:\/\/host\[\/path\]/,
    ],
    [
      ['config', 'set', 'baseUrl', 'http://example.com'],
      /^refusing plain http:\/\/ to example\.com: .* pass --insecure/,
    ],
    [['config', 'set', 'baseUrl', 'https://user:pw@example.com'], /must not contain a user name or password/],
    [['config', 'set', 'maxSlippageBps', '10001'], /^invalid config key maxSlippageBps "10001"/],
    [['config', 'set', 'maxBuyLamports', '-5'], /^invalid config key maxBuyLamports "-5"/],
    [['config', 'set', 'timeout', 'abc'], /^invalid config key timeout "abc"/],
    [['config', 'set', 'treasury', 'not-base58-0OIl'], /^treasury must be a base58 address of 32 bytes/],
    [['config', 'set', 'keypair', ' ~/id.json'], /^keypair must not be empty or have surrounding spaces/],
    [
      ['config', 'set', 'keypair', 'usb://ledger'],
      /^usb:\/\/ledger is not supported: .*raw text, which the Solana Ledger app does not sign/,
    ],
    [
      ['config', 'set', 'keypair', 'vault:main'],
      /^unknown keypair source scheme "vault:"; known: a path, file:, keystore:, prompt:, stdin:/,
    ],
    [
      ['config', 'trust', 'forget', 'everything'],
      /^what to forget must be one of treasury, wording, tokens, token; got "everything"/,
    ],
    [['config', 'trust', 'accept-wording', '  '], /^the wording fingerprint must not be empty/],
    // attack-3 F8: the mint alone would confirm whatever facts a later refusal kept for it.
    [
      ['config', 'trust', 'accept-token', 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd'],
      /missing required argument 'fingerprint'/,
    ],
    [
      ['config', 'trust', 'accept-token', 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd', ' '],
      /^the token facts fingerprint must not be empty/,
    ],
  ])('%j → %s', async (argv, message) => {
    expect(await usageError(argv)).toMatch(message);
  });
});

describe('keys', () => {
  it.each<[string, string[], object]>([
    ['keys import', ['keys', 'import', 'main'], { name: 'main', source: { kind: 'prompt', path: [44, 501] } }],
    [
      'keys import',
      ['keys', 'import', 'main', '--from', '~/id.json'],
      { name: 'main', source: { kind: 'file', path: '~/id.json' } },
    ],
    ['keys import', ['keys', 'import', 'k-2.b_c', '--from', 'stdin:'], { name: 'k-2.b_c', source: { kind: 'stdin' } }],
    [
      'keys import',
      ['keys', 'import', 'p', '--from', 'prompt:?key=0/0'],
      { name: 'p', source: { kind: 'prompt', path: [44, 501, 0, 0] } },
    ],
    [
      'keys import',
      ['keys', 'import', 'legacy', '--from', 'ASK'],
      { name: 'legacy', source: { kind: 'prompt', path: null } },
    ],
    ['keys list', ['keys', 'list'], {}],
    ['keys show', ['keys', 'show', 'main'], { name: 'main' }],
    ['keys export', ['keys', 'export', 'main'], { name: 'main', output: undefined }],
    ['keys export', ['keys', 'export', 'main', '--output', 'b.json'], { name: 'main', output: 'b.json' }],
    ['keys remove', ['keys', 'remove', 'main'], { name: 'main' }],
    ['keys passwd', ['keys', 'passwd', 'main'], { name: 'main', newPasswordFile: undefined }],
    [
      'keys passwd',
      ['keys', 'passwd', 'main', '--new-password-file', 'n.txt'],
      { name: 'main', newPasswordFile: 'n.txt' },
    ],
  ])('%s %j', async (command, argv, expected) => {
    expect(await options(command, argv)).toEqual(expected);
  });

  it.each<[string[], RegExp]>([
    [['keys', 'import', '.hidden'], /^keystore name ".hidden" is not allowed/],
    [['keys', 'show', 'a/b'], /^keystore name "a\/b" is not allowed/],
    [['keys', 'import', 'x', '--from', 'keystore:y'], /^--from keystore:y is a keystore already/],
    [['keys', 'import', 'x', '--from', 'usb://ledger'], /not supported/],
    [['keys', 'import', 'x', '--password', 'hunter2'], /unknown option '--password'/],
  ])('%j → %s', async (argv, message) => {
    expect(await usageError(argv)).toMatch(message);
  });
});

describe('sandbox, completion, commands and mcp', () => {
  it.each<[string, string[], object]>([
    [
      'sandbox',
      ['sandbox'],
      // The port not given: SANDBOX_PORT in the foreground, any free one in the background (run decides).
      {
        port: undefined,
        host: SANDBOX_HOST,
        state: undefined,
        keypair: undefined,
        history: true,
        balanceLamports: SANDBOX_START_BALANCE_LAMPORTS,
        background: false,
      },
    ],
    ['sandbox', ['sandbox', '--background'], { port: undefined, background: true }],
    ['sandbox', ['sandbox', '--background', '--port', '8787'], { port: 8787, background: true }],
    ['sandbox stop', ['sandbox', 'stop'], {}],
    [
      'sandbox',
      [
        'sandbox',
        '--port',
        '0',
        '--host',
        '::1',
        '--state',
        's.json',
        '--no-history',
        '--keypair',
        'w.json',
        '--balance-sol',
        '2.5',
      ],
      {
        port: 0,
        host: '::1',
        state: 's.json',
        keypair: 'w.json',
        history: false,
        balanceLamports: 2_500_000_000n,
        depositMemo: false,
      },
    ],
    ['sandbox', ['sandbox', '--deposit-memo'], { depositMemo: true }],
    // --keypair before the command is the same option.
    ['sandbox', ['--keypair', 'w.json', 'sandbox'], { keypair: 'w.json' }],
    ['completion', ['completion', 'fish'], { shell: 'fish' }],
    ['commands', ['commands'], {}],
    ['mcp', ['mcp'], { allowTrading: false, confirm: true }],
    ['mcp', ['mcp', '--allow-trading'], { allowTrading: true, confirm: true }],
    ['mcp', ['mcp', '--allow-trading', '--no-confirm'], { allowTrading: true, confirm: false }],
    ['mcp', ['--profile', 'agent', 'mcp', '--no-confirm', '--allow-trading'], { allowTrading: true, confirm: false }],
  ])('%s %j', async (command, argv, expected) => {
    expect(await options(command, argv)).toMatchObject(expected);
  });

  it.each<[string[], RegExp]>([
    [['sandbox', '--port', '70000'], /^--port must be 0-65535, got "70000"/],
    [['sandbox', '--port', '-1'], /--port/],
    [['sandbox', '--balance-sol', 'lots'], /^invalid --balance-sol "lots"/],
    [['sandbox', '--host', ''], /^--host must not be empty/],
    [['completion', 'powershell'], /^shell must be one of bash, zsh, fish; got "powershell"/],
    [['mcp', '--no-confirm'], /^--no-confirm is for trading: give it with --allow-trading/],
    [['mcp', '--allow-trading', 'extra'], /too many arguments|unknown command|excess/i],
  ])('%j → %s', async (argv, message) => {
    expect(await usageError(argv)).toMatch(message);
  });
});

describe('global options, before or after the command', () => {
  it('defaults: nothing given is undefined (the environment, the profile, then the defaults decide: config/settings.ts)', async () => {
    expect((await parse(['me'])).globals).toEqual({
      baseUrl: undefined,
      apiKey: undefined,
      apiKeyFile: undefined,
      apiKeyStdin: false,
      keypair: undefined,
      passwordFile: undefined,
      treasury: undefined,
      profile: undefined,
      timeoutSeconds: undefined,
      requestTimeoutSeconds: undefined,
      json: false,
      yes: false,
      color: true,
      verbose: false,
      insecure: false,
    });
  });

  it('every one, typed', async () => {
    const argv = [
      '--base-url',
      'https://api.example.com/',
      '--api-key',
      'sk_x',
      '--keypair',
      '~/id.json',
      '--treasury',
      T,
      '--profile',
      'staging',
      '--rpc-url',
      'https://rpc.example.com/key?x=1',
      '--timeout',
      '60',
      '--request-timeout',
      '2.5',
      '--json',
      '-y',
      '--no-color',
      '-v',
      '--insecure',
      '--password-file',
      '~/pw.txt',
    ];
    const expected = {
      baseUrl: 'https://api.example.com/',
      apiKey: 'sk_x',
      apiKeyStdin: false,
      keypair: '~/id.json',
      passwordFile: '~/pw.txt',
      treasury: T,
      rpcUrl: 'https://rpc.example.com/key?x=1',
      profile: 'staging',
      timeoutSeconds: 60,
      requestTimeoutSeconds: 2.5,
      json: true,
      yes: true,
      color: false,
      verbose: true,
      insecure: true,
    };
    expect((await parse([...argv, 'points'])).globals).toEqual(expected);
    expect((await parse(['points', ...argv])).globals).toEqual(expected);
  });

  it.each<[string[], RegExp]>([
    [['--timeout', '0', 'me'], /^invalid --timeout "0": use a positive number of seconds/],
    [['me', '--request-timeout', 'NaN'], /^invalid --request-timeout "NaN"/],
    [['me', '--base-url', 'ftp://127.0.0.1/'], /^invalid --base-url: scheme ftp: is not supported; use https:\/\//],
    [['me', '--base-url', 'http://example.com'], /^refusing plain http:\/\/ to example\.com/],
    [['me', '--base-url', 'https://example.com/?x=1'], /must not contain a query/],
    [['me', '--rpc-url', 'ftp://x/'], /^invalid --rpc-url: scheme ftp: is not supported/],
    [
      ['me', '--rpc-url', 'https://user:pw@rpc.example.com/'],
      /^invalid --rpc-url: it must not contain a user name or password/,
    ],
    [['me', '--treasury', 'nope'], /^--treasury must be a base58 address of 32 bytes, got "nope"/],
    ...[
      '--base-url',
      '--api-key',
      '--rpc-url',
      '--profile',
      '--treasury',
      '--keypair',
      '--timeout',
      '--request-timeout',
    ].map((flag): [string[], RegExp] => [[flag, '', 'me'], new RegExp(`^${flag} was given an empty value`)]),
    [['by', M, '1'], /unknown command 'by'.*buy/],
    // Bare `trader` prints its help (exit 0, test/e2e/bad-input.test.ts); with --json there is no document to give.
    [['--json'], /no command given/],
  ])('%j → %s', async (argv, message) => {
    expect(await usageError(argv)).toMatch(message);
  });

  it('the API key from a file or standard input (which of them wins is config/settings.ts)', async () => {
    expect((await parse(['me', '--api-key-file', 'k.txt'])).globals).toMatchObject({
      apiKey: undefined,
      apiKeyFile: 'k.txt',
      apiKeyStdin: false,
    });
    expect((await parse(['--api-key-stdin', 'me'])).globals).toMatchObject({
      apiKey: undefined,
      apiKeyFile: undefined,
      apiKeyStdin: true,
    });
  });

  it.each<[string, RegExp]>([
    ['usb://ledger', /^usb:\/\/ledger is not supported: trader signs the service's sell authorization as raw text/],
    ['usb://ledger?key=0/0', /is not supported/],
    ['ledger:main', /^unknown keypair source scheme "ledger:"; known: a path, file:, keystore:, prompt:, stdin:/],
    ['keystore:../x', /^keystore name "..\/x" is not allowed/],
    ['prompt:?key=0/0/0', /too deep/],
    ['prompt:?path=m/44', /query "path" is not known/],
  ])('--keypair %s is refused before anything runs: %s', async (source, message) => {
    expect(await usageError(['balance', '--keypair', source])).toMatch(message);
  });

  it('plain http:// to this machine needs no --insecure', async () => {
    for (const url of ['http://127.0.0.1:8787', 'http://localhost/', 'http://[::1]:9/']) {
      expect((await parse(['me', '--base-url', url])).globals.baseUrl).toBe(url);
    }
  });
});

it('every command of the table has a row above', async () => {
  // A new command (or subcommand) gets its argv rows here: this lists what the table covers.
  expect([...NAMES.values()].sort()).toEqual(
    [
      'activity',
      'balance',
      'buy',
      'cancel',
      'commands',
      'completion',
      'config',
      'config get',
      'config init',
      'config list',
      'config path',
      'config set',
      'config trust',
      'config trust accept-risks',
      'config trust accept-token',
      'config trust accept-treasury',
      'config trust accept-wording',
      'config trust forget',
      'config trust show',
      'holdings',
      'lock',
      'mcp',
      'me',
      'pnl',
      'points',
      'positions',
      'token',
      'sandbox',
      'sandbox stop',
      'sell',
      'trades',
      'unlock',
      'keys',
      'keys import',
      'keys list',
      'keys show',
      'keys export',
      'keys remove',
      'keys passwd',
    ].sort(),
  );
});
