import { startAnvil } from '../embedded/startAnvil.js';
import type { StartedBackend } from '../embedded/superviseBackend.js';
import { rpc } from '../test-support/startTestGateway.js';

/** Two anvils for the cache's reorg tests, and the gateway networks in front of them. */
export interface ReorgAnvils {
  /** Behind the production network `mainnet` (path `/mainnet`). */
  readonly prod: StartedBackend;
  /** Behind the dev network `devnet` (path `/devnet`). */
  readonly dev: StartedBackend;
  /** `networks` of a gateway config (new objects each time): both, each with its anvil's HTTP and WebSocket. */
  networks(): Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

/**
 * Starts the two anvils of the cache's reorg tests (`reorg.gateway.test.ts`,
 * `sharedRedis.gateway.test.ts`), 256 blocks mined on each (so there are blocks below the
 * tip to read by number), with the networks a gateway puts in front of them.
 *
 * @example
 * const anvils = await startReorgAnvils();
 * const gw = await startGateway(validateConfig({ listen: '127.0.0.1:0', dataDir, devKey: true, networks: anvils.networks() }));
 */
export async function startReorgAnvils(): Promise<ReorgAnvils> {
  const [prod, dev] = await Promise.all([startAnvil(), startAnvil()]);
  await Promise.all([rpc(prod.http, 'anvil_mine', ['0x100']), rpc(dev.http, 'anvil_mine', ['0x100'])]);
  return {
    prod,
    dev,
    networks: () => [
      {
        name: 'mainnet',
        family: 'eth',
        pathPrefix: '/mainnet',
        upstreams: [{ name: 'anvil', http: prod.http, ws: prod.ws }],
      },
      {
        name: 'devnet',
        family: 'eth',
        dev: true,
        pathPrefix: '/devnet',
        upstreams: [{ name: 'anvil', http: dev.http, ws: dev.ws }],
      },
    ],
    async stop() {
      await prod.stop();
      await dev.stop();
    },
  };
}
