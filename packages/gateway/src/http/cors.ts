/**
 * CORS: every endpoint can be called from browsers (and from snaps, which send
 * `Origin: null`). Key settings may restrict origins later; the preflight is answered here.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'X-Stream-Output, X-Chunked-Output, X-Content-Length, X-Stream-Error',
} as const;

export const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Authorization, Enable-Failover, X-Requested-With',
  'access-control-max-age': '86400',
} as const;
