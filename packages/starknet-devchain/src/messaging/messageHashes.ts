/** Starknet's message hashes: keccak256 over uint256 words, as the core contract computes them. */
import { hash } from 'starknet';

const word = (v: bigint) => `0x${v.toString(16).padStart(64, '0')}`;

/**
 * The hash of an L1 → L2 message: keccak256(from, to, nonce, selector, payload.length, ...payload).
 *
 * @example
 * l1ToL2MessageHash({ from: 0xabcn, to: 0x123n, selector, payload: [1n], nonce: 0n }); // '0x…' (64 hex digits)
 */
export function l1ToL2MessageHash(m: {
  from: bigint;
  to: bigint;
  selector: bigint;
  payload: readonly bigint[];
  nonce: bigint;
}): string {
  return word(BigInt(hash.getL2MessageHash(m.from, m.to, m.selector, [...m.payload], m.nonce)));
}

/**
 * The hash of an L2 → L1 message: keccak256(from, to, payload.length, ...payload).
 *
 * @example
 * l2ToL1MessageHash({ from: 0x123n, to: 0xabcn, payload: [1n, 2n] }); // '0x…' (64 hex digits)
 */
export function l2ToL1MessageHash(m: { from: bigint; to: bigint; payload: readonly bigint[] }): string {
  return word(BigInt(hash.solidityUint256PackedKeccak256([m.from, m.to, m.payload.length, ...m.payload])));
}
