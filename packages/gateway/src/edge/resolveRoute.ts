import type { Network } from '../network/createNetwork.js';
import type { Resolved } from '../network/createNetworkResolver.js';

/** Where a request goes, decided from its Host and normalised path only (before any body is read). */
export type Route =
  | { readonly kind: 'app' }
  | { readonly kind: 'rpc'; readonly network: Network; readonly key: string }
  | { readonly kind: 'ws'; readonly network: Network; readonly key: string }
  | { readonly kind: 'ipfs'; readonly rest: string }
  | { readonly kind: 'network-not-found' }
  | { readonly kind: 'not-found' };

const RPC_PATH = /^\/v3\/([^/]*)\/?$/;
const WS_PATH = /^\/ws\/v3\/([^/]*)\/?$/;
const APP_PATHS = /^\/(?:health\/?$|admin(?:\/|$)|dashboard(?:\/|$)|$)/;

/**
 * Classifies a normalised path: the gateway's own pages and APIs (`/health`, `/admin/…`,
 * `/dashboard…`, served by Fastify), `{base}/v3/KEY`, `{base}/ws/v3/KEY`, the IPFS API, or a 404.
 * `{base}` is a network's path prefix, or empty when its Host header matched.
 *
 * @example
 * resolveRoute(resolve, matchIpfs, '127.0.0.1:8550', '/eth-devnet/v3/abc') // { kind: 'rpc', network, key: 'abc' }
 */
export function resolveRoute(
  resolve: (host: string | undefined, path: string) => Resolved<Network> | undefined,
  matchIpfs: ((host: string | undefined, path: string) => string | undefined) | undefined,
  host: string | undefined,
  path: string,
): Route {
  const resolved = resolve(host, path);
  if (resolved) {
    const rpc = RPC_PATH.exec(resolved.rest);
    if (rpc) return { kind: 'rpc', network: resolved.network, key: rpc[1]! };
    const ws = WS_PATH.exec(resolved.rest);
    if (ws) return { kind: 'ws', network: resolved.network, key: ws[1]! };
    return { kind: 'not-found' };
  }
  const ipfsRest = matchIpfs?.(host, path);
  if (ipfsRest !== undefined) return { kind: 'ipfs', rest: ipfsRest };
  if (APP_PATHS.test(path)) return { kind: 'app' };
  return /\/(ws\/)?v3\//.test(path) ? { kind: 'network-not-found' } : { kind: 'not-found' };
}
