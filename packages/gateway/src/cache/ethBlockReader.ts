import { ethMethods } from '../families/eth/ethMethods.js';
import type { Network } from '../network/createNetwork.js';
import type { BlockReader } from './BlockReader.js';
import { readBlock } from './readBlock.js';

/**
 * The head tracker's block reader for an Ethereum network: `eth_getBlockByNumber` with `latest`,
 * `finalized` or the height in hex, through the network's upstreams, 2 s at most per call; the block
 * as `readBlock` reads it (hashes in lower case, the spelling of the cache's block tags).
 */
export function ethBlockReader(network: Network): BlockReader {
  const traits = ethMethods.eth_getBlockByNumber;
  return async (at) => {
    const tag = typeof at === 'number' ? `0x${at.toString(16)}` : at;
    const { result } = await network.forward(
      'eth_getBlockByNumber',
      [tag, false],
      traits,
      false,
      AbortSignal.timeout(2_000),
    );
    return readBlock('eth', result);
  };
}
