import { ethBlockParam } from '../families/eth/ethBlockParam.js';
import { BLOCK_TAGS } from '../families/eth/params.js';

/** The block a call names: a height, a tag (`latest`, `pending`, `safe`, `finalized`, `earliest`), or a hash. */
export type BlockRef =
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'tag'; readonly tag: string }
  | { readonly kind: 'hash' };

const QUANTITY = /^0x[0-9a-fA-F]{1,13}$/;

function ethRef(v: unknown): BlockRef | undefined {
  if (typeof v === 'string') {
    if (QUANTITY.test(v)) return { kind: 'number', number: Number.parseInt(v, 16) };
    if (BLOCK_TAGS.has(v)) return { kind: 'tag', tag: v };
    return undefined;
  }
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    if (typeof o.blockHash === 'string') return { kind: 'hash' };
    if (o.blockNumber !== undefined) return ethRef(o.blockNumber);
  }
  return undefined;
}

/** The highest of two references: a tag counts as above any height (it follows the head). */
function highest(a: BlockRef | undefined, b: BlockRef | undefined): BlockRef | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a.kind === 'number' && b.kind === 'number') return a.number >= b.number ? a : b;
  if (a.kind === 'tag' && a.tag !== 'earliest') return a;
  if (b.kind === 'tag' && b.tag !== 'earliest') return b;
  return a.kind === 'number' ? a : b;
}

function starknetRef(v: unknown): BlockRef | undefined {
  if (typeof v === 'string') return { kind: 'tag', tag: v === 'pre_confirmed' ? 'pending' : v };
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    if (typeof o.block_number === 'number' && Number.isSafeInteger(o.block_number))
      return { kind: 'number', number: o.block_number };
    if (typeof o.block_hash === 'string') return { kind: 'hash' };
  }
  return undefined;
}

/**
 * The block an upstream call names, for deciding whether "header not found" is the node's
 * trouble or the client's question: Ethereum calls by the position of their block parameter
 * in `ethMethods` (EIP-1898 objects too; for a log filter the higher of `fromBlock` and
 * `toBlock`, or its `blockHash`); Starknet calls by their named `block_id` (the params
 * `createStarknetFamily` sends). Undefined when the call names no block.
 *
 * @example
 * requestedBlock('eth_getBalance', ['0xab…', '0xffffffff']); // { kind: 'number', number: 4294967295 }
 * requestedBlock('eth_call', [{ to: '0x…' }, 'latest']);     // { kind: 'tag', tag: 'latest' }
 * requestedBlock('starknet_getNonce', { block_id: { block_number: 7 }, contract_address: '0x1' }); // { kind: 'number', number: 7 }
 */
export function requestedBlock(method: string, params: unknown): BlockRef | undefined {
  if (method.startsWith('starknet_')) {
    if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
    const id = (params as Record<string, unknown>).block_id;
    return id === undefined ? undefined : starknetRef(id);
  }
  const where = ethBlockParam(method);
  if (where === undefined || !Array.isArray(params)) return undefined;
  const v: unknown = params[where.at];
  if (!where.filter) return ethRef(v);
  if (typeof v !== 'object' || v === null) return undefined;
  const f = v as Record<string, unknown>;
  if (typeof f.blockHash === 'string') return { kind: 'hash' };
  // a filter without bounds runs to latest
  return highest(ethRef(f.fromBlock ?? 'latest'), ethRef(f.toBlock ?? 'latest'));
}
