import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the built binary; give slow CI cores room without hiding hangs.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Test files share their worker's modules (no per-file fresh process): on 2 cores (2,405 tests)
    // isolated files cost 803 s of CPU and 463 s, shared ones 465 s of CPU and 275 s. Tests keep no
    // state in modules or globals (no vi.mock, no stubbed globals; fake timers restored; temp files
    // and processes cleaned after each file by test/setup/cleanup.ts).
    isolate: false,
    // The e2e tier spends much of its time waiting on the child processes it spawns, so one worker
    // more than the cores keeps them busy. As many workers from the start: with fewer, Vitest 3.2
    // ends a shared worker mid-file ("Terminating worker thread", vitest-dev/vitest#8133).
    maxWorkers: availableParallelism() + 1,
    minWorkers: availableParallelism() + 1,
    // A temp folder for the run, checked empty at the end; each file's folders removed after it.
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/cleanup.ts'],
  },
});
