import { DevchainError, ErrorCode } from '../../errors.js';

/** starknet_estimateMessageFee: L1→L2 message fee estimation is not supported by the dev chain. */
export function starknet_estimateMessageFee(): never {
  throw new DevchainError(ErrorCode.UNEXPECTED_ERROR, {
    data: 'starknet_estimateMessageFee is not supported: the dev chain has no L1 (use devnet_mint to fund accounts)',
  });
}
