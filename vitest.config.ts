import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the built binary; give slow CI cores room without hiding hangs.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The e2e tier spends much of its time waiting on the child processes it spawns, so one worker
    // more than the cores keeps them busy: on 2 cores (2,020 tests) two workers took 192 s, three
    // 176 s, all green.
    maxWorkers: availableParallelism() + 1,
    // A temp folder for the run, checked empty at the end; each file's folders removed after it.
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/cleanup.ts'],
  },
});
