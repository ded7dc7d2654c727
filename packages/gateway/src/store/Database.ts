import type { AccountStore } from '../accounts/AccountStore.js';
import type { SqlQuery } from './createSqlKeyStore.js';
import type { KeyStore } from './KeyStore.js';

/**
 * One open database (embedded PGlite or PostgreSQL) and the stores over it. `query` is the
 * same connection, for other stores that keep their tables there (usage). Closing the
 * database, or either store, closes it once for all.
 */
export interface Database {
  readonly kind: 'embedded' | 'postgres';
  readonly keys: KeyStore;
  readonly accounts: AccountStore;
  readonly query: SqlQuery;
  close(): Promise<void>;
}
