import { CORS_HEADERS } from '../wire/corsHeaders.js';

/** CORS headers on every IPFS answer: the gateway's own (any origin, Kubo streaming headers exposed). */
export const IPFS_CORS_HEADERS = CORS_HEADERS;

/** The answer to a CORS preflight (OPTIONS). */
export const IPFS_PREFLIGHT_HEADERS = {
  ...IPFS_CORS_HEADERS,
  allow: 'OPTIONS, POST',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, X-Requested-With, Range, User-Agent',
  'access-control-max-age': '86400',
} as const;
