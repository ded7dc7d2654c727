/**
 * What a forked chain cannot answer itself goes to its origin: a request about the origin's blocks (a block id at
 * or before the fork block) or transactions (mined at or before it) that failed here with BLOCK_NOT_FOUND or
 * TXN_HASH_NOT_FOUND is sent to the origin as it is. Blocks and transactions the origin made after the fork block
 * are not this chain's: their error stands.
 */
import { DevchainError, ErrorCode, invalidParams } from '../errors.js';
import type { Params } from '../rpc/types.js';
import type { ForkOrigin } from './ForkOrigin.js';

/** Methods about one transaction, by hash. */
const TRANSACTION_METHODS = new Set([
  'starknet_getTransactionByHash',
  'starknet_getTransactionReceipt',
  'starknet_getTransactionStatus',
  'starknet_traceTransaction',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `error` of `method` may be answered by the origin instead. */
export function isForwardable(method: string, error: unknown): error is DevchainError {
  if (!(error instanceof DevchainError) || !method.startsWith('starknet_')) return false;
  return (
    error.code === ErrorCode.BLOCK_NOT_FOUND ||
    (error.code === ErrorCode.TXN_HASH_NOT_FOUND && TRANSACTION_METHODS.has(method))
  );
}

/**
 * The origin's block number of a block id that names a block at or before the fork block (a number, or a hash the
 * origin knows), else undefined.
 */
async function originBlock(origin: ForkOrigin, id: unknown): Promise<number | undefined> {
  if (!isObject(id)) return undefined;
  let n: unknown = id.block_number;
  if (typeof id.block_hash === 'string') {
    const block = await origin
      .request('starknet_getBlockWithTxHashes', { block_id: { block_hash: id.block_hash } })
      .catch(() => undefined);
    n = isObject(block) ? block.block_number : undefined;
  }
  return typeof n === 'number' && n >= 0 && n <= origin.point.blockNumber ? n : undefined;
}

/**
 * Answers `method(params)`, which failed here with `error` (see {@link isForwardable}), from the origin when it is
 * about the origin's part of the chain; rethrows `error` otherwise. getEvents is forwarded when its whole range is at
 * or before the fork block; a range across the fork block is refused (-32602), split it at the fork block.
 *
 * @example
 * await forwardToOrigin(origin, 'starknet_getBlockWithTxHashes', { block_id: { block_number: 3 } }, error);
 */
export async function forwardToOrigin(
  origin: ForkOrigin,
  method: string,
  params: Params,
  error: DevchainError,
): Promise<unknown> {
  const fork = origin.point.blockNumber;
  if (error.code === ErrorCode.TXN_HASH_NOT_FOUND) {
    const receipt = await origin
      .request('starknet_getTransactionReceipt', { transaction_hash: params.transaction_hash })
      .catch(() => undefined);
    const n = isObject(receipt) ? receipt.block_number : undefined;
    if (typeof n === 'number' && n <= fork) return origin.request(method, params);
    throw error;
  }
  if (method === 'starknet_getEvents' && isObject(params.filter)) {
    const f = params.filter;
    const from = await originBlock(origin, f.from_block);
    if (from === undefined) throw error;
    const to = f.to_block === undefined ? undefined : await originBlock(origin, f.to_block);
    if (to === undefined) {
      throw invalidParams(
        `filter: the range crosses the fork block ${fork}: ask the origin's blocks (to_block up to ${fork}) and this chain's (from_block ${fork + 1}) apart`,
      );
    }
    return origin.request(method, {
      ...params,
      filter: { ...f, from_block: { block_number: from }, to_block: { block_number: to } },
    });
  }
  const n = await originBlock(origin, params.block_id);
  if (n === undefined) throw error;
  return origin.request(method, { ...params, block_id: { block_number: n } });
}
