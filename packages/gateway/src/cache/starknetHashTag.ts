/**
 * A Starknet felt hash in one spelling (lowercase, no leading zeros), so `0x0ab` and `0xAB` meet.
 *
 * @example
 * starknetHashTag('0x00AB'); // '0xab'
 */
export function starknetHashTag(hash: string): string {
  try {
    return `0x${BigInt(hash).toString(16)}`;
  } catch {
    return hash.toLowerCase();
  }
}
