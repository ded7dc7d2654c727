import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../config/validateConfig.js';
import type { EmbeddedProcess } from '../embedded/startAnvil.js';
import { startStarknetDevchain } from '../embedded/startStarknetDevchain.js';
import { type RunningGateway, startGateway } from '../main.js';

/** A gateway in front of a real Starknet dev chain, configured by URL like production. */
export interface StarknetTestGateway {
  gw: RunningGateway;
  devchain: EmbeddedProcess;
  key: string;
  /** {base}/v3/KEY on the dev network (devnet_* allowed). */
  rpcUrl: string;
  /** {base}/v3/KEY on a non-dev network over the same upstream. */
  prodRpcUrl: string;
  wsUrl: string;
  /** The dev chain's own URL, for differential comparisons. */
  directUrl: string;
  stop(): Promise<void>;
}

export async function startStarknetTestGateway(extraNetworks: unknown[] = []): Promise<StarknetTestGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-stk-'));
  const devchain = await startStarknetDevchain({ dataDir: join(dir, 'chain') });
  const gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'gw'),
      devKey: true,
      networks: [
        {
          name: 'starknet-devnet',
          family: 'starknet',
          dev: true,
          pathPrefix: '/starknet-devnet',
          maxEventsChunkSize: 1024,
          upstreams: [{ name: 'devchain', http: devchain.http }],
        },
        {
          name: 'starknet-sepolia',
          family: 'starknet',
          pathPrefix: '/starknet-sepolia',
          upstreams: [{ name: 'devchain', http: devchain.http }],
        },
        ...extraNetworks,
      ],
    }),
  );
  const key = gw.devKey!.key;
  return {
    gw,
    devchain,
    key,
    rpcUrl: `${gw.networks['starknet-devnet']!.http}/v3/${key}`,
    prodRpcUrl: `${gw.networks['starknet-sepolia']!.http}/v3/${key}`,
    wsUrl: `${gw.networks['starknet-devnet']!.ws}/ws/v3/${key}`,
    directUrl: devchain.http,
    async stop() {
      await gw.close();
      await devchain.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
