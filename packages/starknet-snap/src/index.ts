import { MethodNotFoundError, type OnRpcRequestHandler } from '@metamask/snaps-sdk';
import { getNetwork } from './config';
import { assertChainId } from './lib/chain';
import { asParams } from './lib/params';
import { isMethodName, METHODS, type MethodSpec } from './methods';

/**
 * Entry point for `wallet_invokeSnap`: validates the method and `chainId`, checks the node serves that chain,
 * then runs the method.
 *
 * @param args - The request and its origin.
 * @returns The method's JSON result.
 */
export const onRpcRequest: OnRpcRequestHandler = async ({ origin, request }) => {
  const { method } = request;
  if (!isMethodName(method)) {
    throw new MethodNotFoundError(
      `Unknown method ${method}; this snap offers ${Object.keys(METHODS).join(', ')}`,
    ) as unknown as Error;
  }
  const params = asParams(request.params);
  const net = getNetwork(params.chainId);
  const spec: MethodSpec = METHODS[method];
  const usesChain = typeof spec.usesChain === 'function' ? spec.usesChain(params) : spec.usesChain;
  if (usesChain) await assertChainId(net);
  return (await spec.handler(params, net, { origin })) as never;
};
