/** Contract address derivation, as the deploy syscall computes it. */
import { shortString } from '../felt.js';
import { pedersenOnElements } from './hashes.js';

const PREFIX = shortString('STARKNET_CONTRACT_ADDRESS');
const ADDR_BOUND = 2n ** 251n - 256n;

/**
 * The address of a contract deployed with `salt`, `classHash` and `constructorCalldata` by `deployer`.
 *
 * @example
 * contractAddress(salt, classHash, [publicKey], 0n) // address of a DEPLOY_ACCOUNT
 */
export function contractAddress(
  salt: bigint,
  classHash: bigint,
  constructorCalldata: readonly bigint[],
  deployer: bigint,
): bigint {
  return (
    pedersenOnElements([PREFIX, deployer, salt, classHash, pedersenOnElements([...constructorCalldata])]) % ADDR_BOUND
  );
}
