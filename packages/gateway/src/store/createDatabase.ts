import { createSqlAccountStore } from '../accounts/createSqlAccountStore.js';
import { createSqlKeyStore } from './createSqlKeyStore.js';
import type { DependencyHealth } from '../health/createDependencyHealth.js';
import type { Database } from './Database.js';
import type { SqlConnection } from './SqlConnection.js';

/**
 * Wraps one SQL connection whose schema is applied as a {@link Database}: both stores share
 * the connection and a close that runs once. `sql` is already guarded (`guardQuery`: its
 * deadline, failing at once while `health` is down).
 *
 * @example
 * const db = createDatabase('embedded', guardQuery(conn, { timeoutMs, health }), () => conn.close(), health);
 */
export function createDatabase(
  kind: Database['kind'],
  sql: SqlConnection,
  end: () => Promise<void>,
  health: DependencyHealth,
): Database {
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= end();
    return closing;
  };
  return {
    kind,
    sql,
    query: sql.query,
    health,
    keys: createSqlKeyStore(sql, close),
    accounts: createSqlAccountStore(sql, close),
    close,
  };
}
