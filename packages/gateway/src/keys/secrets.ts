import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Key ids and secrets are 32 lowercase hex characters (128 bits of randomness). */
export const KEY_FORMAT = /^[0-9a-f]{32}$/;

/** A fresh random key id or secret. */
export function randomToken(): string {
  return randomBytes(16).toString('hex');
}

/** SHA-256 of a secret, hex. Secrets are random 128-bit values, so a fast hash is enough. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(secret: string, secretHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(secretHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `abcd…` — the only form of a key that may appear in logs. */
export function redactKey(key: string): string {
  return `${key.slice(0, 4)}…`;
}
