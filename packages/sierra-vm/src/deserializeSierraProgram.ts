import { FALLTHROUGH_TARGET } from './constants.js';
import { decodeGenericId } from './decodeGenericId.js';
import { FeltReader } from './FeltReader.js';
import { SierraDecodeError } from './SierraDecodeError.js';
import type {
  BranchInfo,
  DeclaredTypeInfo,
  GenericArg,
  LibfuncDeclaration,
  SierraFunction,
  SierraProgram,
  Statement,
  TypeDeclaration,
} from './types.js';

/** Options of {@link deserializeSierraProgram}. */
export interface DeserializeOptions {
  /** More long generic ids to recognise, as starknet_keccak by name (see `LONG_GENERIC_IDS`). */
  longGenericIds?: ReadonlyMap<string, bigint>;
}

const U128_MASK = 2n ** 128n - 1n;

/**
 * Reads a Sierra program from its felt252 serialization (the decompressed felts, without version header):
 * type declarations, libfunc declarations, statements, then user functions.
 *
 * @param felts the serialized program
 * @returns the program
 * @throws {SierraDecodeError} when the felts are not exactly one serialized program
 */
export function deserializeSierraProgram(felts: readonly bigint[], options: DeserializeOptions = {}): SierraProgram {
  const r = new FeltReader(felts);
  const extra = options.longGenericIds && new Map([...options.longGenericIds].map(([name, hash]) => [hash, name]));
  const genericId = (): string => {
    const at = r.offset;
    try {
      return decodeGenericId(r.felt(), extra);
    } catch (e) {
      throw new SierraDecodeError((e as Error).message, at);
    }
  };
  const genericArg = (): GenericArg => {
    const at = r.offset;
    const tag = r.u64();
    switch (tag) {
      case 0n:
        return { kind: 'userType', id: r.felt() };
      case 1n:
        return { kind: 'type', id: r.int() };
      case 2n:
        return { kind: 'value', value: r.felt() };
      case 3n:
        return { kind: 'userFunc', id: r.int() };
      case 4n:
        return { kind: 'libfunc', id: r.int() };
      case 5n:
        return { kind: 'value', value: -r.felt() };
      default:
        throw new SierraDecodeError(`unknown generic argument kind ${tag}`, at);
    }
  };

  const typeDeclarations: TypeDeclaration[] = [];
  const typeCount = r.length();
  for (let id = 0; id < typeCount; id++) {
    const gid = genericId();
    const at = r.offset;
    const lenAndInfo = r.felt();
    const len = lenAndInfo & U128_MASK;
    const info = lenAndInfo >> 128n;
    if (len > BigInt(r.remaining)) throw new SierraDecodeError(`length ${len} exceeds the felts left`, at);
    if (info >= 2n ** 64n) throw new SierraDecodeError(`type info ${info} does not fit in 64 bits`, at);
    const genericArgs: GenericArg[] = [];
    for (let i = 0; i < Number(len); i++) genericArgs.push(genericArg());
    const decl: TypeDeclaration = { id, genericId: gid, genericArgs };
    if (info !== 0n) decl.declaredTypeInfo = typeInfoFromBits(info);
    typeDeclarations.push(decl);
  }

  const libfuncDeclarations: LibfuncDeclaration[] = [];
  const libfuncCount = r.length();
  for (let id = 0; id < libfuncCount; id++) {
    const gid = genericId();
    libfuncDeclarations.push({ id, genericId: gid, genericArgs: r.vec(genericArg) });
  }

  const branch = (): BranchInfo => {
    const at = r.offset;
    const raw = r.u64();
    if (raw !== FALLTHROUGH_TARGET && raw > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new SierraDecodeError(`branch target ${raw} is too large`, at);
    }
    const target = raw === FALLTHROUGH_TARGET ? 'fallthrough' : Number(raw);
    return { target, results: r.vec(() => r.int()) };
  };
  const statements = r.vec((): Statement => {
    const at = r.offset;
    const tag = r.u64();
    if (tag === 0n) {
      const libfuncId = r.int();
      const args = r.vec(() => r.int());
      return { kind: 'invocation', libfuncId, args, branches: r.vec(branch) };
    }
    if (tag === 1n) return { kind: 'return', vars: r.vec(() => r.int()) };
    throw new SierraDecodeError(`unknown statement kind ${tag}`, at);
  });

  const funcs: SierraFunction[] = [];
  const funcCount = r.length();
  for (let id = 0; id < funcCount; id++) {
    const paramTypes = r.vec(() => r.int());
    const retTypes = r.vec(() => r.int());
    const params = paramTypes.map((ty) => ({ id: r.int(), ty }));
    funcs.push({ id, signature: { paramTypes, retTypes }, params, entryPoint: r.int() });
  }

  if (r.remaining !== 0) throw new SierraDecodeError(`${r.remaining} felts left after the program`, r.offset);
  return { typeDeclarations, libfuncDeclarations, statements, funcs };
}

function typeInfoFromBits(bits: bigint): DeclaredTypeInfo {
  return {
    storable: (bits & 1n) !== 0n,
    droppable: (bits & 2n) !== 0n,
    duplicatable: (bits & 4n) !== 0n,
    zeroSized: (bits & 8n) !== 0n,
  };
}
