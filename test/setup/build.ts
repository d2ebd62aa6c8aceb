// Every run tests the code as it is now: dist/ (which bin/trader.js and the e2e tier run) is
// built once before any test file starts, and a run whose code does not compile fails here.
// Files tsc did not emit this time (left by a source since moved or removed) are deleted, so
// nothing can pass by importing stale output.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Builds dist/ with tsc (the `npm run build` of package.json); throws with tsc's output on failure. */
export function buildDist(): void {
  const tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--listEmittedFiles'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    const said = `${run.stdout}${run.stderr}`
      .split('\n')
      .filter((l) => !l.startsWith('TSFILE: '))
      .join('\n');
    throw new Error(
      `the build failed (tsc exit ${run.status ?? run.signal}), so the tests would run stale code:\n${said}`,
    );
  }
  const emitted = new Set(
    run.stdout
      .split('\n')
      .filter((l) => l.startsWith('TSFILE: '))
      .map((l) => resolve(ROOT, l.slice('TSFILE: '.length).trim())),
  );
  if (emitted.size === 0) throw new Error(`the build emitted nothing:\n${run.stdout}${run.stderr}`);
  removeStale(join(ROOT, 'dist'), emitted);
}

function removeStale(dir: string, keep: Set<string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      removeStale(path, keep);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
    } else if (!keep.has(path)) {
      rmSync(path);
    }
  }
}
