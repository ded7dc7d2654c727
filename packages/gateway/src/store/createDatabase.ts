import { createSqlAccountStore } from '../accounts/createSqlAccountStore.js';
import { createSqlKeyStore, type SqlQuery } from './createSqlKeyStore.js';
import type { Database } from './Database.js';

/**
 * Wraps one SQL connection whose schema is applied as a {@link Database}: both stores share
 * the connection and a close that runs once.
 *
 * @example
 * const db = createDatabase('embedded', query, () => pglite.close());
 */
export function createDatabase(kind: Database['kind'], query: SqlQuery, end: () => Promise<void>): Database {
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= end();
    return closing;
  };
  return {
    kind,
    query,
    keys: createSqlKeyStore(query, close),
    accounts: createSqlAccountStore(query, close),
    close,
  };
}
