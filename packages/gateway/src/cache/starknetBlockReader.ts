import { starknetMethods } from '../families/starknet/starknetMethods.js';
import type { Network } from '../network/createNetwork.js';
import type { BlockReader } from './BlockReader.js';
import { readBlock } from './readBlock.js';

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
    // a pre-confirmed block has neither hash nor number fixed yet: undefined
    return readBlock('starknet', result);
  };
}
