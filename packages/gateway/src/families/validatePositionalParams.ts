import { GatewayError } from '../errors/GatewayError.js';
import type { MethodPolicy } from './types.js';

/**
 * Checks positional params against a method's table row and returns the params to forward
 * (normalised by each parser). Absent params count as `[]`.
 *
 * @example
 * validatePositionalParams('eth_getBalance', ethMethods.eth_getBalance, ['0x…20 bytes', 'latest'])
 */
export function validatePositionalParams(method: string, policy: MethodPolicy, params: unknown): unknown[] {
  const list = params === undefined ? [] : params;
  if (!Array.isArray(list)) {
    throw new GatewayError('INVALID_PARAMS', `invalid params: ${method} takes positional params (a JSON array)`);
  }
  if (policy.params.length === 0 && policy.required === 0 && policy.devOnly && list.length > 0) return list;
  if (list.length > policy.params.length) {
    throw new GatewayError(
      'INVALID_PARAMS',
      `invalid params: ${method} takes at most ${policy.params.length} params, got ${list.length}`,
    );
  }
  const out: unknown[] = [];
  for (let i = 0; i < list.length; i++) {
    const spec = policy.params[i]!;
    const value = list[i];
    if (value === undefined || (value === null && i >= policy.required)) {
      out.push(value ?? null);
      continue;
    }
    out.push(spec.parse(value, `params[${i}] (${spec.name})`));
  }
  for (let i = 0; i < policy.required; i++) {
    if (list[i] === null || list[i] === undefined) {
      throw new GatewayError(
        'INVALID_PARAMS',
        `invalid params: ${method} is missing required param ${i} (${policy.params[i]!.name})`,
      );
    }
  }
  return out;
}
