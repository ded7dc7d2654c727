import { randomBytes } from 'node:crypto';

/**
 * A new filter id for a client: 128 random bits as a hex quantity (`0x` and lowercase digits
 * without leading zeros), as nodes make theirs, so no client can guess another's.
 *
 * @example
 * newFilterId(); // '0x5f0c2e9b6d41a7c83e12f09b4d6a7e21'
 */
export function newFilterId(): string {
  return `0x${BigInt(`0x${randomBytes(16).toString('hex')}`).toString(16)}`;
}
