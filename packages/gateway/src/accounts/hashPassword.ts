import { randomBytes, scrypt } from 'node:crypto';
import { MIN_PASSWORD_LENGTH } from './AccountStore.js';

/** scrypt cost parameters of new hashes (N = 2^15, r = 8, p = 1: about 32 MiB and 50–100 ms). */
export const SCRYPT_PARAMS = { N: 32_768, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

/** scrypt from node:crypto as a promise; `maxmem` sized for the parameters. */
export function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/**
 * Hashes a password with scrypt and a random 16-byte salt; the parameters travel with the
 * hash: `scrypt$N$r$p$<salt base64url>$<hash base64url>`. Refuses passwords shorter than
 * {@link MIN_PASSWORD_LENGTH} (the message never contains the password).
 *
 * @example
 * const stored = await hashPassword('correct horse battery');
 * await verifyPassword('correct horse battery', stored); // true
 */
export async function hashPassword(password: string): Promise<string> {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new Error(`a password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  const { N, r, p } = SCRYPT_PARAMS;
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, N, r, p);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}
