import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the built binary; give slow CI cores room without hiding hangs.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
