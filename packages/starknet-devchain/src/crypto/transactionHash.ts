/** Transaction hashes as the protocol computes them, for every supported version. */
import type { Tx } from '../chain/transaction.js';
import { shortString } from '../felt.js';
import { pedersenOnElements, poseidon } from './hashes.js';

const PREFIX = {
  INVOKE: shortString('invoke'),
  DECLARE: shortString('declare'),
  DEPLOY_ACCOUNT: shortString('deploy_account'),
  L1_HANDLER: shortString('l1_handler'),
} as const;

const L1_GAS = shortString('L1_GAS');
const L2_GAS = shortString('L2_GAS');
const L1_DATA = shortString('L1_DATA');

function encodeBound(name: bigint, b: { max_amount: bigint; max_price_per_unit: bigint }): bigint {
  return (name << 192n) + (b.max_amount << 128n) + b.max_price_per_unit;
}

const da = (m: 'L1' | 'L2') => (m === 'L1' ? 0n : 1n);

/**
 * The hash of a transaction on chain `chainId`: Poseidon for v3 (three resource bounds, or two for
 * the older shape), Pedersen `compute_hash_on_elements` for v1/v2 and L1 handlers.
 */
export function transactionHash(tx: Tx, chainId: bigint): bigint {
  if (tx.type === 'L1_HANDLER') {
    return pedersenOnElements([
      PREFIX.L1_HANDLER,
      0n,
      tx.sender,
      tx.entryPointSelector ?? 0n,
      pedersenOnElements(tx.calldata),
      0n,
      chainId,
      tx.nonce,
    ]);
  }
  if (tx.baseVersion === 3) {
    const rb = tx.resourceBounds!;
    const bounds = [encodeBound(L1_GAS, rb.l1_gas), encodeBound(L2_GAS, rb.l2_gas)];
    if (rb.l1_data_gas) bounds.push(encodeBound(L1_DATA, rb.l1_data_gas));
    const common = [
      PREFIX[tx.type],
      tx.version,
      tx.sender,
      poseidon([tx.tip, ...bounds]),
      poseidon(tx.paymasterData),
      chainId,
      tx.nonce,
      (da(tx.nonceDA) << 32n) + da(tx.feeDA),
    ];
    switch (tx.type) {
      case 'INVOKE':
        return poseidon([...common, poseidon(tx.accountDeploymentData), poseidon(tx.calldata)]);
      case 'DEPLOY_ACCOUNT':
        return poseidon([...common, poseidon(tx.calldata), tx.classHash!, tx.salt!]);
      default:
        return poseidon([...common, poseidon(tx.accountDeploymentData), tx.classHash!, tx.compiledClassHash!]);
    }
  }
  const maxFee = tx.maxFee ?? 0n;
  switch (tx.type) {
    case 'INVOKE':
      return pedersenOnElements([
        PREFIX.INVOKE,
        tx.version,
        tx.sender,
        0n,
        pedersenOnElements(tx.calldata),
        maxFee,
        chainId,
        tx.nonce,
      ]);
    case 'DEPLOY_ACCOUNT':
      return pedersenOnElements([
        PREFIX.DEPLOY_ACCOUNT,
        tx.version,
        tx.sender,
        0n,
        pedersenOnElements([tx.classHash!, tx.salt!, ...tx.calldata]),
        maxFee,
        chainId,
        tx.nonce,
      ]);
    default:
      return pedersenOnElements([
        PREFIX.DECLARE,
        tx.version,
        tx.sender,
        0n,
        pedersenOnElements([tx.classHash!]),
        maxFee,
        chainId,
        tx.nonce,
        tx.compiledClassHash!,
      ]);
  }
}
