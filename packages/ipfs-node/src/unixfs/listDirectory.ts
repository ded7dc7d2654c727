import { exporter, type UnixFSDirectory } from 'ipfs-unixfs-exporter';
import type { CID } from 'multiformats/cid';
import { readable } from '../dag/resolvePath.js';
import { IpfsNodeError } from '../errors.js';
import type { BlockStore } from '../repo/BlockStore.js';
import type { NodeInfo } from './inspectNode.js';

/** Lists a directory's entries by name (basic and HAMT-sharded directories). */
export async function* listDirectory(
  store: BlockStore,
  dir: NodeInfo,
  signal?: AbortSignal,
): AsyncGenerator<{ name: string; cid: CID; tsize: number }> {
  if (dir.type === 'directory') {
    for (const link of dir.node!.Links) yield { name: link.Name ?? '', cid: link.Hash, tsize: link.Tsize ?? 0 };
    return;
  }
  if (dir.type !== 'hamt') throw new IpfsNodeError('command', `${dir.cid} is not a directory`);
  const entry = (await exporter(
    dir.cid,
    readable(store, signal),
    signal === undefined ? {} : { signal },
  )) as UnixFSDirectory;
  for await (const child of entry.entries(signal === undefined ? {} : { signal })) {
    yield { name: child.name, cid: child.cid, tsize: Number(child.size) };
  }
}
