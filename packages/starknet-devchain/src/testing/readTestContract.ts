import { readFileSync } from 'node:fs';

/** nodegate's own test contracts, compiled from Cairo by packages/sierra-vm/scripts/compileTestContracts.mjs. */
const TEST_CONTRACTS = new URL('../../../sierra-vm/test-contracts/', import.meta.url).pathname;

/**
 * One of nodegate's own test contracts (`packages/sierra-vm/test-contracts/<name>.contract_class.json`: the class as
 * a declarer sends it; it has no CASM, any compiled class hash is carried).
 *
 * @example
 * const factory = readTestContract('factory');
 * await account.declare({ contract: factory, compiledClassHash: '0x1' });
 */
export function readTestContract(name: string) {
  return JSON.parse(readFileSync(`${TEST_CONTRACTS}${name}.contract_class.json`, 'utf8'));
}
