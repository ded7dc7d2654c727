import { LONG_GENERIC_IDS, SHORT_STRING_BOUND } from './constants.js';

/**
 * Writes a generic type or libfunc id as a felt: a short string (big-endian UTF-8 bytes) when it fits in
 * {@link SHORT_STRING_BOUND} bytes, else the starknet_keccak of a known long id.
 *
 * @param name the generic id, e.g. `felt252_add`
 * @param extraLongIds more long ids (starknet_keccak by name) accepted besides the compiler's list
 * @throws {Error} when the id is too long and not a known long id
 */
export function encodeGenericId(name: string, extraLongIds?: ReadonlyMap<string, bigint>): bigint {
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.length <= SHORT_STRING_BOUND) return bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString('hex')}`);
  const hash = LONG_GENERIC_IDS.get(name) ?? extraLongIds?.get(name);
  if (hash === undefined) throw new Error(`generic id ${name} is longer than ${SHORT_STRING_BOUND} bytes`);
  return hash;
}
