// The house in one direction (docs/development.md, "Layout"): no import circle in src/, between
// folders or files, type-only and lazy imports included; every arrow between folders is one the
// map allows; the arrows that would let a bug hide are refused by name (the client printing, the
// sandbox sharing client code, the wallet reaching the network); and the map names every folder.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, folderArrows, folderOf, importsOf, readImports } from '../helpers/import-graph.js';

const SRC = join(import.meta.dirname, '../../src');
const { files, edges } = readImports(SRC);

/** The folders each folder may import (besides itself), as docs/development.md draws them. */
const ALLOWED: Record<string, readonly string[]> = {
  '(root)': ['cli', 'commands', 'mcp', 'config', 'io', 'domain'],
  mcp: ['cli', 'config', 'io', 'domain'],
  commands: [
    'cli',
    'views',
    'trade',
    'journal',
    'portfolio',
    'chain',
    'wallet',
    'api',
    'config',
    'io',
    'net',
    'sandbox',
    'domain',
  ],
  cli: ['chain', 'wallet', 'api', 'config', 'io', 'net', 'domain'],
  views: ['cli', 'trade', 'portfolio', 'chain', 'wallet', 'api', 'io', 'domain'],
  trade: ['cli', 'journal', 'chain', 'wallet', 'api', 'config', 'domain'],
  portfolio: ['journal', 'api', 'domain'],
  chain: ['journal', 'api', 'net', 'domain'],
  journal: ['config', 'api', 'domain'],
  config: ['wallet', 'net', 'domain'],
  wallet: ['api', 'domain'],
  api: ['net', 'domain'],
  net: ['domain'],
  io: ['domain'],
  domain: [],
  sandbox: ['api'],
};

/** The arrows between folders that no new one may break. */
function forbidden(all: typeof edges): string[] {
  const wrong: string[] = [];
  for (const e of all) {
    const from = folderOf(e.from);
    const to = e.local ? folderOf(e.to) : null;
    const say = (why: string) => wrong.push(`${e.from} imports ${e.to}: ${why}`);
    // Layers below the commands never print: no stream, table, theme, prompt or view.
    if (['api', 'trade', 'journal', 'chain', 'wallet', 'net', 'domain', 'portfolio', 'config'].includes(from)) {
      if (to === 'io' || to === 'views') say(`${from}/ never prints`);
      if (!e.local && /^(chalk|ora|cli-table3|@inquirer\/.*|string-width)$/.test(e.to)) say(`${from}/ never prints`);
    }
    // The sandbox shares nothing with the client but the wire types; only `trader sandbox` starts it.
    if (from === 'sandbox' && e.local && to !== 'sandbox' && e.to !== 'api/types.ts')
      say('the sandbox shares only api/types.ts with the client');
    if (to === 'sandbox' && from !== 'sandbox' && e.from !== 'commands/sandbox/sandbox.ts')
      say('only commands/sandbox/sandbox.ts starts the sandbox');
    // Signing knows no network: no client, chain, URL rules or HTTP engine.
    if (from === 'wallet') {
      if (e.local && to !== 'wallet' && to !== 'domain' && e.to !== 'api/types.ts')
        say('wallet/ knows no network (api/types.ts and domain/ only)');
      if (!e.local && /^(undici|node:(http|https|http2|net|tls|dns|dgram))$/.test(e.to))
        say('wallet/ knows no network');
    }
    // Nothing below the entry imports it.
    if (e.local && to === '(root)' && from !== '(root)') say('only the entry imports the entry');
    // Every signature passes one gate: only it holds the code that signs (and ed25519's signing).
    if (e.local && e.to === 'wallet/signatures.ts' && e.from !== 'trade/signing-gate.ts')
      say('only trade/signing-gate.ts signs');
    if (!e.local && e.to === 'tweetnacl' && from !== 'wallet' && from !== 'sandbox')
      say("ed25519 is the wallet's (and the sandbox's own)");
  }
  return wrong;
}

