import { ARRAY_HANDLERS } from './libfuncs/arrayHandlers.js';
import { CIRCUIT_HANDLERS } from './libfuncs/circuitHandlers.js';
import { CORE_HANDLERS } from './libfuncs/coreHandlers.js';
import { DICT_HANDLERS } from './libfuncs/dictHandlers.js';
import { EC_HANDLERS } from './libfuncs/ecHandlers.js';
import { EXECUTION_INFO_HANDLERS } from './libfuncs/executionInfoHandlers.js';
import { FELT_HANDLERS } from './libfuncs/feltHandlers.js';
import { GAS_HANDLERS } from './libfuncs/gasHandlers.js';
import { HASH_STATE_HANDLERS } from './libfuncs/hashStateHandlers.js';
import { intHandlerFactory } from './libfuncs/intHandlers.js';
import { STARKNET_HANDLERS } from './libfuncs/starknetHandlers.js';
import type { HandlerFactory } from './types.js';

const TABLES = [
  CORE_HANDLERS,
  FELT_HANDLERS,
  ARRAY_HANDLERS,
  GAS_HANDLERS,
  DICT_HANDLERS,
  STARKNET_HANDLERS,
  EC_HANDLERS,
  EXECUTION_INFO_HANDLERS,
  CIRCUIT_HANDLERS,
  HASH_STATE_HANDLERS,
];

/** Generic libfuncs the interpreter runs itself instead of through a handler. */
export const INTERPRETER_LIBFUNCS: ReadonlySet<string> = new Set(['function_call', 'coupon_call']);

/**
 * The handler factory of a generic libfunc id, or undefined when the interpreter has none
 * (`function_call` and `coupon_call` are run by the interpreter itself and have none either).
 */
export function findHandlerFactory(genericId: string): HandlerFactory | undefined {
  for (const t of TABLES) {
    if (Object.hasOwn(t, genericId)) return t[genericId];
  }
  return intHandlerFactory(genericId);
}
