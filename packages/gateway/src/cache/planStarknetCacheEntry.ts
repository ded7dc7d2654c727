import type { MethodTraits } from '../families/types.js';
import type { CachePlan } from './planCacheEntry.js';
import { TTL } from './planCacheEntry.js';

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` give one key. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
const FINAL = { ttlMs: TTL.final } as const;

/**
 * Decides for a Starknet call whether the cache may answer it. Starknet has no `finalized` tag
 * and no head tracker here, so only answers that say themselves they cannot change are kept:
 * classes by class hash (`getClass`, `getCompiledCasm`: a class hash names its content, forever
 * once declared; an undeclared class is an error, never kept), `chainId` (not `specVersion`: the
 * upstreams of one network may run different versions), and
 * receipts and blocks whose status is `ACCEPTED_ON_L1` (final on L1; the dev chain never reaches
 * it, so there they are not kept). Anything pending, `PRE_CONFIRMED`, `ACCEPTED_ON_L2`, null or
 * an error is never kept; neither are `head` calls (no head tracker for Starknet yet).
 * `upstreamMethod`/`upstreamParams` are the call as prepared (named params, tags mapped), so
 * positional and named forms share an entry; `clientMethod` is in the key because `stk_` and
 * `starknet_` names answer in different shapes. The key never holds the API key.
 */
export function planStarknetCacheEntry(
  network: string,
  clientMethod: string,
  upstreamMethod: string,
  upstreamParams: unknown,
  traits: MethodTraits,
  epoch: number,
): CachePlan | undefined {
  if (traits.kind !== 'read' || traits.cache === 'never') return undefined;
  const name = upstreamMethod.startsWith('starknet_') ? upstreamMethod.slice(9) : undefined;
  if (name === undefined) return undefined;
  const key = `${network}|${epoch}|${clientMethod}|${canonical(upstreamParams ?? {})}`;
  switch (name) {
    case 'chainId':
      return { key, keep: (result) => (typeof result === 'string' ? FINAL : undefined) };
    case 'getClass':
    case 'getCompiledCasm':
      return { key, keep: (result) => (isObject(result) ? FINAL : undefined) };
    case 'getTransactionReceipt':
      return {
        key,
        keep: (result) => (isObject(result) && result.finality_status === 'ACCEPTED_ON_L1' ? FINAL : undefined),
      };
    case 'getBlockWithTxHashes':
    case 'getBlockWithTxs':
    case 'getBlockWithReceipts': {
      // only a block named by hash or number: a tag (latest, pre_confirmed, l1_accepted) moves
      const id = isObject(upstreamParams) ? upstreamParams.block_id : undefined;
      if (!isObject(id)) return undefined;
      return { key, keep: (result) => (isObject(result) && result.status === 'ACCEPTED_ON_L1' ? FINAL : undefined) };
    }
    default:
      return undefined;
  }
}
