import { compressFelts } from './compressFelts.js';
import { type SerializeOptions, serializeSierraProgram } from './serializeSierraProgram.js';
import type { DecodedSierraProgram, VersionId } from './types.js';

/**
 * Encodes versions and program into `sierra_program` felts, as the Cairo compiler writes them: the inverse of
 * `decodeSierraProgram` (for a class written by the compiler, the result equals the original felts).
 *
 * @returns the felts as bigints (format them with `0x${f.toString(16)}` for a contract class)
 */
export function encodeSierraProgram(decoded: DecodedSierraProgram, options: SerializeOptions = {}): bigint[] {
  const version = (v: VersionId): bigint[] =>
    [v.major, v.minor, v.patch].map((x) => {
      if (!Number.isSafeInteger(x) || x < 0) throw new Error(`version part ${x} is not a non-negative integer`);
      return BigInt(x);
    });
  return [
    ...version(decoded.sierraVersion),
    ...version(decoded.compilerVersion),
    ...compressFelts(serializeSierraProgram(decoded.program, options)),
  ];
}
