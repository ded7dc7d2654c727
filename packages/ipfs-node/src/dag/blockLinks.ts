import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { codecOf } from './codecs.js';

const RAW = 0x55;
const DAG_PB = 0x70;

/** The CIDs a block links to, in order (dag-pb links, or every CID inside a dag-cbor/dag-json value). */
export function blockLinks(cid: CID, bytes: Uint8Array): CID[] {
  if (cid.code === RAW || cid.code === 0x0200) return [];
  if (cid.code === DAG_PB) return dagPb.decode(bytes).Links.map((l) => l.Hash);
  const out: CID[] = [];
  collect(codecOf(cid.code).decode(bytes), out);
  return out;
}

function collect(value: unknown, out: CID[]): void {
  if (value === null || typeof value !== 'object') return;
  const asCid = CID.asCID(value);
  if (asCid !== null) {
    out.push(asCid);
    return;
  }
  if (value instanceof Uint8Array) return;
  if (Array.isArray(value)) {
    for (const v of value) collect(v, out);
    return;
  }
  for (const v of Object.values(value)) collect(v, out);
}
