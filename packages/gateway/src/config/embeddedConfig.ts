import type { GatewayConfig } from './types.js';
import { validateConfig } from './validateConfig.js';

/**
 * The configuration used when no config file is given: every family on embedded backends,
 * each network reachable by path prefix, a development key, the embedded database.
 */
export function embeddedConfig(overrides: { listen?: string; dataDir?: string } = {}): GatewayConfig {
  return validateConfig({
    listen: overrides.listen ?? '127.0.0.1:8550',
    dataDir: overrides.dataDir ?? '.nodegate',
    devKey: true,
    networks: [
      {
        name: 'eth-devnet',
        family: 'eth',
        chainId: 31337,
        dev: true,
        pathPrefix: '/eth-devnet',
        upstreams: [{ name: 'anvil', embedded: 'anvil' }],
      },
    ],
  });
}
