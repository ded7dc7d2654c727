import { CID } from 'multiformats/cid';

/**
 * The CIDs linked from a value decoded from dag-json (`{"/": "<cid>"}`; `{"/": {"bytes": …}}` is
 * bytes, not a link), in document order.
 *
 * @example
 * dagJsonLinks(JSON.parse('{"a":{"/":"QmWSgS…"},"b":[{"/":"bafy…"}]}')) // [CID(QmWSgS…), CID(bafy…)]
 */
export function dagJsonLinks(value: unknown): CID[] {
  const into: CID[] = [];
  collect(value, into);
  return into;
}

function collect(value: unknown, into: CID[]): void {
  if (Array.isArray(value)) {
    for (const v of value) collect(v, into);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0]![0] === '/' && typeof entries[0]![1] === 'string') {
    try {
      into.push(CID.parse(entries[0]![1]));
    } catch {
      // a string under "/" that is not a CID: plain data
    }
    return;
  }
  for (const [, v] of entries) collect(v, into);
}
