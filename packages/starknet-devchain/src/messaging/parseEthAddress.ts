/** Parsing of the L1 values the postman methods take. */
import { invalidParams } from '../errors.js';

/**
 * An Ethereum address: 0x and 1 to 40 hex digits (a felt-style short form is accepted), as a number.
 *
 * @example
 * parseEthAddress('0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', 'l1_contract_address'); // 0xe7f1…n
 */
export function parseEthAddress(value: unknown, field: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,40}$/.test(value)) {
    throw invalidParams(`${field}: expected an Ethereum address (0x and up to 40 hex digits)`);
  }
  return BigInt(value);
}

/**
 * An L1 transaction hash: 0x and 1 to 64 hex digits, as a number.
 *
 * @example
 * parseL1TransactionHash('0x000abc123', 'l1_transaction_hash'); // 0xabc123n
 */
export function parseL1TransactionHash(value: unknown, field: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw invalidParams(`${field}: expected an L1 transaction hash (0x and up to 64 hex digits)`);
  }
  return BigInt(value);
}
