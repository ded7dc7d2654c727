import type { NetworkSettings } from '../config/types.js';
import type { UpstreamRpcError } from '../errors/GatewayError.js';
import type { FamilyHandler } from '../families/FamilyHandler.js';
import type { MethodTraits } from '../families/types.js';
import type { UpstreamVerdict } from '../upstream/classifyUpstreamError.js';
import type { BreakerState } from '../upstream/createCircuitBreaker.js';
import type { HttpUpstream, UpstreamAnswer } from '../upstream/createHttpUpstream.js';
import type { BlockRef } from '../upstream/requestedBlock.js';
import type { ScoreClass } from '../upstream/scoreClassOf.js';
import type { UpstreamTransportError } from '../upstream/UpstreamTransportError.js';
import type { WindowHealth } from './layers/availability/describeWindow.js';
import type { BudgetHealth } from './layers/budget/createUpstreamBudget.js';
import type { Member } from './members/createMember.js';

/** One method class's view of an upstream (see `scoreClassOf`). */
export interface ClassHealth {
  /** The routing score for this class (lower is better). */
  score: number;
  /** Latency EWMA and p95 of its answers of this class, ms. */
  latencyMs?: number;
  p95Ms?: number;
  errorRate: number;
  /** Latencies recorded (at most 128 kept). */
  samples: number;
}

/** What /health and /metrics read of one upstream: the background probe's last snapshot. */
export interface UpstreamHealth {
  name: string;
  /** Whether it takes traffic: its breaker is not open, its last probe answered, and it is on the network's chain. */
  healthy: boolean;
  /** `partner` for a failover partner. */
  role: 'primary' | 'partner';
  breaker: BreakerState;
  consecutiveFailures: number;
  /** The light class's latency EWMA and p95 (the probe's class), ms. */
  latencyMs?: number;
  p95Ms?: number;
  /** The light class's error rate. */
  errorRate: number;
  /** Its head (from the probe and from head answers), and how many blocks it is behind the best upstream. */
  head?: number;
  lag: number;
  /** The light class's routing score (lower is better). */
  score: number;
  /** Per method class: score, latency, p95, error rate. */
  classes: Record<ScoreClass, ClassHealth>;
  /** Methods it answered -32601 for (re-learned after a recovery, or after `capabilityTtlMs`). */
  lacks: string[];
  /** What it said at start and after each recovery: its chain id and client version. */
  chainId?: string;
  clientVersion?: string;
  /** Its chain id differs from the network's `chainId`: it takes no traffic. */
  wrongChain?: boolean;
  /** Starknet: its spec version (and so what it calls the pre-confirmed block). */
  specVersion?: string;
  lastProbeAt?: string;
  lastFailure?: string;
  /** The last probe's latency, ms. */
  lastLatencyMs?: number;
  /** Its request budget (`rateLimit`), when it has one. */
  budget?: BudgetHealth;
  /** The blocks it serves state for (block availability): configured, measured or taught by answers. */
  blocks?: WindowHealth;
  /** It lost `sitOutAfter` consensus disputes in a row: no traffic until `until`. */
  sittingOut?: { until: string; disputesLost: number };
}

/** What one forwarded call gives: the result, which upstream answered, and what it took. */
export interface Forwarded {
  result: unknown;
  upstream: string;
  failover?: 'partner' | undefined;
  /** Requests sent upstream for this answer (retries, hedges, failovers, partners); for a shared answer, the shared call's. */
  attempts?: number | undefined;
  /** The answer came from a call another request started (in-flight multiplexing). */
  multiplexed?: true | undefined;
  /** The call was answered in this many sub-requests (getLogs/getEvents splitting), when it was split. */
  split?: number | undefined;
}

/** Per-call options beyond the call itself. */
export interface ForwardOptions {
  /** Epoch ms by which the answer is needed: retries stop before it. */
  readonly deadline?: number | undefined;
  /** The call may go to a partner provider (the key's plan has failover protection and it asked). */
  readonly partners?: boolean | undefined;
  /** The client request's id, for the log lines of a failover that happens inside it. */
  readonly requestId?: string | undefined;
  /** The caller's caps on `eth_getLogs` (its plan's, else the network's): read by the split layer. */
  readonly logs?: LogsCaps | undefined;
}

/** A caller's caps on one `eth_getLogs` (`maxLogsBlockRange`, `maxLogsResults`). */
export interface LogsCaps {
  /** The widest block range it may ask for, both ends counted (absent: no cap). */
  readonly maxBlockRange?: number | undefined;
  /** The most logs one answer may hold (0: no cap). */
  readonly maxResults: number;
}