describe('the import graph of src/', () => {
  it('has no circle between folders', () => {
    const arrows = [...folderArrows(edges).keys()].map((a) => a.split(' -> ') as [string, string]);
    const folders = [...new Set(files.map(folderOf))];
    expect(circles(folders, (f) => arrows.filter(([a]) => a === f).map(([, b]) => b))).toEqual([]);
  });

  it('has no circle between files', () => {
    const local = edges.filter((e) => e.local);
    expect(circles(files, (f) => local.filter((e) => e.from === f).map((e) => e.to))).toEqual([]);
  });

  it('draws only the arrows the map allows', () => {
    const extra = [...folderArrows(edges)].filter(([arrow]) => {
      const [a, b] = arrow.split(' -> ') as [string, string];
      return !(ALLOWED[a] ?? []).includes(b);
    });
    expect(extra.map(([arrow, example]) => `${arrow} (${example})`)).toEqual([]);
  });

  it('draws none of the forbidden arrows', () => {
    expect(forbidden(edges)).toEqual([]);
  });

  it('docs/development.md names every folder of src/, and the map every one the test knows', () => {
    const doc = readFileSync(join(SRC, '../docs/development.md'), 'utf8');
    const folders = readdirSync(SRC).filter((f) => statSync(join(SRC, f)).isDirectory());
    expect(folders.filter((f) => !doc.includes(`src/${f}/`))).toEqual([]);
    expect(folders.filter((f) => !(f in ALLOWED))).toEqual([]);
  });
});

describe('one gate for every signature', () => {
  it('no module but the gate unlocks the signer: its secret is asked for in one place', () => {
    const unlocking = files.filter((f) => /\.unlock\(/.test(readFileSync(join(SRC, f), 'utf8')));
    expect(unlocking).toEqual(['trade/signing-gate.ts']);
  });
});

describe('the checks catch what they are for', () => {
  it('a circle through a type-only or a lazy import is a circle', () => {
    const a = importsOf('a/x.ts', "import type { Y } from '../b/y.js';");
    const b = importsOf('b/y.ts', "const x = await import('../a/x.js');");
    const all = [...a, ...b];
    const next = (f: string) => all.filter((e) => e.from === f).map((e) => e.to);
    expect(circles(['a/x.ts', 'b/y.ts'], next)).toEqual([['a/x.ts', 'b/y.ts']]);
    expect(circles(['a/x.ts', 'b/y.ts'], (f) => next(f).filter((t) => t !== 'a/x.ts'))).toEqual([]);
  });

  it('reads multi-line, re-export and side-effect imports, and packages by name', () => {
    const found = importsOf(
      'io/x.ts',
      "import {\n  a,\n  b,\n} from './a.js';\nexport * from '../domain/b.js';\nimport './c.js';\nimport chalk from 'chalk';\nimport x from '@inquirer/core/dist/x.js';",
    );
    expect(found.map((e) => e.to)).toEqual(['io/a.ts', 'domain/b.ts', 'io/c.ts', 'chalk', '@inquirer/core']);
  });

  it('each forbidden arrow is named, and its allowed neighbour is not', () => {
    const cases: Array<[string, string, boolean]> = [
      ['api/client.ts', "import { Output } from '../io/output.js';", true],
      ['trade/sell-flow.ts', "import chalk from 'chalk';", true],
      ['trade/sell-flow.ts', "import { x } from '../domain/amounts.js';", false],
      ['sandbox/routes.ts', "import type { Trade } from '../api/types.js';", false],
      ['sandbox/routes.ts', "import { createClient } from '../api/client.js';", true],
      ['commands/buy.ts', "import { startSandbox } from '../sandbox/index.js';", true],
      ['commands/sandbox/sandbox.ts', "import { startSandbox } from '../sandbox/index.js';", false],
      ['wallet/owner-wallet.ts', "import type { Trade } from '../api/types.js';", false],
      ['wallet/owner-wallet.ts', "import { fetchFor } from '../net/proxy.js';", true],
      ['wallet/owner-wallet.ts', "import { request } from 'undici';", true],
      ['domain/amounts.ts', "import { x } from '../run.js';", true],
      ['trade/buy-flow.ts', "import { signDepositTransaction } from '../wallet/signatures.js';", true],
      ['mcp/server.ts', "const { signMessage } = await import('../wallet/signatures.js');", true],
      ['trade/signing-gate.ts', "import { signMessage } from '../wallet/signatures.js';", false],
      ['trade/sell-flow.ts', "import nacl from 'tweetnacl';", true],
    ];
    for (const [file, text, wrong] of cases)
      expect(forbidden(importsOf(file, text)).length, `${file}: ${text}`).toBe(wrong ? 1 : 0);
  });
});
