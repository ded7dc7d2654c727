import { defineConfig } from 'vitest/config';

// The dashboard's tests drive Debian's Chromium against a real gateway (spawned from its built CLI).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
