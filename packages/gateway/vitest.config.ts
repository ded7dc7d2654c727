import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // measured under load of their own (latency, rate accuracy): run alone by vitest.serial.config.ts
    exclude: [...configDefaults.exclude, 'src/**/*.serial.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
