// The command catalog (`trader commands --json`): every command of `trader --help` is in it,
// built from the same definitions, and every command that can move money or change trust is
// flagged dangerous — checked against the list below and against what each command's run
// reaches (the service's POST calls, the trade flows, the trust store's and profile's writers),
// so a new money-moving command added unflagged fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCatalog, catalogOption, loadCatalog } from '../../src/cli/catalog.js';
import { runsWork, type AnyCommand, type CommandTraits } from '../../src/cli/definition.js';
import { GLOBAL_OPTIONS } from '../../src/cli/global-options.js';
import { COMMANDS } from '../../src/command-table.js';
import { runInProcess } from '../helpers/in-process.js';

/** The commands a person would call dangerous, by name. */
const DANGEROUS = [
  'buy',
  'sell',
  'cancel',
  'config init',
  'config set',
  'config trust accept-wording',
  'config trust accept-risks',
  'config trust accept-token',
  'config trust accept-treasury',
  'config trust forget',
  'keys export',
  'keys remove',
  'mcp',
  'unlock',
];

/** The client's calls that send POST (read from src/api/client.ts, so a new one is covered). */
function postCalls(): string[] {
  const source = readFileSync(new URL('../../src/api/client.ts', import.meta.url), 'utf8');
  return [
    ...source.matchAll(/(\w+): async \([^)]*\) =>\s*dataOf\(\s*call<[^>]+>\((?:\w+,\s*)?\{\s*method: 'POST'/g),
  ].map((m) => m[1]!);
}

/** What a run reaches that moves money or trust: the POST calls, the trade flows, the writers of pins and profiles. */
function moverPattern(): RegExp {
  // runWithKey: buy's and sell's run, which marks their errors with the trade's key, then runs the flow.
  const writers = [
    'startTrade',
    'runBuy',
    'sellSteps',
    'driveTrade',
    'runWithKey',
    'updateProfile',
    'pinTreasury',
    'pinTemplate',
    'pinToken',
    'acceptPendingTemplate',
    'acceptPendingToken',
    'recordPendingTemplate',
    'recordPendingToken',
    'forget',
    'forgetToken',
  ];
  return new RegExp(`\\b(${[...postCalls(), ...writers].join('|')})\\b`);
}

interface Walked extends CommandTraits {
  name: string;
  command: AnyCommand;
}

async function everyCommand(): Promise<Walked[]> {
  const all: Walked[] = [];
  const walk = (name: string, traits: CommandTraits, command: AnyCommand) => {
    all.push({
      name,
      command,
      dangerous: traits.dangerous,
      needsApiKey: traits.needsApiKey,
      needsKeypair: traits.needsKeypair,
    });
    for (const sub of command.subcommands ?? []) walk(`${name} ${sub.name}`, sub, sub.command);
  };
  for (const entry of COMMANDS) walk(entry.name, entry, await entry.definition());
  return all;
}

describe('the command catalog', () => {
  it('lists every command of `trader --help`, and only those', async () => {
    const help = await runInProcess(['--help']);
    const section = help.stdout.slice(help.stdout.indexOf('Trading:'), help.stdout.indexOf('\nOptions'));
    const listed = [...section.matchAll(/^ {2}([a-z]+)\s/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
    expect(listed.length).toBeGreaterThanOrEqual(13);
    const catalog = await loadCatalog(COMMANDS, '0.0.0-test');
    const topLevel = catalog.commands.filter((c) => !c.name.includes(' ')).map((c) => c.name);
    expect(topLevel.sort()).toEqual([...listed].sort());
  });

  it('flags exactly the dangerous commands', async () => {
    const catalog = await loadCatalog(COMMANDS, '0.0.0-test');
    expect(
      catalog.commands
        .filter((c) => c.dangerous)
        .map((c) => c.name)
        .sort(),
    ).toEqual([...DANGEROUS].sort());
  });

  it('the pattern finds the POST calls of the client', () => {
    expect(postCalls().sort()).toEqual(['authorizeSell', 'cancelBuy', 'createBuy', 'createSell', 'submitDeposit']);
  });

  it('every command whose run reaches a POST call, a trade flow or a writer of pins or profiles is dangerous', async () => {
    const pattern = moverPattern();
    const reaching = (await everyCommand()).filter(
      (c) => runsWork(c.command) && pattern.test(c.command.run.toString()),
    );
    // The scan sees the movers it must (so it cannot pass by seeing nothing)…
    expect(reaching.map((c) => c.name).sort()).toEqual(
      expect.arrayContaining([
        'buy',
        'sell',
        'cancel',
        'config set',
        'config init',
        'config trust accept-wording',
        'config trust forget',
      ]),
    );
    // …and each one it sees is flagged.
    for (const c of reaching)
      expect(
        c.dangerous,
        `${c.name} reaches ${pattern.exec(c.command.run.toString())?.[0]} but is not flagged dangerous`,
      ).toBe(true);
  });

  it('says which commands need the API key and the keypair', async () => {
    const catalog = await loadCatalog(COMMANDS, '0.0.0-test');
    const of = (name: string) => catalog.commands.find((c) => c.name === name)!;
    expect(of('buy')).toMatchObject({ needsApiKey: true, needsKeypair: true, runs: true });
    expect(of('me')).toMatchObject({ needsApiKey: true, needsKeypair: false, dangerous: false });
    expect(of('config')).toMatchObject({ runs: false, dangerous: false });
    expect(of('completion')).toMatchObject({ needsApiKey: false, needsKeypair: false });
  });

  it('reads types, defaults, env and config keys from the definitions', async () => {
    const catalog = await loadCatalog(COMMANDS, '0.0.0-test');
    const buy = catalog.commands.find((c) => c.name === 'buy')!;
    expect(buy.arguments).toEqual([
      expect.objectContaining({ name: 'token', required: true, type: 'string' }),
      expect.objectContaining({ name: 'amount', required: true, type: 'string' }),
    ]);
    expect(buy.options.find((o) => o.name === 'slippageBps')).toMatchObject({
      flag: '--slippage-bps',
      type: 'integer',
      valueName: 'bps',
    });
    expect(buy.options.find((o) => o.name === 'maxFeeLamports')).toMatchObject({
      configKey: 'maxFeeLamports',
      default: '100000',
    });
    expect(buy.options.find((o) => o.name === 'wait')).toMatchObject({
      flag: '--no-wait',
      type: 'boolean',
      default: true,
      negates: true,
    });
    const positions = catalog.commands.find((c) => c.name === 'positions')!;
    expect(positions.arguments).toEqual([expect.objectContaining({ name: 'id', required: false })]);
    expect(positions.options.find((o) => o.name === 'status')?.values).toContain('open');
    expect(catalog.globalOptions.find((o) => o.name === 'baseUrl')).toMatchObject({
      env: 'TRADER_BASE_URL',
      configKey: 'baseUrl',
      type: 'string',
    });
    expect(catalog.globalOptions.find((o) => o.name === 'yes')).toMatchObject({ short: '-y', type: 'boolean' });
    expect(catalog.globalOptions.find((o) => o.name === 'timeout')).toMatchObject({
      type: 'number',
      env: 'TRADER_TIMEOUT',
    });
  });

  it('refuses option flags it cannot read', () => {
    expect(() => catalogOption({ flags: 'slippage', help: 'x' })).toThrow(/cannot read/);
  });

  it('is built from the definitions alone (no I/O)', () => {
    const catalog = buildCatalog([], GLOBAL_OPTIONS, '1.2.3');
    expect(catalog).toMatchObject({ program: 'trader', version: '1.2.3', commands: [] });
  });
});
