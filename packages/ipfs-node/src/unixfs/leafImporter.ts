import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { BufferImporter } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';

/**
 * The importer's leaf step (one block per chunk: raw, or a dag-pb UnixFS node of `leafType`),
 * except that a dag-pb leaf reports the chunk's bytes as its `block`: when a single-chunk file
 * carries metadata, the importer re-wraps `block` as the file node's data, which must be the
 * content, not the leaf's encoding (with the stock step such a file would hold its own dag-pb
 * leaf as data). `size` stays the stored leaf's size.
 *
 * @example
 * importer(files, store, { ...options, bufferImporter: leafImporter(options) })
 */
export function leafImporter(options: {
  rawLeaves: boolean;
  leafType: 'file' | 'raw';
  cidVersion: 0 | 1;
}): BufferImporter {
  return async function* (file, blockstore) {
    for await (const chunk of file.content) {
      yield async () => {
        if (options.rawLeaves) {
          const cid = CID.createV1(raw.code, await sha256.digest(chunk));
          await blockstore.put(cid, chunk);
          return { cid, size: BigInt(chunk.byteLength), block: chunk };
        }
        const unixfs = new UnixFS({ type: options.leafType, data: chunk });
        const encoded = dagPb.encode({ Data: unixfs.marshal(), Links: [] });
        const digest = await sha256.digest(encoded);
        const cid = options.cidVersion === 0 ? CID.createV0(digest) : CID.createV1(dagPb.code, digest);
        await blockstore.put(cid, encoded);
        return { cid, unixfs, size: BigInt(encoded.byteLength), block: chunk };
      };
    }
  };
}
