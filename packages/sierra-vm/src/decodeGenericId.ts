import { LONG_GENERIC_IDS } from './constants.js';
import { SierraDecodeError } from './SierraDecodeError.js';

const longIdsByHash = new Map([...LONG_GENERIC_IDS].map(([name, hash]) => [hash, name]));
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a generic type or libfunc id from its felt: a known long id's starknet_keccak, else the name as a short
 * string (big-endian UTF-8 bytes).
 *
 * @param felt the felt as written in the program
 * @param extraLongIds more long ids to recognise (name by starknet_keccak), e.g. from a newer compiler
 * @returns the generic id, e.g. `felt252_add`
 * @throws {SierraDecodeError} when the felt is neither a known long id nor UTF-8
 */
export function decodeGenericId(felt: bigint, extraLongIds?: ReadonlyMap<bigint, string>): string {
  const long = longIdsByHash.get(felt) ?? extraLongIds?.get(felt);
  if (long !== undefined) return long;
  let hex = felt.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  try {
    return utf8.decode(Buffer.from(hex, 'hex'));
  } catch {
    throw new SierraDecodeError(`generic id 0x${felt.toString(16)} is neither a known long id nor UTF-8`);
  }
}
