/** Rendering of a transaction as the spec's TXN object. */
import type { ResourceBound, Tx } from '../chain/transaction.js';
import { toHex } from '../felt.js';

const boundHex = (b: ResourceBound | undefined) => ({
  max_amount: toHex(b?.max_amount ?? 0n),
  max_price_per_unit: toHex(b?.max_price_per_unit ?? 0n),
});

/** Render a transaction as the spec's TXN object (with its hash). */
export function toWireTransaction(tx: Tx, hash: bigint): Record<string, unknown> {
  const common: Record<string, unknown> = { transaction_hash: toHex(hash), type: tx.type, version: toHex(tx.version) };
  if (tx.type === 'L1_HANDLER') {
    return {
      ...common,
      nonce: toHex(tx.nonce),
      contract_address: toHex(tx.sender),
      entry_point_selector: toHex(tx.entryPointSelector ?? 0n),
      calldata: tx.calldata.map(toHex),
    };
  }
  const fee: Record<string, unknown> =
    tx.baseVersion === 3
      ? {
          resource_bounds: {
            l1_gas: boundHex(tx.resourceBounds?.l1_gas),
            l1_data_gas: boundHex(tx.resourceBounds?.l1_data_gas),
            l2_gas: boundHex(tx.resourceBounds?.l2_gas),
          },
          tip: toHex(tx.tip),
          paymaster_data: tx.paymasterData.map(toHex),
          nonce_data_availability_mode: tx.nonceDA,
          fee_data_availability_mode: tx.feeDA,
        }
      : { max_fee: toHex(tx.maxFee ?? 0n) };
  const sig = { signature: tx.signature.map(toHex), nonce: toHex(tx.nonce) };
  switch (tx.type) {
    case 'INVOKE':
      return {
        ...common,
        sender_address: toHex(tx.sender),
        calldata: tx.calldata.map(toHex),
        ...sig,
        ...fee,
        ...(tx.baseVersion === 3 ? { account_deployment_data: tx.accountDeploymentData.map(toHex) } : {}),
      };
    case 'DEPLOY_ACCOUNT':
      return {
        ...common,
        contract_address_salt: toHex(tx.salt ?? 0n),
        constructor_calldata: tx.calldata.map(toHex),
        class_hash: toHex(tx.classHash ?? 0n),
        ...sig,
        ...fee,
      };
    default:
      return {
        ...common,
        sender_address: toHex(tx.sender),
        class_hash: toHex(tx.classHash ?? 0n),
        compiled_class_hash: toHex(tx.compiledClassHash ?? 0n),
        ...sig,
        ...fee,
        ...(tx.baseVersion === 3 ? { account_deployment_data: tx.accountDeploymentData.map(toHex) } : {}),
      };
  }
}
