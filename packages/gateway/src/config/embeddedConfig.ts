import type { GatewayConfig } from './types.js';
import { validateConfig } from './validateConfig.js';

/**
 * The configuration used when no config file is given: every family on embedded backends
 * (anvil for eth-devnet, the Starknet dev chain for starknet-devnet, the IPFS node under /ipfs),
 * each network reachable by path prefix, a development key, the embedded database, and the
 * access log (in `<dataDir>/logs/access.log`; the terminal shows warnings and errors only). The
 * dev chains mine on demand (see `withBlockTime` for `--block-time`), and start with the welcome
 * state (`embedded.welcome`).
 */
export function embeddedConfig(overrides: { listen?: string; dataDir?: string } = {}): GatewayConfig {
  return validateConfig({
    listen: overrides.listen ?? '127.0.0.1:8550',
    dataDir: overrides.dataDir ?? '.nodegate',
    devKey: true,
    // each request is one line in <dataDir>/logs/access.log (config files leave it off by default)
    log: { access: true },
    // new chains and a new IPFS repo start with what the root README's examples name
    embedded: { welcome: true },
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
    ipfs: {
      pathPrefix: '/ipfs',
      upstream: { name: 'ipfs-node', embedded: 'ipfs-node' },
      // dedicated gateways by path (/ipfs-gateway/<name>/…) and by host: browsers resolve *.localhost here
      gateways: { domain: 'localhost' },
    },
  });
}
