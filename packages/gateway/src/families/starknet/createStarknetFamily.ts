import type { StarknetSpecMethodName } from '@nodegate/starknet-spec';
import { GatewayError } from '../../errors/GatewayError.js';
import type { RpcRequest } from '../../jsonrpc/types.js';
import type { FamilyHandler, PreparedCall } from '../FamilyHandler.js';
import { requireSpecFields } from './requireSpecFields.js';
import { devParams, starknetDevMethods, unlistedDevMethod } from './starknetDevMethods.js';
import { checkBlockId, invalid } from './starknetParams.js';
import { type L1Networks, preparePostmanCall } from './starknetPostmanMethods.js';
import { type StarknetLimits, type StarknetMethod, starknetMethods } from './starknetMethods.js';

/** What the upstream calls the pre-confirmed block: `pre_confirmed` (spec >= 0.9) or `pending`. */
export type PendingTag = 'pre_confirmed' | 'pending';

const table: Readonly<Record<string, StarknetMethod>> = starknetMethods;

/**
 * The Starknet family: `stk_<name>` (seed shapes) and `starknet_<name>` (spec shapes) for every
 * spec 0.10 method, forwarded upstream as `starknet_<name>` with named params. Positional
 * params are read in the spec's order. The block tag `pending` (and `pre_confirmed`) is sent
 * as whatever the upstream calls the pre-confirmed block. `devnet_*` pass on dev networks only, checked by the
 * dev methods table (`starknetDevMethods.ts`), and are refused to a key with a contract allowlist.
 */
export function createStarknetFamily(
  options: StarknetLimits & {
    pendingTag: PendingTag;
    /** The Ethereum dev networks a dev chain may use as L1 (`devnet_postmanLoad`; see `starknetPostmanMethods.ts`). */
    l1Networks?: L1Networks;
  },
): FamilyHandler {
  const l1Networks: L1Networks = options.l1Networks ?? new Map();
  const limits: StarknetLimits = { maxChunkSize: options.maxChunkSize };
  const mapTag = (v: unknown) => (v === 'pending' || v === 'pre_confirmed' ? options.pendingTag : v);
  return {
    family: 'starknet',
    probeMethod: 'starknet_chainId',
    prepare(request: RpcRequest, ctx): PreparedCall {
      const { method } = request;
      if (method.startsWith('devnet_')) {
        if (!ctx.dev) throw new GatewayError('METHOD_NOT_FOUND', `method ${method} is only available on dev networks`);
        const postman = preparePostmanCall(method, request.params, l1Networks);
        if (postman) return postman;
        const dev = Object.hasOwn(starknetDevMethods, method) ? starknetDevMethods[method]! : unlistedDevMethod;
        return { policy: dev, upstreamMethod: method, upstreamParams: devParams(method, dev, request.params) };
      }
      const seed = method.startsWith('stk_');
      const name = seed ? method.slice(4) : method.startsWith('starknet_') ? method.slice(9) : undefined;
      const row = name !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
      if (name === undefined || row === undefined) {
        throw new GatewayError('METHOD_NOT_FOUND', `the method ${method} does not exist/is not available`);
      }
      if (row.wsOnly && ctx.transport !== 'ws') {
        throw new GatewayError('METHOD_NOT_FOUND', `method ${method} is only available over WebSocket (/ws/v3/<key>)`);
      }
      const params = toNamed(method, row, request.params);
      requireSpecFields(name as StarknetSpecMethodName, params);
      // every block id has one of the spec's three shapes, whichever method names it
      if (params.block_id !== undefined) checkBlockId(params.block_id, 'block_id');
      row.validate?.(params, limits);
      if (params.block_id !== undefined) params.block_id = mapTag(params.block_id);
      if (name === 'getEvents' && typeof params.filter === 'object' && params.filter !== null) {
        const f = params.filter as Record<string, unknown>;
        params.filter = { ...f, from_block: mapTag(f.from_block), to_block: mapTag(f.to_block) };
      }
      return {
        policy: row,
        upstreamMethod: `starknet_${name}`,
        upstreamParams: params,
        finish: seed ? row.seedShape : undefined,
      };
    },
  };
}

/** Named params (a copy), from a named object or a positional array in the spec's order. */
function toNamed(method: string, row: StarknetMethod, raw: unknown): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  if (raw === undefined) {
    // no params
  } else if (Array.isArray(raw)) {
    if (raw.length > row.params.length) {
      throw new GatewayError(
        'INVALID_PARAMS',
        `invalid params: ${method} takes at most ${row.params.length} params, got ${raw.length}`,
      );
    }
    raw.forEach((v, i) => {
      named[row.params[i]!] = v;
    });
  } else if (typeof raw === 'object' && raw !== null) {
    for (const [k, v] of Object.entries(raw)) {
      if (!row.params.includes(k)) {
        throw new GatewayError(
          'INVALID_PARAMS',
          `invalid params: ${method} has no param "${k}"${row.params.length ? ` (it takes ${row.params.join(', ')})` : ''}`,
        );
      }
      named[k] = v;
    }
  }
  for (let i = 0; i < row.required; i++) {
    const p = row.params[i]!;
    if (named[p] === undefined) throw invalid(p, 'a value (required)', undefined);
  }
  return named;
}
