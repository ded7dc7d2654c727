/**
 * A password could not be hashed or checked now: as many scrypt runs as the process allows are
 * under way and as many wait. The admin API answers 429 `busy` with `Retry-After`; nothing is
 * queued without bound.
 *
 * @example
 * try { await accounts.verifyPassword(email, password); }
 * catch (e) { if (e instanceof PasswordWorkBusyError) reply.header('retry-after', e.retryAfterSeconds); }
 */
export class PasswordWorkBusyError extends Error {
  /** When to try again. */
  readonly retryAfterSeconds = 1;

  constructor() {
    super('too many password checks at once; try again in a second');
    this.name = 'PasswordWorkBusyError';
  }
}
