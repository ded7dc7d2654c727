/**
 * A `match` for a route chosen by Host names and/or a path prefix: the path after the prefix
 * (or the whole path when the Host matched), or undefined when the request is not the route's.
 *
 * @example
 * matchHostOrPrefix([], '/ipfs')('127.0.0.1:8550', '/ipfs/api/v0/cat') // '/api/v0/cat'
 */
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
