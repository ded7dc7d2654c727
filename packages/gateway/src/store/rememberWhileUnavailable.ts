import { createHash } from 'node:crypto';
import { DatabaseUnavailableError } from './DatabaseUnavailableError.js';

/** Answers remembered at most (the oldest goes first). */
const MAX_REMEMBERED = 100;

/**
 * Wraps a lookup by a secret (an admin token) so that while the database is away (the lookup
 * rejects with a {@link DatabaseUnavailableError}) a secret that was verified before still gets
 * its last answer: a Prometheus scraper keeps seeing `/metrics` (and `nodegate_database_up 0`)
 * during an outage. Only found answers are remembered, by the secret's SHA-256, at most
 * {@link MAX_REMEMBERED}; a secret never verified still gets the 503.
 *
 * @example
 * const verify = rememberWhileUnavailable((token) => db.accounts.verifyAdminToken(token));
 */
export function rememberWhileUnavailable<T>(
  lookup: (secret: string) => Promise<T | undefined>,
): (secret: string) => Promise<T | undefined> {
  const remembered = new Map<string, T>();
  return async (secret) => {
    const id = createHash('sha256').update(secret).digest('base64url');
    try {
      const answer = await lookup(secret);
      remembered.delete(id);
      if (answer !== undefined) {
        if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
        remembered.set(id, answer);
      }
      return answer;
    } catch (err) {
      const last = err instanceof DatabaseUnavailableError ? remembered.get(id) : undefined;
      if (last === undefined) throw err;
      return last;
    }
  };
}
