import type { GenericArg, SierraProgram } from '../types.js';
import { SierraRunError } from './SierraRunError.js';
import type { TypeEntry, TypeInfo, TypeRegistry } from './types.js';

const INT = /^([ui])(8|16|32|64|128)$/;
const BUILTINS = new Set([
  'RangeCheck',
  'RangeCheck96',
  'Bitwise',
  'Pedersen',
  'Poseidon',
  'EcOp',
  'SegmentArena',
  'AddMod',
  'MulMod',
  'BuiltinCosts',
  'System',
]);
/** Types held in one felt that the interpreter treats as plain numbers. */
const FELT_LIKE = new Set(['ContractAddress', 'ClassHash', 'StorageAddress', 'StorageBaseAddress', 'bytes31', 'u96']);
const SIZES: Record<string, number> = { EcPoint: 2, EcState: 3, U128MulGuarantee: 4, Array: 2 };

const typeArg = (a: GenericArg | undefined, where: string): number => {
  if (a?.kind !== 'type') throw new SierraRunError(`${where}: expected a type argument`);
  return a.id;
};
const valueArg = (a: GenericArg | undefined, where: string): bigint => {
  if (a?.kind !== 'value') throw new SierraRunError(`${where}: expected a value argument`);
  return a.value;
};

/**
 * Builds the type registry of a program: for every type declaration its {@link TypeInfo} (integers with their
 * range, structs, enums, arrays, wrappers, builtins…) and its size in memory cells.
 *
 * Throws `SierraRunError` when a declaration refers to a later, undeclared type or has malformed arguments.
 * Unknown generic types are kept as `{ kind: 'other' }` with size 1: only libfuncs that need them will fail.
 */
export function buildTypeRegistry(program: SierraProgram): TypeRegistry {
  const types: TypeEntry[] = [];
  const sizeOf = (id: number, where: string): number => {
    const t = types[id];
    if (t === undefined) throw new SierraRunError(`${where}: type ${id} is not declared before use`);
    return t.size;
  };
  for (const decl of program.typeDeclarations) {
    const g = decl.genericId;
    const args = decl.genericArgs;
    const where = `type ${decl.id} (${g})`;
    let info: TypeInfo;
    let size = 1;
    const int = INT.exec(g);
    if (g === 'felt252') info = { kind: 'felt252' };
    else if (int) {
      const bits = Number(int[2]);
      const signed = int[1] === 'i';
      info = signed
        ? { kind: 'int', bits, signed, min: -(1n << BigInt(bits - 1)), max: (1n << BigInt(bits - 1)) - 1n }
        : { kind: 'int', bits, signed, min: 0n, max: (1n << BigInt(bits)) - 1n };
    } else if (g === 'BoundedInt') {
      info = { kind: 'boundedInt', min: valueArg(args[0], where), max: valueArg(args[1], where) };
    } else if (g === 'Struct') {
      const members = args.slice(1).map((a) => typeArg(a, where));
      info = { kind: 'struct', members };
      size = members.reduce((s, m) => s + sizeOf(m, where), 0);
    } else if (g === 'Enum') {
      const variants = args.slice(1).map((a) => typeArg(a, where));
      info = { kind: 'enum', variants };
      size = variants.length === 0 ? 0 : 1 + Math.max(...variants.map((v) => sizeOf(v, where)));
    } else if (g === 'Array') {
      info = { kind: 'array', element: typeArg(args[0], where) };
    } else if (g === 'Box' || g === 'Snapshot' || g === 'NonZero' || g === 'Nullable' || g === 'Uninitialized') {
      const inner = typeArg(args[0], where);
      info = { kind: 'wrapper', wrapper: g, inner };
      if (g === 'Snapshot' || g === 'NonZero' || g === 'Uninitialized') size = sizeOf(inner, where);
    } else if (g === 'Const') {
      info = { kind: 'const', inner: typeArg(args[0], where), args: args.slice(1) };
      size = 0;
    } else if (g === 'GasBuiltin') info = { kind: 'gas' };
    else if (BUILTINS.has(g)) info = { kind: 'builtin', name: g };
    else if (g === 'Felt252Dict' || g === 'SquashedFelt252Dict')
      info = { kind: 'dict', value: typeArg(args[0], where) };
    else if (FELT_LIKE.has(g)) info = { kind: 'felt252' };
    else info = { kind: 'other', genericId: g };
    size = SIZES[g] ?? size;
    if (decl.declaredTypeInfo?.zeroSized) size = 0;
    types.push({ id: decl.id, genericId: g, info, size });
  }
  return {
    types,
    get(id: number): TypeEntry {
      const t = types[id];
      if (t === undefined) throw new SierraRunError(`type ${id} is not declared`);
      return t;
    },
  };
}
