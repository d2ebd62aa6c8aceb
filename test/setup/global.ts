// Before anything else, dist/ is built for this run (build.ts): the e2e tier runs the binary.
// The whole run gets a temp folder of its own: workers, the sandboxes they start and every
// binary they spawn put their temp files there (TMPDIR), so "no temp file left behind" can be
// checked on this folder alone, whatever else runs on the machine at the same time.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDist } from './build.js';

export function setup(): () => void {
  buildDist();
  const dir = mkdtempSync(join(tmpdir(), 'trader-test-run-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    const left = readdirSync(dir);
    rmSync(dir, { recursive: true, force: true });
    if (left.length > 0) {
      throw new Error(
        `the tests left ${left.length} temp file(s) behind: ${left.slice(0, 10).join(', ')}${left.length > 10 ? ', …' : ''}`,
      );
    }
  };
}
