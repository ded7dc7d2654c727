import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { codecOf } from './codecs.js';

const RAW = 0x55;
const IDENTITY_CODEC = 0x0200;

/** A link out of a block, with the name `refs` prints for `<linkname>`. */
export interface NamedLink {
  /** dag-pb: the link's name; dag-cbor/dag-json: the path of the link inside the value (`a/b/0`). */
  readonly name: string;
  readonly cid: CID;
}

/**
 * The links of a block in order, named as Kubo names them: a dag-pb link by its `Name`, a link
 * inside a dag-cbor or dag-json value by its path from the root of the value.
 *
 * @example
 * namedLinks(cid, bytes) // [{ name: 'mars.txt', cid: CID(Qm…) }]
 */
export function namedLinks(cid: CID, bytes: Uint8Array): NamedLink[] {
  if (cid.code === RAW || cid.code === IDENTITY_CODEC) return [];
  if (cid.code === dagPb.code) return dagPb.decode(bytes).Links.map((l) => ({ name: l.Name ?? '', cid: l.Hash }));
  const out: NamedLink[] = [];
  collect(codecOf(cid.code).decode(bytes), [], out);
  return out;
}

function collect(value: unknown, path: string[], out: NamedLink[]): void {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return;
  const link = CID.asCID(value);
  if (link !== null) {
    out.push({ name: path.join('/'), cid: link });
    return;
  }
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) collect(v, [...path, String(i)], out);
    return;
  }
  for (const [k, v] of Object.entries(value)) collect(v, [...path, k], out);
}
