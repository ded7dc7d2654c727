import type { GatewayConfig } from './types.js';
import { validateConfig } from './validateConfig.js';

/**
 * The configuration used when no config file is given: every family on embedded backends
 * (anvil for eth-devnet, the Starknet dev chain for starknet-devnet, the IPFS node under /ipfs),
 * each network reachable by path prefix, a development key, the embedded database, and the
 * access log on stderr.
 */
export function embeddedConfig(overrides: { listen?: string; dataDir?: string } = {}): GatewayConfig {
  return validateConfig({
    listen: overrides.listen ?? '127.0.0.1:8550',
    dataDir: overrides.dataDir ?? '.nodegate',
    devKey: true,
    // a developer watching `npm start` sees each request (config files leave it off by default)
    log: { access: true },
    networks: [
      {
        name: 'eth-devnet',
        family: 'eth',
        chainId: 31337,
        dev: true,
        pathPrefix: '/eth-devnet',
        upstreams: [{ name: 'anvil', embedded: 'anvil' }],
      },
      {
        name: 'starknet-devnet',
        family: 'starknet',
        chainId: 'SN_SEPOLIA',
        dev: true,
        pathPrefix: '/starknet-devnet',
        upstreams: [{ name: 'starknet-devchain', embedded: 'starknet-devchain' }],
      },
    ],
    ipfs: { pathPrefix: '/ipfs', upstream: { name: 'ipfs-node', embedded: 'ipfs-node' } },
  });
}
