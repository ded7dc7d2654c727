import { GatewayError } from '../errors/GatewayError.js';

/** The 401 for a missing, unknown or revoked key; the key itself is never echoed. */
export function unauthorized(key: string): GatewayError {
  return new GatewayError(
    'UNAUTHORIZED',
    key === '' ? 'missing API key: use /v3/<API_KEY>' : 'invalid API key: unknown or revoked',
  );
}
