import { GatewayError } from '../errors/GatewayError.js';

/**
 * The answer when every upstream of `network` lacks `method` (each answered -32601): -32601
 * naming the method, not "every upstream is failing".
 *
 * @example
 * throw methodNotFound('mainnet', 'trace_block');
 */
export function methodNotFound(network: string, method: string): GatewayError {
  return new GatewayError('METHOD_NOT_FOUND', `the method ${method} does not exist/is not available`, {
    data: { network, reason: 'no upstream serves it' },
  });
}
