// Every run tests the code as it is now: dist/ (which bin/trader.js and the e2e tier run) is
// built before any test file starts, and a run whose code does not compile fails here.
// The build is incremental (tsconfig.json: dist/.tsbuildinfo), so a run after `npm ci` or an
// earlier run re-emits only what changed. What dist/ must hold is read from src/, not from what
// tsc emitted this time: a missing output forces a full build, and a file no source emits (left
// by a source since moved or removed) is deleted, so nothing can pass by importing stale output.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const BUILD_INFO = join(DIST, '.tsbuildinfo');

/** Builds dist/ with tsc (the `npm run build` of package.json); throws with tsc's output on failure. */
export function buildDist(): void {
  const outputs = expectedOutputs(SRC);
  tsc();
  if (outputs.some((path) => !existsSync(path))) {
    // Built before, then an output deleted by hand: tsc's record says it is there, so build it all.
    rmSync(BUILD_INFO, { force: true });
    tsc();
  }
  const missing = outputs.filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`the build did not emit ${missing.map((p) => relative(ROOT, p)).join(', ')}`);
  removeStale(DIST, new Set([...outputs, BUILD_INFO]));
}

function tsc(): void {
  const bin = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [bin, '-p', 'tsconfig.json'], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) {
    throw new Error(
      `the build failed (tsc exit ${run.status ?? run.signal}), so the tests would run stale code:\n${run.stdout}${run.stderr}`,
    );
  }
}

/** dist/x/y.js for each src/x/y.ts (tsconfig.json: rootDir src, outDir dist, no declarations or maps). */
function expectedOutputs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return expectedOutputs(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) return [];
    return [join(DIST, relative(SRC, path)).replace(/\.ts$/, '.js')];
  });
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
