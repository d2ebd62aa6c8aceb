// Temp folders for tests: made under the run's TMPDIR (test/setup/global.ts) and removed after
// the test file that made them (test/setup/cleanup.ts), so a run leaves nothing behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh empty folder, removed when the test file ends. */
export function tempDir(prefix = 'trader-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir made (the file's last afterAll). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** What a spawned process needs to put its temp files in the run's folder. */
export function tempEnv(): { TMPDIR: string } {
  return { TMPDIR: tmpdir() };
}
