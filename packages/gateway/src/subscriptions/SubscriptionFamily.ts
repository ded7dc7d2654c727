/**
 * What a subscription hub needs to know of a JSON-RPC family's subscriptions. The hub (one per
 * network) shares upstream subscriptions, reconnects, resubscribes and fans events out; the family
 * says what a filter is, and each shared stream's logic decides what clients see (dedupe,
 * backfill, reorgs). Ethereum is `createEthSubscriptionFamily`; a Starknet family would implement
 * the same interface with `starknet_subscribe…` methods and its own stream logic.
 */
export interface SubscriptionFamily<F extends SubscriptionFilter = SubscriptionFilter> {
  /** The upstream method that ends a subscription (`eth_unsubscribe`). */
  readonly unsubscribeMethod: string;
  /** The upstream method that opens one (`eth_subscribe`). */
  readonly subscribeMethod: string;
  /** The notification method clients receive (`eth_subscription`). */
  readonly notificationMethod: string;
  /** Canonical filter of a client's subscribe params; throws INVALID_PARAMS. */
  filterOf(params: unknown): F;
  /** Filters this one needs held while it lives (eth logs need the newHeads stream for reorgs). */
  dependsOn(filter: F): readonly unknown[];
  /** The logic of one shared stream. Streams are backfilled in ascending `order`. */
  createStream(filter: F, io: StreamIo): StreamLogic;
}

/** A canonical subscription filter. */
export interface SubscriptionFilter {
  /** Equal for filters that may share one upstream subscription. */
  readonly key: string;
  /** The params of the upstream subscribe call. */
  readonly upstreamParams: unknown;
}

/** What a stream's logic may do. */
export interface StreamIo {
  /** Sends one event to every client of the stream. `how` is for the stats. */
  emit(result: unknown, how?: 'live' | 'backfill' | 'removed'): void;
  /** One call to the network's upstreams over HTTP (failover included). */
  fetch(method: string, params: unknown[]): Promise<unknown>;
}

/** The family-specific logic of one shared stream. Every hook runs in the hub's order (one at a time). */
export interface StreamLogic {
  /** Backfill order: lower first (eth: newHeads 0, logs 1). */
  readonly order: number;
  /** Before the first upstream subscribe (eth newHeads: learn the current head). */
  start?(): Promise<void>;
  /** A live event from the upstream subscription. */
  onEvent(result: unknown): Promise<void> | void;
  /** The upstream connection dropped. */
  dropped?(): void;
  /** Resubscribed after a drop: fetch and emit what was missed. */
  backfill?(): Promise<void>;
  /** The stream ends (its last client left). */
  stop?(): void;
}
