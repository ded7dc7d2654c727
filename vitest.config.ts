import { defineConfig } from 'vitest/config';

// Every package under packages/ is a vitest project with its own config,
// except the snap, which is tested by @metamask/snaps-jest (jest).
export default defineConfig({
  test: {
    projects: ['packages/*', '!packages/starknet-snap'],
  },
});
