import { FALLTHROUGH_TARGET } from './constants.js';
import { encodeGenericId } from './encodeGenericId.js';
import type { DeclaredTypeInfo, GenericArg, SierraProgram } from './types.js';

/** Options of {@link serializeSierraProgram}. */
export interface SerializeOptions {
  /** More long generic ids to accept, as starknet_keccak by name (see `LONG_GENERIC_IDS`). */
  longGenericIds?: ReadonlyMap<string, bigint>;
}

const TYPE_INFO_MARKER = 1n << 63n;

/**
 * Writes a Sierra program as felts the way the Cairo compiler does (felt252 serialization, before compression).
 *
 * @param program the program; declaration and function ids must equal their indices
 * @returns the serialized felts
 * @throws {Error} on ids out of order, parameters not matching the signature, or a generic id that cannot be written
 */
export function serializeSierraProgram(program: SierraProgram, options: SerializeOptions = {}): bigint[] {
  const out: bigint[] = [];
  const n = (value: number): void => {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${value} is not a non-negative integer`);
    out.push(BigInt(value));
  };
  const vec = (values: readonly number[]): void => {
    n(values.length);
    for (const v of values) n(v);
  };
  const arg = (a: GenericArg): void => {
    switch (a.kind) {
      case 'userType':
        out.push(0n, a.id);
        break;
      case 'type':
        n(1);
        n(a.id);
        break;
      case 'value':
        out.push(a.value < 0n ? 5n : 2n, a.value < 0n ? -a.value : a.value);
        break;
      case 'userFunc':
        n(3);
        n(a.id);
        break;
      case 'libfunc':
        n(4);
        n(a.id);
        break;
    }
  };

  n(program.typeDeclarations.length);
  program.typeDeclarations.forEach((t, i) => {
    if (t.id !== i) throw new Error(`type declaration ${i} has id ${t.id}`);
    out.push(encodeGenericId(t.genericId, options.longGenericIds));
    const info = t.declaredTypeInfo ? typeInfoBits(t.declaredTypeInfo) : 0n;
    out.push(BigInt(t.genericArgs.length) + (info << 128n));
    for (const a of t.genericArgs) arg(a);
  });

  n(program.libfuncDeclarations.length);
  program.libfuncDeclarations.forEach((l, i) => {
    if (l.id !== i) throw new Error(`libfunc declaration ${i} has id ${l.id}`);
    out.push(encodeGenericId(l.genericId, options.longGenericIds));
    n(l.genericArgs.length);
    for (const a of l.genericArgs) arg(a);
  });

  n(program.statements.length);
  for (const s of program.statements) {
    if (s.kind === 'return') {
      n(1);
      vec(s.vars);
      continue;
    }
    n(0);
    n(s.libfuncId);
    vec(s.args);
    n(s.branches.length);
    for (const b of s.branches) {
      if (b.target === 'fallthrough') out.push(FALLTHROUGH_TARGET);
      else n(b.target);
      vec(b.results);
    }
  }

  n(program.funcs.length);
  program.funcs.forEach((f, i) => {
    if (f.id !== i) throw new Error(`function ${i} has id ${f.id}`);
    vec(f.signature.paramTypes);
    vec(f.signature.retTypes);
    if (f.params.length !== f.signature.paramTypes.length)
      throw new Error(`function ${i}: params do not match signature`);
    f.params.forEach((p, j) => {
      if (p.ty !== f.signature.paramTypes[j])
        throw new Error(`function ${i}: param ${j} type does not match signature`);
      n(p.id);
    });
    n(f.entryPoint);
  });
  return out;
}

function typeInfoBits(info: DeclaredTypeInfo): bigint {
  return (
    TYPE_INFO_MARKER |
    (info.storable ? 1n : 0n) |
    (info.droppable ? 2n : 0n) |
    (info.duplicatable ? 4n : 0n) |
    (info.zeroSized ? 8n : 0n)
  );
}
