import type { Param } from './eth/params.js';

/** What a method does, as far as caching, retries and limits are concerned. */
export type MethodKind = 'read' | 'write' | 'subscription' | 'filter';

/**
 * How a response may be cached: `never`; `immutable` (the answer never changes once it is
 * non-null, e.g. by hash); `by-block` (fixed once the block it names is final); `head`
 * (changes with every new block).
 */
export type CachePolicy = 'never' | 'immutable' | 'by-block' | 'head';

/** What an eth filter holds: logs (`eth_newFilter`), new block hashes, or pending transaction hashes. */
export type FilterKind = 'logs' | 'blocks' | 'transactions';

/**
 * What a filter method does with the gateway's filter registry (`families/eth/filters/`):
 * `install` makes a filter of `kind` on one upstream and answers the gateway's own id for it;
 * `read` polls or reads the filter the id names; `uninstall` removes it.
 */
export type FilterRole =
  | { readonly op: 'install'; readonly kind: FilterKind }
  | { readonly op: 'read' }
  | { readonly op: 'uninstall' };

/** What every family's table says of a method: kind, credit cost, cacheability, availability. */
export interface MethodTraits {
  readonly kind: MethodKind;
  /** Credit cost charged per call (batch items are charged one by one). */
  readonly credits: number;
  readonly cache: CachePolicy;
  /**
   * A read that makes a node work (logs over a range, a block's receipts, traces, simulations,
   * estimates): its upstream latency is scored apart from the light reads (`scoreClassOf`).
   */
  readonly heavy?: true;
  /**
   * Identical calls in flight at the same time may share one upstream call (in-flight
   * multiplexing, `network/layers/multiplex/`): a deterministic read. Never a write, a filter, a
   * subscription or a dev method. The tables derive it (`withMultiplexable`); a row may say
   * `false` for a read whose answer differs per caller.
   */
  readonly multiplexable?: boolean;
  /** May be forwarded to a partner provider on outage (failover protection). */
  readonly forwardable?: boolean;
  /** Only available over WebSocket. */
  readonly wsOnly?: boolean;
  /** Only available on networks configured as dev networks. */
  readonly devOnly?: boolean;
  /**
   * The contract addresses a call names, for the key's contract allowlist (`contractsAllowed`):
   * every address anywhere in its params that it reads or runs code at (eth: built from the
   * row's sites by `contractsAt`, state and block overrides included; Starknet: the simulated
   * transactions' senders and multicall targets too). Absent on rows that never name a
   * contract. Returns `undefined` when this call names none, and `[]` when it can reach every
   * contract: eth_getLogs without an address filter, eth_call without `to`, overridden code or
   * storage, a Starknet DECLARE or DEPLOY_ACCOUNT, or params of an unexpected shape, so that a
   * restricted key is refused rather than crashed. Never throws.
   *
   * The params are the family's own: the eth table takes the positional array (as the client
   * sent it, or as validated: addresses are forwarded unchanged); the Starknet table takes the
   * named params object `createStarknetFamily` builds (`PreparedCall.upstreamParams`), and also
   * accepts the positional array in the spec's order. Call it as
   * `call.policy.contracts?.(call.upstreamParams)` after `prepare`.
   *
   * @example
   * ethMethods.eth_getLogs.contracts([{ address: ['0xa…', '0xb…'] }]) // ['0xa…', '0xb…']
   * ethMethods.eth_getLogs.contracts([{ fromBlock: '0x1' }])          // [] (every contract)
   */
  readonly contracts?: (params: unknown) => readonly string[] | undefined;
  /**
   * A method on filters the gateway registers (`kind: 'filter'`): never sent upstream as the
   * client wrote it, but through the filter registry, which keeps each filter's key and upstream.
   */
  readonly filter?: FilterRole;
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
