import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the built binary; give slow CI cores room without hiding hangs.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A temp folder for the run, checked empty at the end; each file's folders removed after it.
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/cleanup.ts'],
  },
});
