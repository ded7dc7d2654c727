import type { Logger } from '../log/createLogger.js';
import type { KeyLimits } from '../limits/Limiter.js';
import type { Plan } from '../plans/Plan.js';
import type { ApiKeyRecord } from '../store/KeyStore.js';
import type { Transport } from '../usage/UsageEvent.js';

/** An authenticated key with what the stages after authentication need. */
export interface TenantKey {
  readonly record: ApiKeyRecord;
  /** The effective plan: the key's override, else its account's plan. */
  readonly plan: Plan;
  /** The plan's limits, lowered by the key's own per-key limits. */
  readonly limits: KeyLimits;
}

/** Credentials a request presented besides the key in its path. */
export interface Credentials {
  /** The API key: from the path (`/v3/KEY`) or HTTP basic user name (IPFS). */
  readonly key: string;
  /** The API key secret from HTTP basic auth (`:SECRET` or `KEY:SECRET`). */
  readonly secret: string | undefined;
  /** A Bearer token (JWT). */
  readonly bearer: string | undefined;
}

/**
 * Everything the request path knows about one request, whatever its transport. Built by the
 * edge and completed by the authenticate stage; every later stage reads it.
 */
export interface RequestContext {
  readonly requestId: string;
  readonly transport: Transport;
  /** Network name (`eth-devnet`), or `ipfs`. */
  readonly network: string;
  /** Set by the authenticate stage. */
  key: TenantKey | undefined;
  readonly credentials: Credentials;
  readonly origin: string | undefined;
  readonly userAgent: string | undefined;
  readonly ip: string;
  /** Epoch milliseconds by which the answer must be written. */
  readonly deadline: number;
  /** Aborted when the client goes away (or the deadline passes): upstream calls stop. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Epoch milliseconds when the request arrived. */
  readonly startedAt: number;
  /** The request asked for failover protection (`Enable-Failover: true`); the key's plan decides. */
  readonly enableFailover: boolean;
}
