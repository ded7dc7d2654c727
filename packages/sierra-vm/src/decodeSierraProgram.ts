import { decompressFelts } from './decompressFelts.js';
import { type DeserializeOptions, deserializeSierraProgram } from './deserializeSierraProgram.js';
import { parseFelts } from './parseFelts.js';
import { SierraDecodeError } from './SierraDecodeError.js';
import type { DecodedSierraProgram, VersionId } from './types.js';

/**
 * Decodes the `sierra_program` of a Sierra contract class (e.g. from `starknet_getClass`): the Sierra and
 * compiler versions of the header, then the compressed felt252 serialization of the program.
 *
 * @param sierraProgram the felts, as `0x` hex strings or bigints
 * @returns the versions and the program
 * @throws {SierraDecodeError} when the felts are not a valid, canonical encoding
 */
export function decodeSierraProgram(
  sierraProgram: readonly (string | bigint)[],
  options: DeserializeOptions = {},
): DecodedSierraProgram {
  const felts = parseFelts(sierraProgram);
  if (felts.length < 6) throw new SierraDecodeError('too short for the version header');
  const version = (at: number): VersionId => {
    const [major, minor, patch] = felts.slice(at, at + 3).map((v, i) => {
      if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new SierraDecodeError(`version part ${v} is too large`, at + i);
      return Number(v);
    }) as [number, number, number];
    return { major, minor, patch };
  };
  return {
    sierraVersion: version(0),
    compilerVersion: version(3),
    program: deserializeSierraProgram(decompressFelts(felts.slice(6)), options),
  };
}
