import { starknetMethods } from '../families/starknet/starknetMethods.js';
import type { Network } from '../network/createNetwork.js';
import type { BlockReader } from './BlockReader.js';

/** A Starknet felt hash in one spelling (lowercase, no leading zeros), so `0x0ab` and `0xAB` meet. */
export function starknetHashTag(hash: string): string {
  try {
    return `0x${BigInt(hash).toString(16)}`;
  } catch {
    return hash.toLowerCase();
  }
}

/**
 * The head tracker's block reader for a Starknet network: `starknet_getBlockWithTxHashes` with
 * `latest`, `l1_accepted` (Starknet's final blocks: accepted on L1) or `{ block_number }`, through
 * the network's upstreams, 2 s at most per call. An upstream without the `l1_accepted` tag (before
 * spec 0.9) answers an error there: the tracker then knows no final height and nothing is kept as
 * final by height.
 */
export function starknetBlockReader(network: Network): BlockReader {
  const traits = starknetMethods.getBlockWithTxHashes;
  return async (at) => {
    const blockId = at === 'finalized' ? 'l1_accepted' : typeof at === 'number' ? { block_number: at } : at;
    const { result } = await network.forward(
      'starknet_getBlockWithTxHashes',
      { block_id: blockId },
      traits,
      false,
      AbortSignal.timeout(2_000),
    );
    if (result === null || typeof result !== 'object') return undefined;
    const b = result as { block_number?: unknown; block_hash?: unknown; parent_hash?: unknown };
    // a pre-confirmed block has neither hash nor number fixed yet
    if (typeof b.block_number !== 'number' || typeof b.block_hash !== 'string') return undefined;
    return {
      number: b.block_number,
      hash: starknetHashTag(b.block_hash),
      ...(typeof b.parent_hash === 'string' ? { parentHash: starknetHashTag(b.parent_hash) } : {}),
    };
  };
}
