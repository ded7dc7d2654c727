/** CORS headers on every IPFS answer: any origin, and the Kubo streaming headers exposed. */
export const IPFS_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'X-Stream-Output, X-Chunked-Output, X-Content-Length, X-Stream-Error',
} as const;

/** The answer to a CORS preflight (OPTIONS). */
export const IPFS_PREFLIGHT_HEADERS = {
  ...IPFS_CORS_HEADERS,
  allow: 'OPTIONS, POST',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, X-Requested-With, Range, User-Agent',
  'access-control-max-age': '86400',
} as const;
