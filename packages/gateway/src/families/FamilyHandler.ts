import type { RpcRequest } from '../jsonrpc/types.js';
import type { MethodTraits } from './types.js';

/** What the gateway sends upstream for one client request, and how it finishes the answer. */
export interface PreparedCall {
  readonly policy: MethodTraits;
  readonly upstreamMethod: string;
  readonly upstreamParams: unknown;
  /** Turns the upstream result into the client's result; absent when it is passed on unchanged. */
  readonly finish?: ((result: unknown) => unknown) | undefined;
}

/** Where a request arrived. */
export interface CallContext {
  readonly transport: 'http' | 'ws';
  /** The network is a dev network (dev-chain methods allowed). */
  readonly dev: boolean;
}

/**
 * A JSON-RPC family (eth, starknet): resolves a client request against its method table,
 * validates params (throwing -32601/-32602 GatewayErrors) and prepares the upstream call.
 */
export interface FamilyHandler {
  readonly family: string;
  /** A cheap upstream method used to probe health. */
  readonly probeMethod: string;
  prepare(request: RpcRequest, ctx: CallContext): PreparedCall;
}
