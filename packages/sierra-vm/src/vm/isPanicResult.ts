import type { TypeRegistry } from './types.js';

/**
 * Whether a concrete type is a `PanicResult<T>`: an enum of two variants whose variant 1 (`Err`) is the struct
 * `(Panic, Array<felt252>)` with `Panic` an empty struct. Structural, so it works without debug names.
 */
export function isPanicResult(registry: TypeRegistry, ty: number): boolean {
  const e = registry.get(ty).info;
  if (e.kind !== 'enum' || e.variants.length !== 2) return false;
  const err = registry.get(e.variants[1]!).info;
  if (err.kind !== 'struct' || err.members.length !== 2) return false;
  const panic = registry.get(err.members[0]!).info;
  const data = registry.get(err.members[1]!).info;
  return (
    panic.kind === 'struct' &&
    panic.members.length === 0 &&
    data.kind === 'array' &&
    registry.get(data.element).info.kind === 'felt252'
  );
}
