import type { Network } from '../network/createNetwork.js';
import type { Resolved } from '../network/createNetworkResolver.js';

/** Where a request goes, decided from Host and path only (before the body is read). */
export type Route =
  | { kind: 'health' }
  | { kind: 'rpc'; network: Network; key: string }
  | { kind: 'ws'; network: Network; key: string }
  | { kind: 'network-not-found' }
  | { kind: 'not-found' };

const RPC_PATH = /^\/v3\/([^/?]*)\/?$/;
const WS_PATH = /^\/ws\/v3\/([^/?]*)\/?$/;

/**
 * Classifies a request path: `/health`, `{base}/v3/KEY`, `{base}/ws/v3/KEY`, or a 404.
 * `{base}` is a network's path prefix, or empty when its Host header matched.
 */
export function routeRequest(
  resolve: (host: string | undefined, path: string) => Resolved<Network> | undefined,
  host: string | undefined,
  rawUrl: string,
): Route {
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  if (path === '/health' || path === '/health/') return { kind: 'health' };
  const resolved = resolve(host, path);
  if (!resolved) {
    return RPC_PATH.test(path) || WS_PATH.test(path) || /\/(ws\/)?v3\//.test(path)
      ? { kind: 'network-not-found' }
      : { kind: 'not-found' };
  }
  const rpc = RPC_PATH.exec(resolved.rest);
  if (rpc) return { kind: 'rpc', network: resolved.network, key: decodeURIComponent(rpc[1]!) };
  const ws = WS_PATH.exec(resolved.rest);
  if (ws) return { kind: 'ws', network: resolved.network, key: decodeURIComponent(ws[1]!) };
  return { kind: 'not-found' };
}
