// The README cannot drift from the tool: every line of its ```sh blocks runs, in order and as
// written, in one bash session with the built binary on PATH as `trader` and a fresh HOME —
// the sandbox it uses is the one the README's own recipe starts. Each line must succeed, or end
// with the code its `# exit N` comment names; a ```text block right after a ```sh block must
// match what that block's last command printed (ids, figures and times aside). Lines that cannot
// run here are named in a `<!-- not run by the doc test: … -->` before their block. And the README's
// sandbox recipe, run as written, 3 times in a row: never a race, nothing left behind.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/commands/sandbox/sandbox-background.js';
import { lines } from '../helpers/cli-assert.js';
import { fitsSample } from '../helpers/doc-samples.js';
import { stopBackgroundSandboxes, userShell } from '../helpers/shell.js';
import { tempDir } from '../helpers/temp.js';

afterAll(() => stopBackgroundSandboxes());

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Block {
  lang: string;
  /** 1-based README line of the block's first content line. */
  line: number;
  lines: string[];
  /** Only blank lines between the end of the previous block and this one. */
  followsBlock: boolean;
  /** The commands the doc test does not run, from `<!-- not run by the doc test: `cmd` (why); … -->` on the line before the fence. */
  notRun: Array<{ command: string; why: string }>;
}

