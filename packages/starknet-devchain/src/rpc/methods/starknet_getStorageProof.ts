import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelts } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/**
 * starknet_getStorageProof: the dev chain keeps no Merkle-Patricia tries to prove against, so
 * after checking the params and the block it answers STORAGE_PROOF_NOT_SUPPORTED (42), the spec's
 * error for a node that cannot prove at that block.
 */
export function starknet_getStorageProof(ctx: MethodContext, p: Params): never {
  ctx.node.chain.resolve(parseBlockId(required(p, 'block_id')));
  if (p.class_hashes != null) parseFelts(p.class_hashes, 'class_hashes');
  if (p.contract_addresses != null) parseFelts(p.contract_addresses, 'contract_addresses');
  if (p.contracts_storage_keys != null && !Array.isArray(p.contracts_storage_keys)) {
    parseFelts(p.contracts_storage_keys, 'contracts_storage_keys');
  }
  throw new DevchainError(ErrorCode.STORAGE_PROOF_NOT_SUPPORTED, {
    data: 'the dev chain keeps no state tries: storage proofs are not available on it',
  });
}
