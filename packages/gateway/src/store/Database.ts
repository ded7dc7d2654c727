import type { AccountStore } from '../accounts/AccountStore.js';
import type { DependencyHealth } from '../health/createDependencyHealth.js';
import type { SqlQuery } from './createSqlKeyStore.js';
import type { KeyStore } from './KeyStore.js';
import type { SqlConnection } from './SqlConnection.js';

/**
 * One open database (the embedded SQLite, or PostgreSQL) and the stores over it. `sql` is the
 * same connection, for other stores that keep their tables there (usage, IPFS pins), with its
 * dialect; `query` is its `query`. Closing the database, or either store, closes it once for all.
 */
export interface Database {
  readonly kind: 'embedded' | 'postgres';
  readonly keys: KeyStore;
  readonly accounts: AccountStore;
  readonly sql: SqlConnection;
  readonly query: SqlQuery;
  /**
   * Whether the database answers (`/health`'s `database` component, `nodegate_database_up`):
   * down from the first statement that failed because it is away until a probe answers; while
   * down, every statement fails at once with a 503 (`DatabaseUnavailableError`).
   */
  readonly health: DependencyHealth;
  close(): Promise<void>;
}
