import type { Param } from './eth/params.js';

/** What a method does, as far as caching, retries and limits are concerned. */
export type MethodKind = 'read' | 'write' | 'subscription' | 'filter';

/**
 * How a response may be cached: `never`; `immutable` (the answer never changes once it is
 * non-null, e.g. by hash); `by-block` (fixed once the block it names is final); `head`
 * (changes with every new block).
 */
export type CachePolicy = 'never' | 'immutable' | 'by-block' | 'head';

/** What every family's table says of a method: kind, credit cost, cacheability, availability. */
export interface MethodTraits {
  readonly kind: MethodKind;
  /** Credit cost charged per call (batch items are charged one by one). */
  readonly credits: number;
  readonly cache: CachePolicy;
  /** May be forwarded to a partner provider on outage (failover protection). */
  readonly forwardable?: boolean;
  /** Only available over WebSocket. */
  readonly wsOnly?: boolean;
  /** Only available on networks configured as dev networks. */
  readonly devOnly?: boolean;
}

/** A row of the eth table: the traits plus positional params and result handling. */
export interface MethodPolicy extends MethodTraits {
  /** Positional parameters in order. */
  readonly params: readonly Param[];
  /** How many leading params are required. */
  readonly required: number;
  /**
   * Serves the method with a different upstream call when the upstream cannot answer it
   * as asked (returns undefined to forward it unchanged). Gets the validated params.
   */
  readonly reroute?: (params: readonly unknown[]) => Reroute | undefined;
  /**
   * For the params the client sent, the function that adjusts the upstream's result (e.g.
   * the pending-block nulls), or undefined when the result passes unchanged (then it is
   * relayed as raw text, never parsed).
   */
  readonly normalizer?: (clientParams: readonly unknown[]) => ((result: unknown) => unknown) | undefined;
}

/** A different upstream call that answers a method, and how to turn its result into the answer. */
export interface Reroute {
  readonly method: string;
  readonly params: readonly unknown[];
  readonly finish: (result: unknown) => unknown;
}
