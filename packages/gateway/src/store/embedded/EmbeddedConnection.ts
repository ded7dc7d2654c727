import type { SqlConnection } from '../SqlConnection.js';

/** An embedded engine as the gateway's thread uses it: a {@link SqlConnection}, a schema script runner, and its close. */
export interface EmbeddedConnection extends SqlConnection {
  /** Runs a script of several statements (the schema). */
  exec(script: string): Promise<void>;
  /** Closes the engine (and ends its worker); calls after it fail. */
  close(): Promise<void>;
}
