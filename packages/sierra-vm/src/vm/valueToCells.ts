import { SierraRunError } from './SierraRunError.js';
import { modP } from './libfuncs/common.js';
import type { ArrayValue, EnumValue, TypeRegistry, Value } from './types.js';

/**
 * The memory cells the compiled program holds for a value, as the Cairo runner prints returned values:
 * integers as felts (negative ones mod P), structs as their members' cells, enums as
 * `[selector, zero padding…, variant cells]` (size `1 + largest variant`; the selector is the variant index for up
 * to two variants, else the jump offset `2·(n − index) − 1`), snapshots and `NonZero` as their inner value.
 *
 * Throws `SierraRunError` for values the runner holds behind pointers (arrays, boxes, nullables, dicts): their
 * cells are addresses, which an interpreter cannot reproduce.
 */
export function valueToCells(registry: TypeRegistry, ty: number, value: Value): bigint[] {
  const out: bigint[] = [];
  const write = (t: number, v: Value): void => {
    const entry = registry.get(t);
    const info = entry.info;
    switch (info.kind) {
      case 'felt252':
      case 'int':
      case 'boundedInt':
        out.push(modP(v as bigint));
        return;
      case 'gas':
        out.push(v as bigint);
        return;
      case 'struct': {
        const members = v as Value[];
        info.members.forEach((m, i) => {
          write(m, members[i]!);
        });
        return;
      }
      case 'enum': {
        const e = v as EnumValue;
        const n = info.variants.length;
        const variant = info.variants[e.tag]!;
        out.push(n <= 2 ? BigInt(e.tag) : BigInt(2 * (n - e.tag) - 1));
        for (let i = entry.size - 1 - registry.get(variant).size; i > 0; i--) out.push(0n);
        write(variant, e.value);
        return;
      }
      case 'wrapper':
        if (info.wrapper === 'Snapshot' || info.wrapper === 'NonZero') {
          write(info.inner, v);
          return;
        }
        break;
      default:
        break;
    }
    if (info.kind === 'array') {
      const a = v as ArrayValue;
      throw new SierraRunError(`an array (${a.end - a.start} elements) is held by address, not by value`);
    }
    throw new SierraRunError(`type ${t} (${entry.genericId}) has no cells by value`);
  };
  write(ty, value);
  return out;
}
