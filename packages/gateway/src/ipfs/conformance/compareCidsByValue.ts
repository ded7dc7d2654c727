/** The part of chai 4 this touches: its config and its deep-eql. */
interface Chai4 {
  config: { deepEqual: ((a: unknown, b: unknown) => boolean) | null };
  util: { eql(a: unknown, b: unknown, options?: { comparator?: (a: unknown, b: unknown) => boolean | null }): boolean };
}

/** A CID of any multiformats copy: its `asCID` self-reference and bytes. */
function cidBytes(value: unknown): Uint8Array | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as { asCID?: unknown; bytes?: unknown; '/'?: unknown };
  if ((v.asCID === value || v['/'] === v.bytes) && v.bytes instanceof Uint8Array) return v.bytes;
  return undefined;
}

/**
 * Makes chai's deep equality (`deep.equal`, `deep.include`, `members`, `deep.property`…) compare
 * two CIDs by their bytes, whatever multiformats copy made them. The suite compares CIDs from
 * several copies (its own, @ipld/car's, @ipld/dag-pb's, the clients'), which npm installs apart
 * here: equal CIDs of two copies are not `deep.equal` (another class) though they are the same
 * CID. Everything else compares as chai always does.
 *
 * @example
 * const { chai } = await import('aegir/chai');
 * compareCidsByValue(chai);
 */
export function compareCidsByValue(chai: unknown): void {
  const c = chai as Chai4;
  const comparator = (a: unknown, b: unknown): boolean | null => {
    const x = cidBytes(a);
    const y = cidBytes(b);
    if (x === undefined || y === undefined) return null;
    return x.byteLength === y.byteLength && x.every((byte, i) => byte === y[i]);
  };
  c.config.deepEqual = (a, b) => c.util.eql(a, b, { comparator });
}
