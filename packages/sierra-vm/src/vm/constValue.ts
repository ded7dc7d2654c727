import { SierraRunError } from './SierraRunError.js';
import { modP } from './libfuncs/common.js';
import type { TypeRegistry, Value } from './types.js';

/**
 * The value of a `Const<T, …>` type: `Const<int or felt, v>`, `Const<Struct, Const…>` (one per member),
 * `Const<Enum, variant, Const…>`, `Const<NonZero<T>, Const…>` / `Const<Box<T>, Const…>`, `Const<EcPoint, x, y>`.
 */
export function constValue(registry: TypeRegistry, constType: number): Value {
  const c = registry.get(constType).info;
  if (c.kind !== 'const') throw new SierraRunError(`type ${constType} is not a Const`);
  const inner = registry.get(c.inner).info;
  const arg = (i: number) => c.args[i];
  const constArg = (i: number): Value => {
    const a = arg(i);
    if (a?.kind !== 'type') throw new SierraRunError(`Const ${constType}: argument ${i} is not a type`);
    return constValue(registry, a.id);
  };
  switch (inner.kind) {
    case 'felt252':
    case 'int':
    case 'boundedInt': {
      const a = arg(0);
      if (a?.kind !== 'value') throw new SierraRunError(`Const ${constType}: expected a value`);
      return inner.kind === 'felt252' ? modP(a.value) : a.value;
    }
    case 'struct':
      return c.args.map((_, i) => constArg(i));
    case 'enum': {
      const a = arg(0);
      if (a?.kind !== 'value') throw new SierraRunError(`Const ${constType}: expected a variant index`);
      return { tag: Number(a.value), value: constArg(1) };
    }
    case 'wrapper':
      return constArg(0);
    default: {
      // Const<EcPoint, x, y>: a point of the Stark curve, as the EC libfuncs hold it ([x, y])
      if (registry.get(c.inner).genericId === 'EcPoint') {
        const x = arg(0);
        const y = arg(1);
        if (x?.kind !== 'value' || y?.kind !== 'value')
          throw new SierraRunError(`Const ${constType}: an EcPoint needs two values`);
        return [modP(x.value), modP(y.value)];
      }
      throw new SierraRunError(`Const ${constType}: unsupported inner type ${registry.get(c.inner).genericId}`);
    }
  }
}
