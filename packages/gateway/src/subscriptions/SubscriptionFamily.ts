/**
 * What a subscription hub needs to know of a JSON-RPC family's subscriptions. The hub (one per
 * network) shares upstream subscriptions, reconnects, resubscribes and fans events out; the family
 * says what a filter is, and each shared stream's logic decides what clients see (dedupe,
 * backfill, reorgs). Ethereum is `createEthSubscriptionFamily`; a Starknet family would implement
 * the same interface with `starknet_subscribe…` methods and its own stream logic.
 */
export interface SubscriptionFamily<F extends SubscriptionFilter = SubscriptionFilter> {
  /** Client methods that open a subscription (`eth_subscribe`; Starknet: `starknet_subscribeNewHeads`, …). */
  readonly subscribeMethods: ReadonlySet<string>;
  /** Client methods that end one (`eth_unsubscribe`). */
  readonly unsubscribeMethods: ReadonlySet<string>;
  /** Canonical filter of a client's subscribe call (method and validated params); throws INVALID_PARAMS. */
  filterOf(method: string, params: unknown): F;
  /** The subscription id in a client's unsubscribe params. */
  unsubscribeId(params: unknown): string;
  /** The error for an unsubscribe of an id that is not open (Starknet: 66); absent: the answer is `false` (eth). */
  unknownSubscription?(): Error;
  /** The upstream call that ends upstream subscription `id`. */
  upstreamUnsubscribe(id: string): { method: string; params: unknown };
  /** The notification a client receives: method (for usage) and the JSON text around the serialised result. */
  notification(filter: F, clientId: string, resultJson: string): string;
  /** The notification's method name, as usage records it (`eth_subscription`). */
  notificationMethod(filter: F): string;
  /** Filters this one needs held while it lives (eth logs need the newHeads stream for reorgs), as [method, params]. */
  dependsOn(filter: F): ReadonlyArray<readonly [string, unknown]>;
  /** The logic of one shared stream. Streams are backfilled in ascending `order`. */
  createStream(filter: F, io: StreamIo): StreamLogic;
}

/** A canonical subscription filter. */
export interface SubscriptionFilter {
  /** Equal for filters that may share one upstream subscription. */
  readonly key: string;
  /** The upstream subscribe call. */
  readonly upstreamMethod: string;
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
  /**
   * What a client joining the stream receives first, and only it (Starknet: the current head, a
   * transaction's current status). Runs in the hub's order: the client gets every later event.
   */
  join?(): readonly unknown[];
  /** A live event from the upstream subscription. */
  onEvent(result: unknown): Promise<void> | void;
  /** The upstream connection dropped. */
  dropped?(): void;
  /** Resubscribed after a drop: fetch and emit what was missed. */
  backfill?(): Promise<void>;
  /** The stream ends (its last client left). */
  stop?(): void;
}
