import { GatewayError } from '../../errors/GatewayError.js';
import type { FamilyHandler } from '../FamilyHandler.js';
import type { MethodPolicy } from '../types.js';
import { validatePositionalParams } from '../validatePositionalParams.js';
import { ETH_DEV_NAMESPACES, ethDevMethod, ethMethods } from './ethMethods.js';

const table: Readonly<Record<string, MethodPolicy>> = ethMethods;

/**
 * The Ethereum family: positional params checked against {@link ethMethods}; dev-chain
 * namespaces (anvil_*, evm_*) pass through on dev networks only.
 */
export const ethFamily: FamilyHandler = {
  family: 'eth',
  probeMethod: 'eth_blockNumber',
  prepare(request, ctx) {
    const { method } = request;
    let policy = Object.hasOwn(table, method) ? table[method] : undefined;
    if (policy === undefined && ETH_DEV_NAMESPACES.some((ns) => method.startsWith(ns))) {
      if (!ctx.dev) {
        throw new GatewayError('METHOD_NOT_FOUND', `method ${method} is only available on dev networks`);
      }
      policy = ethDevMethod;
    }
    if (policy === undefined) {
      throw new GatewayError('METHOD_NOT_FOUND', `the method ${method} does not exist/is not available`);
    }
    if (policy.devOnly && !ctx.dev) {
      throw new GatewayError('METHOD_NOT_FOUND', `method ${method} is only available on dev networks`);
    }
    if (policy.wsOnly && ctx.transport !== 'ws') {
      throw new GatewayError('METHOD_NOT_FOUND', `method ${method} is only available over WebSocket (/ws/v3/<key>)`);
    }
    const clientParams = request.params === undefined ? [] : request.params;
    const upstreamParams = validatePositionalParams(method, policy, clientParams);
    const reroute = policy.reroute?.(upstreamParams);
    if (reroute)
      return { policy, upstreamMethod: reroute.method, upstreamParams: reroute.params, finish: reroute.finish };
    return { policy, upstreamMethod: method, upstreamParams, finish: policy.normalizer?.(clientParams as unknown[]) };
  },
};
