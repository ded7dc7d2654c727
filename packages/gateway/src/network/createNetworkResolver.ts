/** Something with the routing settings of a network. */
export interface Routable {
  readonly settings: {
    readonly name: string;
    readonly hosts: readonly string[];
    readonly pathPrefix?: string | undefined;
  };
}

/** The network a request is for, and the rest of its path after the prefix. */
export interface Resolved<T> {
  network: T;
  rest: string;
}

/**
 * Builds the function that picks a network for a request: by Host header (without port)
 * first, then by the first path segment (`/eth-devnet/v3/KEY`).
 *
 * @example
 * const resolve = createNetworkResolver(networks);
 * resolve('127.0.0.1:8550', '/eth-devnet/v3/abc') // { network: eth-devnet, rest: '/v3/abc' }
 */
export function createNetworkResolver<T extends Routable>(networks: readonly T[]) {
  const byHost = new Map<string, T>();
  const byPrefix = new Map<string, T>();
  for (const n of networks) {
    for (const h of n.settings.hosts) byHost.set(h, n);
    if (n.settings.pathPrefix) byPrefix.set(n.settings.pathPrefix.slice(1), n);
  }
  return (hostHeader: string | undefined, path: string): Resolved<T> | undefined => {
    if (hostHeader && byHost.size > 0) {
      const host = hostHeader.replace(/:\d+$/, '').toLowerCase();
      const n = byHost.get(host);
      if (n) return { network: n, rest: path };
    }
    const slash = path.indexOf('/', 1);
    const first = slash === -1 ? path.slice(1) : path.slice(1, slash);
    const n = byPrefix.get(first);
    if (n) return { network: n, rest: slash === -1 ? '' : path.slice(slash) };
    return undefined;
  };
}
