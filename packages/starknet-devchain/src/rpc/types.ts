/** Types shared by the JSON-RPC method handlers. */
import type { DevchainNode } from '../devchain.js';
import { invalidParams } from '../errors.js';

/** What a handler receives besides its params. */
export interface MethodContext {
  node: DevchainNode;
}

/** Named params (positional arrays are mapped to names by the method table). */
export type Params = Record<string, unknown>;

/** A method handler. */
export type Handler = (ctx: MethodContext, params: Params) => unknown;

/** A required param or INVALID_PARAMS. */
export function required(params: Params, name: string): unknown {
  const v = params[name];
  if (v === undefined) throw invalidParams(`missing param ${name}`);
  return v;
}
