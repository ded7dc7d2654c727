import { CID } from 'multiformats/cid';

/**
 * The links of a DAG-JSON document, in document order: every `{"/": "<cid>"}` (a bytes value,
 * `{"/": {"bytes": …}}`, and a string under `"/"` that is not a CID are data).
 *
 * @example
 * collectDagJsonLinks({ a: { '/': 'bafkqaaa' }, b: [1, { '/': { bytes: 'AA' } }] }).map(String) // ['bafkqaaa']
 */
export function collectDagJsonLinks(value: unknown, into: CID[] = []): CID[] {
  if (Array.isArray(value)) {
    for (const v of value) collectDagJsonLinks(v, into);
    return into;
  }
  if (typeof value !== 'object' || value === null) return into;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0]![0] === '/' && typeof entries[0]![1] === 'string') {
    try {
      into.push(CID.parse(entries[0]![1]));
    } catch {
      // a string under "/" that is not a CID: plain data
    }
    return into;
  }
  for (const [, v] of entries) collectDagJsonLinks(v, into);
  return into;
}
