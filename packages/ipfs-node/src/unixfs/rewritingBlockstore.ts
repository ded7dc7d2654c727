import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import type { NodeHasher } from '../dag/hashers.js';
import { IpfsNodeError } from '../errors.js';
import { unmarkDefaultMode } from './explicitDefaultMode.js';

/** A block as the rewriting store stored it: its CID and its DAG's cumulative size. */
export interface RewrittenBlock {
  readonly cid: CID;
  /** Kubo's `Size`/`Tsize` of the node: its encoded size plus its links' Tsize (raw: its length). */
  readonly cumulativeSize: number;
}

/** What the importer writes to, rewriting blocks as they come. */
export interface RewritingBlockstore {
  put(cid: CID, bytes: Uint8Array): Promise<CID>;
  /** The stored block of a CID the importer produced (undefined if it never wrote one). */
  rewritten(cid: CID): RewrittenBlock | undefined;
}

/**
 * A block sink for the UnixFS importer that stores what Kubo would have stored where the importer
 * differs: with `hasher` (Kubo's `add --hash`), every block under that hash function (the importer
 * hashes with sha2-256 only; CIDs are version 1); and UnixFS nodes marked by
 * `markDefaultMode` re-encoded with their default mode written out. Blocks arrive children
 * first, so each dag-pb node's links are pointed at its children's stored CIDs (with Kubo's
 * `Tsize`, recomputed from them) before it is encoded and hashed.
 *
 * @example
 * const store = rewritingBlockstore(repoWriter, hasherOf('sha2-512'));
 * for await (const entry of importer(files, store, options)) store.rewritten(entry.cid);
 */
export function rewritingBlockstore(
  target: { put(cid: CID, bytes: Uint8Array): Promise<unknown> },
  hasher: NodeHasher | undefined,
): RewritingBlockstore {
  const done = new Map<string, RewrittenBlock>();
  const keyOf = (cid: CID) => `${cid.code}:${Buffer.from(cid.multihash.bytes).toString('base64')}`;
  return {
    async put(cid, bytes) {
      let out = bytes;
      let cumulative = bytes.byteLength;
      let changed = hasher !== undefined;
      if (cid.code === dagPb.code) {
        const node = dagPb.decode(bytes);
        let linked = 0;
        const links = node.Links.map((link) => {
          const child = done.get(keyOf(link.Hash));
          if (child === undefined) {
            if (hasher === undefined) {
              linked += link.Tsize ?? 0;
              return link;
            }
            throw new IpfsNodeError('command', `add: block ${link.Hash} was linked before it was written`);
          }
          if (!child.cid.equals(link.Hash)) changed = true;
          linked += child.cumulativeSize;
          return { ...link, Hash: child.cid, Tsize: child.cumulativeSize };
        });
        const data = node.Data === undefined ? undefined : (unmarkDefaultMode(node.Data) ?? node.Data);
        if (data !== node.Data) changed = true;
        if (changed) out = dagPb.encode(data === undefined ? { Links: links } : { Data: data, Links: links });
        cumulative = out.byteLength + linked;
      }
      const stored = changed
        ? hasher === undefined
          ? CID.create(cid.version, cid.code, await sha256.digest(out))
          : CID.createV1(cid.code, hasher.digest(out))
        : cid;
      done.set(keyOf(cid), { cid: stored, cumulativeSize: cumulative });
      await target.put(stored, out);
      return cid;
    },
    rewritten: (cid) => done.get(keyOf(cid)),
  };
}
