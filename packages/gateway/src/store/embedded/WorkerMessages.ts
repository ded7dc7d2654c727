import type { SqlStatement } from '../SqlConnection.js';
import type { EngineError } from './EmbeddedEngine.js';

/** What the gateway's thread asks the database worker (`embeddedDatabaseWorker.ts`), by id. */
export type WorkerRequest =
  | { readonly id: number; readonly op: 'query'; readonly sql: string; readonly params: readonly unknown[] }
  | { readonly id: number; readonly op: 'transaction'; readonly statements: readonly SqlStatement[] }
  | { readonly id: number; readonly op: 'exec'; readonly script: string }
  | { readonly id: number; readonly op: 'close' };

/** The worker's answers: first whether its engine opened, then one per request, in order. */
export type WorkerReply =
  | { readonly ready: true }
  | { readonly ready: false; readonly error: EngineError }
  | {
      readonly id: number;
      readonly rows?: unknown[];
      readonly results?: Array<{ rows: unknown[] }>;
      readonly error?: EngineError;
    };