function parseBlocks(markdown: string): Block[] {
  const all = markdown.split('\n');
  const blocks: Block[] = [];
  let open: Block | null = null;
  let lastEnd = -Infinity;
  all.forEach((text, i) => {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (open) {
      if (text.startsWith('```')) {
        blocks.push(open);
        open = null;
        lastEnd = i;
      } else open.lines.push(text);
    } else if (fence) {
      const between = all.slice(lastEnd + 1, i);
      const note = /^<!-- not run by the doc test: (.+) -->$/.exec(all[i - 1] ?? '')?.[1] ?? '';
      open = {
        lang: fence[1]!,
        line: i + 2,
        lines: [],
        followsBlock: lastEnd >= 0 && between.every((l) => l.trim() === ''),
        notRun: [...note.matchAll(/`([^`]+)` \(([^)]+)\)/g)].map((m) => ({ command: m[1]!, why: m[2]! })),
      };
    }
  });
  return blocks;
}

const EXIT = /#\s*exit (\d+)\b/;
/** The README's way to start a sandbox: where the doc test sets its step delays to zero (no real-time waits). */
const STARTS_SANDBOX = /^eval "\$\(trader sandbox --background\b/;

interface Script {
  text: string;
  /** Script line (1-based) → README line. */
  readmeLine: Map<number, number>;
  skipped: Array<{ line: number; command: string; why: string }>;
  expectedExits: number;
  commands: number;
  /** Output files compared with the ```text blocks. */
  outputs: Array<{ file: string; block: Block; command: string }>;
}

/** One bash script of every ```sh/```bash line; failures are written to $__FAILS as "<script line> <code>". */
function buildScript(blocks: Block[], outDir: string, fails: string): Script {
  const out: string[] = [
    `__FAILS=${fails}; set -o pipefail`,
    '__expect() { [ "$2" -eq "$1" ] || echo "$3 $2" >> "$__FAILS"; }',
    `__no_delays() { "${process.execPath}" -e 'fetch(process.env.TRADER_BASE_URL + "/_sandbox/delays", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0, refundSeconds: 0 }) }).then((r) => process.exit(r.ok ? 0 : 1))'; }`,
    'trap \'echo "$LINENO $?" >> "$__FAILS"\' ERR',
  ];
  const script: Script = { text: '', readmeLine: new Map(), skipped: [], expectedExits: 0, commands: 0, outputs: [] };
  const emit = (text: string, readmeLine: number) => {
    out.push(text);
    script.readmeLine.set(out.length, readmeLine);
  };
  blocks.forEach((block, b) => {
    if (block.lang !== 'sh' && block.lang !== 'bash') return;
    const next = blocks[b + 1];
    const captured = next?.lang === 'text' && next.followsBlock;
    const lastCommand = block.lines
      .map((l) => l.trim())
      .reduce((last, l, i) => (l && !l.startsWith('#') ? i : last), -1);
    block.lines.forEach((text, i) => {
      const line = block.line + i;
      const command = text.replace(/\s+#.*$/, '').trim();
      if (command.startsWith('trader ') || command.includes('$(trader ') || / \| trader |^if .*trader /.test(command))
        script.commands++;
      // A command not run is named in the comment before its block (hidden where the README is rendered).
      const skip = block.notRun.find((n) => n.command === command);
      if (skip) {
        script.skipped.push({ line, command, why: skip.why });
        emit(':', line);
        return;
      }
      const exit = EXIT.exec(text);
      if (exit) {
        script.expectedExits++;
        emit('__rc=0', line);
        emit(`{ ${text}`, line);
        emit('} || __rc=$?', line);
        emit(`__expect ${exit[1]} $__rc ${out.length + 1}`, line);
        return;
      }
      if (captured && i === lastCommand) {
        const file = join(outDir, `out-${b}`);
        script.outputs.push({ file, block: next, command });
        emit(`{ ${text}`, line);
        emit(`} > ${file}`, line);
        return;
      }
      emit(text, line);
      if (STARTS_SANDBOX.test(text.trim())) emit('__no_delays', line);
    });
  });
  script.text = out.join('\n');
  return script;
}

describe('the README, run as written', () => {
  it('every command of its shell blocks runs against the sandbox it starts, with the documented exit code and output', async () => {
    const blocks = parseBlocks(README);
    const shell = userShell();
    const outDir = tempDir('trader-readme-out-');
    const fails = join(outDir, 'fails');
    const script = buildScript(blocks, outDir, fails);
    const run = await shell.run(script.text);
    const failures = existsSync(fails)
      ? lines(readFileSync(fails, 'utf8')).map((l) => {
          const [at, code] = l.split(' ');
          const readmeLine = script.readmeLine.get(Number(at));
          return `README line ${readmeLine ?? `? (script line ${at})`}: exit ${code}: ${readmeLine ? README.split('\n')[readmeLine - 1] : ''}`;
        })
      : [];
    expect(failures, `stderr (its end):\n${run.stderr.slice(-3000)}`).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    // The scripting example took its success branch (a failure branch only echoes).
    expect(run.stdout).toMatch(/^bought \d+ raw units of WOOF \(5 decimals\); chain: verified$/m);
    // The scripted sell printed the chain's figure and verdict, not the service's.
    expect(run.stdout).toMatch(/^verified: [1-9]\d* lamports paid$/m);

    // The commands that do not run here, each named in the note before its block, and every note's command is in its block.
    expect(blocks.flatMap((b) => b.notRun.map((n) => n.command))).toEqual(script.skipped.map((s) => s.command));
    expect(script.skipped.map((s) => s.command)).toEqual([
      'git clone <this repository> trader && cd trader',
      'npm install',
      'npm link',
      'trader buy WOOF 0.1sol',
      'trader sell WOOF 50%',
      'npm run demo',
      'trader config init',
      'trader keys import main --from ~/.config/solana/id.json',
      'trader config set keypair keystore:main',
      'npm test',
      'npm run lint',
      'bash .ci/run',
    ]);
    expect(script.expectedExits).toBe(6);
    expect(script.commands).toBeGreaterThanOrEqual(30);

    // Every output the README shows follows the command that printed it, and matches it.
    const shown = blocks.filter((b) => b.lang === 'text');
    expect(script.outputs.map((o) => o.block)).toEqual(shown);
    for (const { file, block, command } of script.outputs) {
      const actual = readFileSync(file, 'utf8');
      expect(
        fitsSample(block.lines, actual.split('\n')),
        `README line ${block.line}: the output of \`${command}\` is now:\n${actual}`,
      ).toBe(true);
    }
    // The README's own `trader sandbox stop` left no background sandbox.
    expect(existsSync(shell.sandboxDir)).toBe(false);
  }, 180_000);

  it('CI runs the test command the README gives: npm ci, then npm test', () => {
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test\b/m);
    expect(ci.indexOf('\nnpm ci')).toBeLessThan(ci.indexOf('\nnpm test'));
    // The formatter and linter run in CI too, as the README's Development section says.
    expect(ci).toMatch(/^npm run lint\b/m);
    expect(README).toMatch(/^npm run lint {3}# ESLint and Prettier/m);
    expect(README).toContain('bash .ci/run   # what CI runs: npm ci, npm test,');
    expect(README).toMatch(/^npm test {5}# every test/m);
  });

  it('the balance the README states is what a fresh sandbox shows', async () => {
    const stated = /a new one's wallet holds ([\d.]+) SOL/.exec(README.replace(/\s+/g, ' '))?.[1];
    expect(stated).toBeDefined();
    const shell = userShell();
    const start = await shell.run('trader sandbox --background');
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toMatch(new RegExp(`^# {3}${stated!.replace('.', '\\.')} SOL when the sandbox started$`, 'm'));
    expect((await shell.run('trader sandbox stop')).code).toBe(0);
  });

  it('the sandbox recipe, run as written 3 times in a row: the variables are set and serve at once, and stop leaves nothing behind', async () => {
    const recipe = README.split('\n').find((l) => STARTS_SANDBOX.test(l));
    expect(recipe).toBe('eval "$(trader sandbox --background)"');
    const shell = userShell();
    // Three rounds, not more: `--background` returns only once the sandbox listens (its child says so
    // over IPC before the parent prints), so the order is decided by design, not by timing; a
    // repeat shows a second start on the freed files works, and the third that nothing accumulates.
    for (let i = 0; i < 3; i++) {
      const run = await shell.run(
        `${recipe}\nprintf '%s\\n' "$TRADER_BASE_URL" "$TRADER_API_KEY" "$TRADER_KEYPAIR"\ntrader me --json`,
      );
      expect(run.code, `run ${i + 1}: ${run.stderr}`).toBe(0);
      const [url, key, keypair, ...rest] = run.stdout.split('\n');
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(key).toMatch(/^sk_sandbox_\w+$/);
      expect(existsSync(keypair!)).toBe(true);
      expect(JSON.parse(rest.join('\n')).walletAddress).toMatch(/^\w{32,44}$/);
      const { pid } = JSON.parse(readFileSync(join(shell.sandboxDir, 'sandbox.json'), 'utf8')) as { pid: number };

      const stop = await shell.run('trader sandbox stop');
      expect(stop.code, stop.stderr).toBe(0);
      expect(isAlive(pid)).toBe(false);
      expect(existsSync(shell.sandboxDir)).toBe(false);
      expect(existsSync(keypair!)).toBe(false);
    }
  }, 60_000);
});
