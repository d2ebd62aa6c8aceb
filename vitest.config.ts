import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the built binary; give slow CI cores room without hiding hangs.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default leaves a core idle (one worker on 2 cores: 203 s); the e2e tier spends most
    // of its time waiting on child processes, so two workers on 2 cores take 140 s, all green.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A temp folder for the run, checked empty at the end; each file's folders removed after it.
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/cleanup.ts'],
  },
});
