import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A family served on raw request/response streams, ahead of Fastify (no body parsing,
 * no buffering): the IPFS HTTP API. `match` returns the path after the route's prefix (or
 * the whole path when its Host matched), or undefined when the request is not its own.
 */
export interface StreamingRoute {
  match(host: string | undefined, url: string): string | undefined;
  handle(req: IncomingMessage, res: ServerResponse, rest: string): void;
  /** For /health: the route's name and whether its upstream answers within `timeoutMs`. */
  probe?(
    timeoutMs: number,
  ): Promise<{ name: string; family: string; upstreams: Array<{ name: string; healthy: boolean }> }>;
  close?(): Promise<void>;
}

/** A `match` for a route chosen by Host names and/or a path prefix. */
export function matchHostOrPrefix(hosts: readonly string[], pathPrefix: string | undefined) {
  const hostSet = new Set(hosts);
  return (host: string | undefined, url: string): string | undefined => {
    if (host && hostSet.size > 0 && hostSet.has(host.replace(/:\d+$/, '').toLowerCase())) return url;
    if (pathPrefix && (url === pathPrefix || url.startsWith(`${pathPrefix}/`) || url.startsWith(`${pathPrefix}?`))) {
      return url.slice(pathPrefix.length) || '/';
    }
    return undefined;
  };
}
