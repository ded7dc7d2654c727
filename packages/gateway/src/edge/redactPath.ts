/**
 * Replaces the key segment of `/v3/<key>` and `/ws/v3/<key>` with its first four characters:
 * the only form of a path that may appear in logs and error messages.
 *
 * @example
 * redactPath('/eth-devnet/v3/3111a397c829818d6c438b39442ca3d0') // '/eth-devnet/v3/3111…'
 */
export function redactPath(url: string): string {
  return url.replace(/(\/v3\/)([^/?]{4})[^/?]*/, '$1$2…');
}
