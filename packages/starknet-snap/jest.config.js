// Two projects: `unit` (plain Node: state transitions, key derivation, fee arithmetic) and `e2e`
// (@metamask/snaps-jest against a real backend). The e2e global setup starts the backend (dev chain or
// nodegate, see test/e2e/backend.ts), then builds the snap into dist/e2e with the backend's URL baked in;
// snaps-jest serves that folder.
const { join } = require('node:path');

const transform = {
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: join(__dirname, 'tsconfig.test.json') }],
};
// the shared Starknet module is ESM; jest (CommonJS here) reads its TypeScript source instead
const moduleNameMapper = {
  '^@nodegate/starknet-spec$': join(__dirname, '..', 'starknet-spec', 'src', 'index.ts'),
  '^(\\.{1,2}/.*)\\.js$': '$1',
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      transform,
      moduleNameMapper,
      modulePathIgnorePatterns: ['<rootDir>/dist/'],
    },
    {
      displayName: 'e2e',
      preset: '@metamask/snaps-jest',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      transform,
      moduleNameMapper,
      modulePathIgnorePatterns: ['<rootDir>/dist/'],
      globalSetup: '<rootDir>/test/e2e/global-setup.ts',
      globalTeardown: '<rootDir>/test/e2e/global-teardown.ts',
      testEnvironmentOptions: { server: { root: join(__dirname, 'dist', 'e2e') } },
    },
  ],
  maxWorkers: 1,
  testTimeout: 60000,
};
