// The pages in docs/ cannot drift from the tool either: every ```console block's commands (the
// `$ ` lines) run in order, in one shell per page with `trader` on PATH and a fresh HOME, against
// the sandbox the page's setup starts (the README's recipe unless the page names another in a
// `<!-- doc test setup: … -->` line), and what each printed (stdout and stderr) must fit the lines
// shown under it (test/helpers/doc-samples.ts: varying values masked, `…` for lines left out).
// Commands may name `<buyId>` (the newest completed buy's first 8 characters) and `<mint>` (WOOF's
// mint); a `# exit N` comment names the exit code (else 0). A block that cannot run here says so on
// the line before it, `<!-- not run by the doc test: why -->`, and is listed below. DOCS_UPDATE=1
// writes what the tool printed into the pages instead (then read the diff).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fitsSample } from '../helpers/doc-samples.js';
import { stopBackgroundSandboxes, userShell } from '../helpers/shell.js';
import { tempDir } from '../helpers/temp.js';

afterAll(() => stopBackgroundSandboxes());

const DOCS = fileURLToPath(new URL('../../docs', import.meta.url));
const UPDATE = process.env.DOCS_UPDATE === '1';
const DEFAULT_SETUP = 'eval "$(trader sandbox --background)"';
const WOOF = 'GFmFPooguQpNXADJ6Dd42rWt69m57SA6oFk3QwEcWqCd';
const PLACEHOLDERS: Record<string, string> = {
  '<buyId>': `$(trader trades --json | jq -r 'map(select(.side == "buy" and .status == "completed"))[0].id[0:8]')`,
  '<mint>': WOOF,
  // A buy awaiting its deposit, made once per page through the API (the same id each time it is named).
  '<pendingBuyId>': `\${PENDING:=$("${process.execPath}" -e 'fetch(process.env.TRADER_BASE_URL + "/api/v1/trade/buys", { method: "POST", headers: { "content-type": "application/json", "x-api-key": process.env.TRADER_API_KEY }, body: JSON.stringify({ mint: "${WOOF}", amountLamports: "10000000", idempotencyKey: String(Math.random()) }) }).then((r) => r.json()).then((b) => console.log(b.data.intent.id.slice(0, 8)))')}`,
};

interface Command {
  text: string;
  exit: number;
  /** 0-based line of the page where its output starts, and how many lines the page shows. */
  outputAt: number;
  output: string[];
}
interface Block {
  at: number;
  skip: string | null;
  commands: Command[];
}

function parse(page: string): { setup: string; blocks: Block[] } {
  const all = page.split('\n');
  const setup = /<!-- doc test setup: (.+?) -->/.exec(page)?.[1] ?? DEFAULT_SETUP;
  const blocks: Block[] = [];
  for (let i = 0; i < all.length; i++) {
    if (all[i] !== '```console') continue;
    let before = i - 1;
    while (before >= 0 && all[before]!.trim() === '') before--;
    const skip = /<!-- not run by the doc test: (.+?) -->/.exec(all[before] ?? '')?.[1] ?? null;
    const block: Block = { at: i + 1, skip, commands: [] };
    let j = i + 1;
    for (; all[j] !== '```'; j++) {
      const line = all[j]!;
      if (line.startsWith('$ ')) {
        const exit = /#\s*exit (\d+)\s*$/.exec(line);
        block.commands.push({
          text: line.slice(2).replace(/\s+#.*$/, ''),
          exit: exit ? Number(exit[1]) : 0,
          outputAt: j + 1,
          output: [],
        });
      } else block.commands.at(-1)?.output.push(line);
    }
    blocks.push(block);
    i = j;
  }
  return { setup, blocks };
}

const pages = readdirSync(DOCS)
  .filter((f) => f.endsWith('.md'))
  .map((name) => ({ name, ...parse(readFileSync(join(DOCS, name), 'utf8')) }))
  .filter((p) => p.blocks.length > 0);

describe('the docs, run as written', () => {
  it('every page with samples has runnable blocks, and the blocks that are not run say why where they stand', () => {
    const skipped = pages.flatMap((p) => p.blocks.filter((b) => b.skip).map((b) => `${p.name}: ${b.skip}`));
    expect(skipped).toEqual([
      'trading.md: the person answers at the prompt; test/e2e/prompt.test.ts and screens-80x24.test.ts answer it in a terminal',
    ]);
    expect(
      pages.flatMap((p) => p.blocks.filter((b) => !b.skip).flatMap((b) => b.commands)).length,
    ).toBeGreaterThanOrEqual(15);
  });

  it.each(pages.filter((p) => p.blocks.some((b) => !b.skip)).map((p) => [p.name, p] as const))(
    '%s',
    async (name, page) => {
      const shell = userShell();
      const out = tempDir('trader-docs-out-');
      const runs = page.blocks.filter((b) => !b.skip).flatMap((b) => b.commands);
      const script = [
        'set -o pipefail',
        page.setup,
        // The sandbox's steps happen at once: nothing waits on real time.
        `"${process.execPath}" -e 'fetch(process.env.TRADER_BASE_URL + "/_sandbox/delays", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ confirmSeconds: 0, swapSeconds: 0, payoutSeconds: 0, refundSeconds: 0 }) }).then((r) => process.exit(r.ok ? 0 : 1))'`,
        ...runs.map((c, k) => {
          const text = Object.entries(PLACEHOLDERS).reduce((t, [from, to]) => t.split(from).join(to), c.text);
          return `{ ${text} ; } > ${join(out, `${k}.out`)} 2>&1; echo $? > ${join(out, `${k}.code`)}`;
        }),
        'trader sandbox stop > /dev/null',
      ].join('\n');
      const run = await shell.run(script);
      expect(run.code, run.stderr).toBe(0);
      const failures: string[] = [];
      let text = readFileSync(join(DOCS, name), 'utf8').split('\n');
      const rewrites: Array<{ at: number; count: number; lines: string[] }> = [];
      runs.forEach((c, k) => {
        const printed = existsSync(join(out, `${k}.out`))
          ? readFileSync(join(out, `${k}.out`), 'utf8')
              .replace(/\n$/, '')
              .split('\n')
          : [];
        const code = Number(readFileSync(join(out, `${k}.code`), 'utf8').trim());
        if (code !== c.exit)
          failures.push(
            `${name}:${c.outputAt}: \`${c.text}\` exited ${code}, the page says ${c.exit}:\n${printed.join('\n')}`,
          );
        if (!fitsSample(c.output, printed)) {
          failures.push(`${name}:${c.outputAt}: the output of \`${c.text}\` is now:\n${printed.join('\n')}`);
          let count = c.output.length;
          while (count > 0 && c.output[count - 1]!.trim() === '') count--;
          rewrites.push({ at: c.outputAt, count, lines: printed });
        }
      });
      if (UPDATE && rewrites.length > 0) {
        // The blank lines that separate one command's output from the next command stay.
        for (const r of rewrites.sort((a, b) => b.at - a.at))
          text = [...text.slice(0, r.at), ...r.lines, ...text.slice(r.at + r.count)];
        writeFileSync(join(DOCS, name), text.join('\n'));
      }
      expect(failures).toEqual([]);
    },
    120_000,
  );
});
