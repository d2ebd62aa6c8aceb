// Help texts are part of the interface: every command has a purpose, its units and examples.
// Snapshots make any change to them deliberate (update with `npx vitest run -u`).
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

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
  ['me'],
  ['points'],
  ['config'],
  ['config', 'set'],
  ['sandbox'],
  ['mcp'],
  ['commands'],
  ['completion'],
];

describe('help', () => {
  it.each(COMMANDS.map((c) => [c.join(' ') || 'trader', c]))('%s --help', async (_name, command) => {
    const result = await runCli([...command, '--help'], { env: { COLUMNS: '80' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    for (const line of result.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(result.stdout).toMatchSnapshot();
  });

  it('groups trading, reading and setup commands', async () => {
    const { stdout } = await runCli(['--help']);
    const order = ['Trading:', '\n  buy ', 'Reading:', '\n  positions ', 'Setup:', '\n  config '].map((word) => stdout.indexOf(word));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('every command help names units and shows examples', async () => {
    const results = await Promise.all(COMMANDS.slice(1).map((c) => runCli([...c, '--help'])));
    for (const r of results) expect(r.stdout).toMatch(/Examples:\n  \$ .*trader /);
    const buy = results[0]!.stdout;
    for (const unit of ['lamports', 'basis points', 'SOL']) expect(buy).toContain(unit);
    expect(results[1]!.stdout).toContain('raw token units');
  });

  it('`trader help <command>` shows what `trader <command> --help` does (its definition loaded first)', async () => {
    for (const command of [['sell'], ['config'], ['config', 'set']]) {
      const [viaHelp, viaFlag] = await Promise.all([runInProcess([...command.slice(0, -1), 'help', command.at(-1)!]), runInProcess([...command, '--help'])]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
    }
    expect((await runInProcess(['help', 'sell'])).stdout).toMatch(/^Usage: trader sell \[options\] <token> <amount>\n/);
    const unknown = await runInProcess(['help', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("error: unknown command 'nope' (run with --help for usage)\n");
  });

  it('`trader help` takes a path of subcommands: `help config trust forget` is `config trust forget --help`; an unknown step is exit 2 naming the path', async () => {
    for (const path of [['config', 'trust'], ['config', 'trust', 'forget']]) {
      const [viaHelp, viaFlag] = await Promise.all([runInProcess(['help', ...path]), runInProcess([...path, '--help'])]);
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
