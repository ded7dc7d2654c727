import { SHORT_STRING_BOUND } from './constants.js';
import { starknetKeccak } from './starknetKeccak.js';

/** The `sierra_program_debug_info` of a contract class (only the name lists are read). */
export interface SierraDebugInfo {
  type_names?: readonly (readonly [number, string])[];
  libfunc_names?: readonly (readonly [number, string])[];
}

/**
 * Collects long generic ids from a class's debug names, for decoding classes that use a long generic id this
 * package does not list yet: each debug name's generic part (before `<`) longer than {@link SHORT_STRING_BOUND}
 * bytes, with its starknet_keccak. Pass the result as `longGenericIds` to the decoder (and encoder).
 *
 * @example
 * decodeSierraProgram(cls.sierra_program, { longGenericIds: longGenericIdsFromDebugInfo(cls.sierra_program_debug_info) })
 */
export function longGenericIdsFromDebugInfo(debugInfo: SierraDebugInfo): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const [, name] of [...(debugInfo.libfunc_names ?? []), ...(debugInfo.type_names ?? [])]) {
    const generic = name.split('<')[0]!.trim();
    if (Buffer.byteLength(generic, 'utf8') > SHORT_STRING_BOUND && !out.has(generic)) {
      out.set(generic, starknetKeccak(generic));
    }
  }
  return out;
}
