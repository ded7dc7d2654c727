import { randomBytes, scrypt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { createKeyGate, KeyGateFullError } from '../limits/createKeyGate.js';
import { MIN_PASSWORD_LENGTH } from './AccountStore.js';
import { PasswordWorkBusyError } from './PasswordWorkBusyError.js';

/** scrypt cost parameters of new hashes (N = 2^15, r = 8, p = 1: about 32 MiB and 50–100 ms). */
export const SCRYPT_PARAMS = { N: 32_768, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

/**
 * scrypt runs at once in this process: one core fewer than the machine has (at least 1, at most
 * 4, libuv's default pool size), so a burst of sign-ins neither takes every core from the request
 * path nor every libuv thread from file and DNS work.
 */
export const SCRYPT_CONCURRENCY = Math.max(1, Math.min(4, availableParallelism() - 1));
/** scrypt runs that may wait for a turn; beyond them {@link PasswordWorkBusyError} (429). */
export const SCRYPT_MAX_WAITING = 16;

// one gate for the process: the libuv pool and the cores it bounds are the process's
const gate = createKeyGate({ maxConcurrent: SCRYPT_CONCURRENCY, maxQueued: SCRYPT_MAX_WAITING });
/** scrypt runs under way or waiting. */
let pending = 0;

/**
 * True when a scrypt run started now would be refused: check it before work that only leads to
 * one (a database lookup before a password check), so a refused attempt costs next to nothing.
 */
export function passwordWorkIsFull(): boolean {
  return pending >= SCRYPT_CONCURRENCY + SCRYPT_MAX_WAITING;
}

/**
 * scrypt from node:crypto as a promise: the asynchronous one (it runs on libuv's thread pool,
 * never on the event loop), at most {@link SCRYPT_CONCURRENCY} at once and
 * {@link SCRYPT_MAX_WAITING} waiting; rejects with {@link PasswordWorkBusyError} beyond them.
 * `maxmem` is sized for the parameters.
 */
export async function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  if (passwordWorkIsFull()) throw new PasswordWorkBusyError();
  pending++;
  let release: () => void;
  try {
    release = await gate.acquire('scrypt');
  } catch (err) {
    pending--;
    if (err instanceof KeyGateFullError) throw new PasswordWorkBusyError();
    throw err;
  }
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (err, key) =>
        err ? reject(err) : resolve(key),
      );
    });
  } finally {
    pending--;
    release();
  }
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
