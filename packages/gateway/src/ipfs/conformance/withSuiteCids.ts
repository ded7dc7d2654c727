/** The CID class of the multiformats copy the suite compares with (its `CID.decode`). */
export interface SuiteCidClass {
  asCID(value: unknown): { bytes: Uint8Array } | null;
  decode(bytes: Uint8Array): unknown;
}

/**
 * A client whose answers carry CIDs of the suite's own multiformats copy: kubo-rpc-client 7 (and
 * 3) return CIDs of their own copies, which hold the same CID but are not `deep.equal` to the
 * suite's (another class) nor `instanceOf` its `CID`. Every method of the client tree (nested
 * namespaces included) is wrapped: a promise's value and each value of an async iterable are
 * mapped, CIDs inside plain objects and arrays included; bytes and other values are left as
 * they are. Arguments are passed through untouched (the clients read any CID version's shape).
 *
 * @example
 * const api = withSuiteCids(conformanceClient(target), SuiteCID);
 */
export function withSuiteCids<T extends object>(client: T, SuiteCID: SuiteCidClass): T {
  const convert = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (value instanceof Uint8Array) return value;
    const cid = SuiteCID.asCID(value);
    if (cid !== null) return SuiteCID.decode(cid.bytes);
    if (Array.isArray(value)) return value.map(convert);
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)]));
  };
  const result = (value: unknown): unknown => {
    if (value instanceof Promise) return value.then(convert);
    if (value !== null && typeof value === 'object' && Symbol.asyncIterator in value) {
      const source = value as AsyncIterable<unknown>;
      return (async function* () {
        for await (const v of source) yield convert(v);
      })();
    }
    return convert(value);
  };
  const wrap = (target: object): object => {
    const out = Object.create(Object.getPrototypeOf(target) as object) as Record<string, unknown>;
    for (const [name, member] of Object.entries(target)) {
      if (typeof member === 'function') {
        const fn = member as (...args: unknown[]) => unknown;
        // a method can carry sub-commands as properties (`refs.local`): keep them, wrapped
        out[name] = Object.assign((...args: unknown[]) => result(fn.apply(target, args)), wrap(fn));
      } else if (member !== null && typeof member === 'object' && !(member instanceof Uint8Array)) {
        out[name] = wrap(member);
      } else {
        out[name] = member;
      }
    }
    return out;
  };
  return wrap(client) as T;
}
