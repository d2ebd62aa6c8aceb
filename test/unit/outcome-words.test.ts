// Every sentence about money is written once: each constant of src/domain/outcome-words.ts is in
// docs/outcomes.md's table with the evidence it needs, the table holds no other, and no other
// source file writes one of them out (it imports the constant), so what the tool says and what
// the doc promises cannot drift apart.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as OUTCOMES from '../../src/domain/outcome-words.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOC = readFileSync(join(ROOT, 'docs/outcomes.md'), 'utf8');
const SENTENCES = Object.values(OUTCOMES) as string[];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The first column of the doc's table: one backquoted sentence a row. */
function tableSentences(): string[] {
  const table = DOC.slice(DOC.indexOf('| sentence |'));
  return [...table.matchAll(/^\| `([^`]+)` \| (.+) \|$/gm)].map((m) => {
    expect(m[2]!.trim().length, `no evidence for "${m[1]}"`).toBeGreaterThan(20);
    return m[1]!;
  });
}

describe('outcome sentences: the source and docs/outcomes.md agree', () => {
  it('every sentence of the source is in the table with its evidence, and the table has no other', () => {
    expect(SENTENCES.length).toBeGreaterThanOrEqual(20);
    expect([...tableSentences()].sort()).toEqual([...SENTENCES].sort());
  });

  it('no source file writes one of them out: it uses the constant', () => {
    const written: string[] = [];
    for (const file of files(join(ROOT, 'src'))) {
      if (file.endsWith('outcome-words.ts') || file.includes(`${join('src', 'sandbox')}`)) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.trim();
          if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return;
          for (const sentence of SENTENCES)
            if (line.includes(sentence)) written.push(`${file.slice(ROOT.length)}:${i + 1}: ${sentence}`);
        });
    }
    expect(written).toEqual([]);
  });

  it('what the sentences say cannot be said without them: "nothing was spent" only with the proof', async () => {
    const { depositWords } = await import('../../src/domain/deposit-evidence.js');
    const base = { buyId: 'b1', status: 'cancelled', depositRecorded: false, lastValidBlockHeight: 99, follow: null };
    expect(depositWords({ ...base, chainProvesAbsent: true })).toContain(OUTCOMES.NOTHING_SPENT);
    for (const chainProvesAbsent of [null, false, undefined])
      expect(depositWords({ ...base, chainProvesAbsent })).not.toContain('nothing was spent');
  });
});
