import type { EmbeddedBackend, GatewayConfig } from '../config/types.js';

/**
 * The embedded backends a config runs, each once (even if several upstreams use it), with the
 * chain id of the network that names it (anvil and the dev chain take it at start).
 *
 * @example
 * embeddedBackendsOf(config).has('anvil'); // the gateway will start and supervise anvil
 */
export function embeddedBackendsOf(config: GatewayConfig): Map<EmbeddedBackend, string | undefined> {
  const wanted = new Map<EmbeddedBackend, string | undefined>();
  for (const n of config.networks) {
    for (const u of n.upstreams) {
      if (u.embedded) wanted.set(u.embedded, n.chainId);
    }
  }
  if (config.ipfs?.upstream.embedded) wanted.set(config.ipfs.upstream.embedded, undefined);
  return wanted;
}
