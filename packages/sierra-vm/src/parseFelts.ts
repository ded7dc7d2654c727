import { FIELD_PRIME } from './constants.js';

/**
 * Reads felts as found in a contract class (`0x` hex strings, as in `sierra_program`) or passes bigints through.
 *
 * @throws {RangeError} when a value is not a hex string or bigint in [0, P)
 */
export function parseFelts(values: readonly (string | bigint)[]): bigint[] {
  return values.map((v, i) => {
    if (typeof v === 'string' && !/^0x[0-9a-fA-F]+$/.test(v)) throw new RangeError(`felt ${i} (${v}) is not 0x hex`);
    const felt = typeof v === 'bigint' ? v : BigInt(v);
    if (felt < 0n || felt >= FIELD_PRIME) throw new RangeError(`felt ${i} (${v}) is not in [0, P)`);
    return felt;
  });
}
