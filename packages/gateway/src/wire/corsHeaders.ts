/**
 * CORS: every endpoint can be called from browsers (and from snaps, which send `Origin: null`).
 * A key's origin allowlist is enforced by the restrictions stage, not by CORS, so the answer to
 * a refused origin is a readable 403, not an opaque browser failure.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'X-Stream-Output, X-Chunked-Output, X-Content-Length, X-Stream-Error, X-Request-Id, Retry-After, X-Nodegate-Failover, X-Cache, X-Nodegate-Upstream, X-Nodegate-Attempts, X-Nodegate-Cache, X-Nodegate-Multiplexed, X-Nodegate-Split',
} as const;

/** The answer to a CORS preflight of a JSON-RPC endpoint. */
export const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Authorization, Enable-Failover, X-Requested-With',
  'access-control-max-age': '86400',
} as const;
