import type { EmbeddedBackend, GatewayConfig } from '../config/types.js';
import { join } from 'node:path';
import { type EmbeddedProcess, startAnvil } from './startAnvil.js';
import { startIpfsNode } from './startIpfsNode.js';
import { startStarknetDevchain } from './startStarknetDevchain.js';

/** Starts each embedded backend the config names (once, even if several upstreams use it). */
export async function startEmbeddedBackends(
  config: GatewayConfig,
  progress: (line: string) => void,
): Promise<Map<EmbeddedBackend, EmbeddedProcess>> {
  const wanted = new Map<EmbeddedBackend, string | undefined>();
  for (const n of config.networks) {
    for (const u of n.upstreams) {
      if (u.embedded) wanted.set(u.embedded, n.chainId);
    }
  }
  if (config.ipfs?.upstream.embedded) wanted.set(config.ipfs.upstream.embedded, undefined);
  const started = new Map<EmbeddedBackend, EmbeddedProcess>();
  try {
    await Promise.all(
      [...wanted].map(async ([backend, chainId]) => {
        progress(`starting embedded ${backend}…`);
        const proc = await startBackend(backend, config, chainId);
        started.set(backend, proc);
        progress(`embedded ${backend} listening on ${proc.http}`);
      }),
    );
  } catch (err) {
    await Promise.all([...started.values()].map((p) => p.stop()));
    throw err;
  }
  return started;
}

function startBackend(
  backend: EmbeddedBackend,
  config: GatewayConfig,
  chainId: string | undefined,
): Promise<EmbeddedProcess> {
  switch (backend) {
    case 'anvil':
      return startAnvil(chainId === undefined ? {} : { chainId: Number.parseInt(chainId, 16) });
    case 'starknet-devchain':
      return startStarknetDevchain({
        dataDir: join(config.dataDir, 'starknet-devchain'),
        ...(chainId === undefined ? {} : { chainId }),
      });
    case 'ipfs-node':
      return startIpfsNode({ repo: join(config.dataDir, 'ipfs') });
  }
}
