import type { TypeRegistry, Value } from './types.js';

/**
 * The zero value of a type: 0 for numbers, members' zeros for structs, variant 0 for enums, an empty array, the
 * inner zero for boxes, snapshots and NonZero, null for nullables, builtins and unknown types.
 */
export function defaultValue(registry: TypeRegistry, ty: number): Value {
  const info = registry.get(ty).info;
  switch (info.kind) {
    case 'felt252':
    case 'int':
    case 'boundedInt':
    case 'gas':
      return 0n;
    case 'struct':
      return info.members.map((m) => defaultValue(registry, m));
    case 'enum':
      return info.variants.length === 0 ? null : { tag: 0, value: defaultValue(registry, info.variants[0]!) };
    case 'array':
      return { data: [], start: 0, end: 0 };
    case 'wrapper':
      return info.wrapper === 'Nullable' ? null : defaultValue(registry, info.inner);
    default:
      return null;
  }
}
