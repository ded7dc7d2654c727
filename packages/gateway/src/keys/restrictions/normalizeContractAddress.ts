const HEX = /^0[xX][0-9a-fA-F]{1,128}$/;

/**
 * The canonical form of a contract address for comparison: lower-case hex without leading
 * zeros (`0x0` for zero). An Ethereum address (20 bytes) thus compares case-insensitively, and
 * a Starknet felt numerically (`0x0abc` equals `0xabc`). Undefined for anything that is not
 * 0x-prefixed hex of at most 32 significant bytes, so it can never match an allowlist entry.
 *
 * @example
 * normalizeContractAddress('0xABCdef0000000000000000000000000000000001') // '0xabcdef0000000000000000000000000000000001'
 * normalizeContractAddress('0x0004aBc')                                   // '0x4abc'
 * normalizeContractAddress('vitalik.eth')                                  // undefined
 */
export function normalizeContractAddress(address: unknown): string | undefined {
  if (typeof address !== 'string' || !HEX.test(address)) return undefined;
  let i = 2;
  while (i < address.length - 1 && address.charCodeAt(i) === 0x30) i++;
  if (address.length - i > 64) return undefined;
  return `0x${address.slice(i).toLowerCase()}`;
}
