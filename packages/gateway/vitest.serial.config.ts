import { defineConfig } from 'vitest/config';

/**
 * Tests that measure latency or rates (one key's flood against another's p99, a limit held
 * across two instances): run one file at a time after the main run, on an otherwise quiet
 * machine, so what they measure is the gateway and not the rest of the suite.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.serial.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