/** A network at run time: its settings, family, and upstreams. */
export interface Network {
  readonly settings: NetworkSettings;
  readonly family: FamilyHandler;
  readonly upstreams: readonly HttpUpstream[];
  /**
   * Sends one call to the best upstream (routing by health score per method class, breakers,
   * capabilities, heads), failing over, retrying and hedging reads as the network's policy says,
   * and says which upstream answered. With `raw`, a plain result may come back as RawJson text.
   * When `signal` aborts (the client went away), upstream requests are abandoned.
   */
  forward(
    method: string,
    params: unknown,
    policy: MethodTraits,
    raw?: boolean,
    signal?: AbortSignal,
    options?: ForwardOptions,
  ): Promise<Forwarded>;
  /**
   * Sends one call to the upstream named `upstream` only (a primary or a partner), for state
   * that lives on one node (an eth filter): no routing, failover, retry or hedge, but that
   * upstream's breaker, method timeout, scores and capabilities as for any call. Throws
   * `UPSTREAM_UNAVAILABLE` when the network has no such upstream (`data.reason`
   * `unknown-upstream`), when its breaker is open or it is on another chain (`circuit-open`), or
   * when it could not be reached (`connect`, `timeout`…); a JSON-RPC error it answered is thrown
   * as it is (`UpstreamRpcError`).
   *
   * @example
   * const { result } = await network.forwardTo('anvil-2', 'eth_getFilterChanges', ['0x1f'], ethMethods.eth_getFilterChanges);
   */
  forwardTo(
    upstream: string,
    method: string,
    params: unknown,
    policy: MethodTraits,
    raw?: boolean,
    signal?: AbortSignal,
  ): Promise<Forwarded>;
  /** WebSocket URLs of the upstreams that have one, best first (for subscriptions). */
  wsUpstreamUrl(): string | undefined;
  /** The background probe's last snapshot of every upstream (no upstream traffic). */
  health(): UpstreamHealth[];
  /** Failovers so far: answers from another upstream than the preferred one, and from partners. */
  failovers(): { upstream: number; partner: number };
  /** What the network's layers counted so far (multiplexed calls, budget waits…), for /metrics. */
  counters(): NetworkCounters;
  /** The highest head a head answer (`eth_blockNumber`, the latest block) has shown a client. */
  servedHead(): number | undefined;
  /** Runs one probe round now (tests, and the first round at start). */
  probeNow(): Promise<void>;
  /** Stops the background probe and closes the partners' connections (the primaries are the caller's). */
  close(): Promise<void>;
}

/** What a network's layers counted since start. */
export interface NetworkCounters {
  /** Calls answered (with a result or an error) by a call another request started (in-flight multiplexing). */
  readonly multiplexed: number;
  /** Calls that waited because every upstream that could take them was at its budget (`rateLimit`). */
  readonly budgetWaits: number;
  /** Calls answered -32005 because no upstream had room in its budget before their deadline. */
  readonly budgetExhausted: number;
  /** Consensus calls whose participants did not agree (whatever `onDispute` then did). */
  readonly consensusDisputes: number;
  /** Times an upstream was sent to sit out for losing consensus disputes. */
  readonly consensusSitOuts: number;
}

/**
 * One call as the layers see it: what it is, what its answers are checked against, and what it
 * took so far. Built once per `forward`; layers read it and may count on it (`attempts`).
 */
export interface NetworkCall {
  /** The method as the upstream gets it. */
  readonly method: string;
  readonly params: unknown;
  readonly traits: MethodTraits;
  /** The score class of the method (`scoreClassOf`). */
  readonly cls: ScoreClass;
  /** The block the call names (`requestedBlock`). */
  readonly requested: BlockRef | undefined;
  /** A plain result may come back as RawJson text. */
  readonly raw: boolean;
  /** Aborted when every client waiting for it went away (the multiplex layer may put its own). */
  signal: AbortSignal | undefined;
  options: ForwardOptions | undefined;
  /** Requests sent upstream so far for this call (the breaker layer counts them). */
  attempts: number;
}

/** The answer of one attempt on one upstream (`by`), classified. */
export type Attempt =
  | { readonly ok: true; readonly by: Member; readonly answer: UpstreamAnswer & { error?: undefined } }
  | {
      readonly ok: false;
      readonly by: Member;
      readonly verdict: UpstreamVerdict;
      readonly err: UpstreamTransportError | UpstreamRpcError;
    };

/** A call-level step: the whole call in, its answer out (throws the client's error). */
export type Forward = (call: NetworkCall) => Promise<Forwarded>;

/**
 * A call-level layer (multiplex, split, consensus…): wraps the rest of the chain. It may answer
 * itself, call `next` once, several times (sub-ranges, participants) or share one call among
 * several callers.
 */
export type CallLayer = (next: Forward) => Forward;

/**
 * Sends one call to one upstream and gives its raw answer; throws `UpstreamTransportError` (the
 * node could not be reached or answered garbage), `ClientGoneError` when `signal` aborted.
 */
export type Send = (m: Member, call: NetworkCall, signal: AbortSignal | undefined) => Promise<UpstreamAnswer>;

/** An attempt-level layer (per upstream, below the breaker): wraps the send to one upstream. */
export type SendLayer = (next: Send) => Send;

/** What the primaries' route gives: an answer, or the error for the client and whether partners may try. */
export type RouteOutcome =
  | { readonly ok: true; readonly forwarded: Forwarded }
  | {
      readonly ok: false;
      /** What the client gets when no partner answers. */
      readonly error: Error;
      /** Every primary failed or is open, and none answered that it lacks the method or the data. */
      readonly partnersMayTry: boolean;
      /** The upstream that failed first, and why (for the failover log line). */
      readonly firstFailed: { readonly m: Member; readonly reason: string } | undefined;
      /** The upstream routing would have asked first. */
      readonly preferred: Member | undefined;
    };

/** The primaries' route of one call: select → retry → hedge → breaker → send. */
export type Route = (call: NetworkCall) => Promise<RouteOutcome>;

/** Failovers counted so far (mutable: the layers count into it). */
export interface FailoverCounts {
  /** Answers from another upstream than the preferred one. */
  upstream: number;
  /** Answers from a failover partner. */
  partner: number;
}
