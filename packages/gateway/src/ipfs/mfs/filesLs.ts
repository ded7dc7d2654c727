import type { DirLink } from './DirLink.js';
import { isDirectory, listEntries } from './directoryEntries.js';
import type { FilesRequest } from './FilesRequest.js';
import { checkPath } from './mfsPath.js';
import { type MfsNode, type MfsSession, toMfsNode } from './MfsSession.js';
import { lookupNode } from './mfsTree.js';
import { readFilesOptions } from './readFilesOptions.js';
import { writeFilesAnswer } from './writeFilesAnswer.js';

/** One entry of `files/ls` (boxo `NodeListing`): Type 1 for a directory, 0 for a file. */
interface Listing {
  Name: string;
  Type: number;
  Size: number;
  Hash: string;
}

/** Children read at once for a long listing. */
const CONCURRENCY = 16;

/** A file's size as MFS reports it (its `filesize`; a raw block's length). */
function mfsFileSize(node: MfsNode): number {
  return node.unixfs === undefined ? node.bytes.byteLength : Number(node.unixfs.filesize ?? 0n);
}

async function describe(session: MfsSession, link: DirLink): Promise<Listing> {
  const child = toMfsNode(link.cid, await session.readBlock(link.cid));
  const directory = isDirectory(child);
  return {
    Name: link.name,
    Type: directory ? 1 : 0,
    Size: directory ? 0 : mfsFileSize(child),
    Hash: link.cid.toString(),
  };
}

/**
 * `files/ls [path]` (default `/`): the entries of an MFS directory of the key, in Kubo's order,
 * as `{"Entries":[{Name,Type,Size,Hash}]}` (`null` for none); a file lists itself. Without
 * `long` (`l`) only names are filled in, as Kubo does; kubo-rpc-client always asks for `long`,
 * which reads each entry's node (16 at a time) for its type and size. `U` only changes Kubo's
 * text answer. The answer is charged as served bytes.
 *
 * @example
 * await filesLs(request); // {"Entries":[{"Name":"a.txt","Type":0,"Size":13,"Hash":"Qm…"}]}
 */
export async function filesLs(r: FilesRequest): Promise<void> {
  const o = readFilesOptions(r.params, { long: { type: 'bool', aliases: ['l'] }, U: { type: 'bool' } });
  const path = checkPath(r.params.get('arg') ?? '/');
  const session = r.mfs.session(r.signal);
  const node = await lookupNode(session, (await r.mfs.current(r.key)).root, path.parts);
  const long = o.bool('long');
  let entries: Listing[] = [];
  if (isDirectory(node)) {
    const links: DirLink[] = [];
    for await (const l of listEntries(session, node)) links.push(l);
    if (!long) entries = links.map((l) => ({ Name: l.name, Type: 0, Size: 0, Hash: '' }));
    else {
      entries = new Array(links.length);
      let next = 0;
      const worker = async () => {
        while (next < links.length) {
          const i = next++;
          entries[i] = await describe(session, links[i]!);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, links.length) }, worker));
    }
  } else {
    const name = path.parts.at(-1) ?? '';
    entries = [
      long
        ? { Name: name, Type: 0, Size: mfsFileSize(node), Hash: node.cid.toString() }
        : { Name: name, Type: 0, Size: 0, Hash: '' },
    ];
  }
  await writeFilesAnswer(r.res, { Entries: entries.length === 0 ? null : entries }, r.meter);
}
