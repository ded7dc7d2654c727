import { createHash, randomBytes } from 'node:crypto';

/** A gateway token: `ngt_` and 43 base64url characters (256 random bits). */
export const GATEWAY_TOKEN = /^ngt_[A-Za-z0-9_-]{43}$/;

/** A new gateway token (shown once; only {@link hashGatewayToken} of it is stored). */
export function newGatewayToken(): string {
  return `ngt_${randomBytes(32).toString('base64url')}`;
}

/** The SHA-256 (hex) a gateway token is stored and looked up by. */
export function hashGatewayToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new id: `prefix` and `bytes` random bytes in hex. */
export function newId(prefix: string, bytes: number): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}
