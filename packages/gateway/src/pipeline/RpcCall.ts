import type { PreparedCall } from '../families/FamilyHandler.js';
import type { RpcRequest } from '../jsonrpc/types.js';

/** One JSON-RPC request of a body (a single request, or one item of a batch) on its way through. */
export interface RpcCall {
  /** The method as the client named it (`(invalid)` when the envelope was not a request). */
  readonly method: string;
  /** The id to echo; undefined for a notification (no answer is written). */
  readonly id: RpcRequest['id'];
  readonly request: RpcRequest | undefined;
  /** Set by the validate stage: what goes upstream, and how its answer is finished. */
  prepared: PreparedCall | undefined;
  /** Set by the first stage that refused or failed this call; later stages skip it. */
  error: unknown;
  result: unknown;
  /** The upstream that answered. */
  upstream: string | undefined;
  /** Set by the cache stage for a cacheable call: answered from the cache or not. */
  cache?: 'HIT' | 'MISS' | undefined;
  /** Set when a failover partner answered (failover protection). */
  failover?: 'partner' | undefined;
  /** Requests the network sent upstream for its answer (`Forwarded.attempts`). */
  attempts?: number | undefined;
  /** Its answer came from a call another request started (in-flight multiplexing). */
  multiplexed?: true | undefined;
  /** Sub-requests its answer was made of, when it was split (getLogs/getEvents ranges). */
  split?: number | undefined;
  /** Credits charged for it (0 when it was not forwarded). */
  credits: number;
}
