import type { EmbeddedBackend, GatewayConfig } from '../config/types.js';
import { type EmbeddedProcess, startAnvil } from './startAnvil.js';

/** Starts each embedded backend the config names (once, even if several upstreams use it). */
export async function startEmbeddedBackends(
  config: GatewayConfig,
  progress: (line: string) => void,
): Promise<Map<EmbeddedBackend, EmbeddedProcess>> {
  const wanted = new Map<EmbeddedBackend, number | undefined>();
  for (const n of config.networks) {
    for (const u of n.upstreams) {
      if (u.embedded) wanted.set(u.embedded, n.chainId === undefined ? undefined : Number.parseInt(n.chainId, 16));
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
  _config: GatewayConfig,
  chainId: number | undefined,
): Promise<EmbeddedProcess> {
  switch (backend) {
    case 'anvil':
      return startAnvil(chainId === undefined ? {} : { chainId });
    default:
      throw new Error(`embedded backend ${backend} is not available in this build`);
  }
}
