// Help texts are part of the interface: every command has a purpose, its units and examples.
// Snapshots make any change to them deliberate (update with `npx vitest run -u`). Each text is
// read once, in-process (the binary's parsing and output, without a process start per text);
// the first test shows the built binary prints the same.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { defaultTokens } from '../../src/sandbox/market.js';

const COMMANDS = [
  [],
  ['buy'],
  ['sell'],
  ['cancel'],
  ['trades'],
  ['positions'],
  ['activity'],
  ['holdings'],
  ['pnl'],
  ['balance'],
  ['me'],
  ['points'],
  ['config'],
  ['config', 'set'],
  ['sandbox'],
  ['mcp'],
  ['commands'],
  ['completion'],
];

/** `trader <command> --help` at 80 columns, or with no COLUMNS (piped), each read once. */
const helps = new Map<string, ReturnType<typeof runInProcess>>();
function helpOf(command: string[], columns: '80' | undefined = '80') {
  const key = `${columns} ${command.join(' ')}`;
  if (!helps.has(key)) helps.set(key, runInProcess([...command, '--help'], { COLUMNS: columns }));
  return helps.get(key)!;
}

describe('help', () => {
  it('the built binary prints what the in-process run prints: trader --help, buy --help, config set --help', async () => {
    for (const command of [[], ['buy'], ['config', 'set']]) {
      const binary = await runCli([...command, '--help'], { env: { COLUMNS: '80' } });
      expect(binary.code).toBe(0);
      expect(binary.stdout).toBe((await helpOf(command)).stdout);
    }
  });

  it.each(COMMANDS.map((c) => [c.join(' ') || 'trader', c]))('%s --help', async (_name, command) => {
    const result = await helpOf(command);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    for (const line of result.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(result.stdout).toMatchSnapshot();
  });

  it('groups trading, reading and setup commands', async () => {
    const { stdout } = await helpOf([], undefined);
    const order = ['Trading:', '\n  buy ', 'Reading:', '\n  positions ', 'Setup:', '\n  config '].map((word) =>
      stdout.indexOf(word),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('every command help names units and shows examples', async () => {
    const results = await Promise.all(COMMANDS.slice(1).map((c) => helpOf(c, undefined)));
    for (const r of results) expect(r.stdout).toMatch(/Examples:\n {2}\$ .*trader /);
    const buy = results[0]!.stdout;
    for (const unit of ['lamports', 'bps (100 = 1%)', 'SOL']) expect(buy).toContain(unit);
    expect(results[1]!.stdout).toContain('raw units');
  });

  it('each command’s help names the global options that matter to it in one line (trader --help says what each does), or points to them', async () => {
    const [buy, sell, holdings, configSet, completion, root] = await Promise.all(
      [['buy'], ['sell'], ['holdings'], ['config', 'set'], ['completion'], []].map((c) => helpOf(c)),
    );
    /** The global options a help names after the heading. */
    const listed = (stdout: string) => {
      const line = /\nGlobal options: ((?:--|-\w\/--)[\s\S]*?)\n\n/.exec(stdout)?.[1];
      return line === undefined ? null : line.split(/,\s+/).map((f) => f.trim().replace(/^-\w\//, ''));
    };
    // buy's and sell's examples use --yes and --json: their help names them, and trader --help says what they do.
    for (const trade of [buy, sell]) {
      expect(listed(trade.stdout)).toEqual([
        '--yes',
        '--json',
        '--profile',
        '--keypair',
        '--password-file',
        '--rpc-url',
        '--timeout',
      ]);
      expect(trade.stdout.indexOf('Global options:')).toBeLessThan(trade.stdout.indexOf('Examples:'));
    }
    expect(root.stdout).toMatch(/^ {2}-y, --yes +answer yes; trading needs it with no terminal$/m);
    expect(listed(holdings.stdout)).toEqual(['--json', '--profile']);
    // A subcommand shows what its group declares.
    expect(listed(configSet.stdout)).toEqual(['--profile', '--json']);
    expect(listed(completion.stdout)).toBeNull();
    expect(completion.stdout).toContain('\nGlobal options: see trader --help\n');
    // The program's own help lists the common ones, once, and names the rest.
    expect(root.stdout.match(/--profile <name>/g)).toHaveLength(1);
    expect(root.stdout.replace(/\n {2}(?=-)/g, ' ')).toMatch(
      /^ {2}also --api-key, --api-key-file, --api-key-stdin, --request-timeout, --insecure, --password-file, --treasury, --no-color, -v, -V, -h$/m,
    );
  });

  it("one screen each: trader --help at most 40 lines, every command's help at most 24 (80×24), no line over 80", async () => {
    const all = [
      ...COMMANDS,
      ['config', 'init'],
      ['config', 'trust'],
      ['config', 'trust', 'forget'],
      ['sandbox', 'stop'],
    ];
    const results = await Promise.all(all.map((c) => helpOf(c)));
    const counts = Object.fromEntries(
      all.map((c, i) => [c.join(' ') || 'trader', results[i]!.stdout.replace(/\n$/, '').split('\n').length]),
    );
    expect(counts.trader, results[0]!.stdout).toBeLessThanOrEqual(40);
    const over = Object.entries(counts).filter(([name, n]) => name !== 'trader' && n > 24);
    expect(over).toEqual([]);
    for (const r of results) for (const line of r.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    console.log(`help line counts at 80 columns: ${JSON.stringify(counts)}`);
  });

  it('examples name only tokens the sandbox trades (or a <mint> placeholder)', async () => {
    const symbols = new Set(defaultTokens().map((t) => t.symbol));
    const results = await Promise.all(COMMANDS.slice(1).map((c) => helpOf(c, undefined)));
    const named: string[] = [];
    for (const r of results) {
      for (const line of r.stdout.split('Examples:')[1]!.split('\n')) {
        for (const m of line.matchAll(/trader (?:buy|sell) (\S+)|--token (\S+)/g)) named.push((m[1] ?? m[2])!);
      }
    }
    expect(named.length).toBeGreaterThan(4);
    expect(named.filter((t) => t !== '<mint>' && !symbols.has(t))).toEqual([]);
  });

  it('`trader help <command>` shows what `trader <command> --help` does (its definition loaded first)', async () => {
    for (const command of [['sell'], ['config'], ['config', 'set']]) {
      const [viaHelp, viaFlag] = await Promise.all([
        runInProcess([...command.slice(0, -1), 'help', command.at(-1)!]),
        runInProcess([...command, '--help']),
      ]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
    }
    expect((await runInProcess(['help', 'sell'])).stdout).toMatch(/^Usage: trader sell \[options\] <token> <amount>\n/);
    const unknown = await runInProcess(['help', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("error: unknown command 'nope' (run with --help for usage)\n");
  });

  it('`trader help` takes a path of subcommands: `help config trust forget` is `config trust forget --help`; an unknown step is exit 2 naming the path', async () => {
    for (const path of [
      ['config', 'trust'],
      ['config', 'trust', 'forget'],
    ]) {
      const [viaHelp, viaFlag] = await Promise.all([
        runInProcess(['help', ...path]),
        runInProcess([...path, '--help']),
      ]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
      expect(viaHelp.stdout).toMatch(new RegExp(`^Usage: trader ${path.join(' ')} `));
    }
    const unknown = await runInProcess(['help', 'config', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("error: unknown command 'config nope' (run with --help for usage)\n");
  });

  it('a mistyped command suggests the nearest one, exit 2', async () => {
    const result = await runCli(['hodlings']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('holdings');
    expect(result.stdout).toBe('');
  });

  it('--version prints the package version', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
