/** The transports a request can arrive on. */
export type Transport = 'http' | 'ws' | 'ipfs';

/**
 * One finished request (or batch item, or subscription event), as the pipeline reports it to
 * the usage recorder. Never holds the key's secret, the body or the upstream URL.
 */
export interface UsageEvent {
  /** The API key id. */
  readonly key: string;
  /** The account the key belongs to. */
  readonly accountId: string;
  /** Network name (`eth-devnet`), or `ipfs`. */
  readonly network: string;
  /** JSON-RPC method or IPFS command as the client named it (`eth_call`, `stk_getClass`, `pin/add`). */
  readonly method: string;
  readonly transport: Transport;
  /** HTTP status of the answer (200 for a JSON-RPC answer, also when it holds an error). */
  readonly status: number;
  /** JSON-RPC error code (or Kubo's, as negative HTTP status), undefined when it succeeded. */
  readonly errorCode: number | undefined;
  /** Why the gateway refused it, when it did: `origin`, `rate`, `daily`, `method`, … */
  readonly refusal: string | undefined;
  readonly credits: number;
  readonly latencyMs: number;
  /** Request and response body bytes (IPFS counts its transfers here). */
  readonly bytesIn: number;
  readonly bytesOut: number;
  /** The upstream that answered, when one did. */
  readonly upstream: string | undefined;
  /** `partner` when a failover partner answered (failover protection). */
  readonly failover?: 'partner' | undefined;
  /** Requests the network sent upstream for it (retries, hedges, failovers); 0 or absent when none did. */
  readonly attempts?: number | undefined;
  /** `HIT` when the response cache answered it, `MISS` when it was looked up and forwarded. */
  readonly cache?: 'HIT' | 'MISS' | undefined;
  /** Its answer came from an identical call another request had in flight (in-flight multiplexing). */
  readonly multiplexed?: true | undefined;
  /** The sub-requests a split range was answered in. */
  readonly split?: number | undefined;
  /** Epoch milliseconds when the request arrived. */
  readonly at: number;
  readonly requestId: string;
}

/**
 * Takes usage events off the hot path: `record` only updates in-memory aggregates; a timer
 * flushes them to the usage store at least every second; `close` flushes what is left.
 */
export interface UsageRecorder {
  record(event: UsageEvent): void;
  /** Writes everything recorded so far (used by tests and at shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}
