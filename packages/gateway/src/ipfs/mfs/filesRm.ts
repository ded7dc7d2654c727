import type { CID } from 'multiformats/cid';
import { IpfsCommandError } from '../IpfsCommandError.js';
import { IPFS_CORS_HEADERS } from '../ipfsCors.js';
import { findEntry, isDirectory } from './directoryEntries.js';
import type { FilesRequest } from './FilesRequest.js';
import { mfsError, mfsRequestError, NOT_EXIST } from './mfsError.js';
import { checkPath } from './mfsPath.js';
import type { MfsSession } from './MfsSession.js';
import { editEntry, lookupNode } from './mfsTree.js';
import { readFilesOptions } from './readFilesOptions.js';
import { writeFilesAnswer } from './writeFilesAnswer.js';

/** Kubo's `removePath` for one path: the new root, or the reason it cannot be removed. */
async function removePath(
  session: MfsSession,
  root: CID,
  arg: string,
  options: { recursive: boolean; force: boolean; threshold: number },
): Promise<CID> {
  const path = checkPath(arg);
  if (path.parts.length === 0) throw mfsError('cannot delete root');
  const dir = path.parts.slice(0, -1);
  const name = path.parts.at(-1)!;
  let parent: Awaited<ReturnType<typeof lookupNode>>;
  try {
    parent = await lookupNode(session, root, dir);
  } catch (err) {
    if (options.force && err instanceof IpfsCommandError && err.message === NOT_EXIST) return root;
    throw err;
  }
  if (!isDirectory(parent)) throw mfsError('expected *mfs.Directory, didnt get it. This is likely a race condition');
  const entry = await findEntry(session, parent, name);
  if (entry === undefined) {
    if (options.force) return root;
    throw mfsError(NOT_EXIST);
  }
  if (!options.force && !options.recursive && isDirectory(await session.load(entry.cid))) {
    throw mfsError(`${path.path.replace(/\/$/, '')} is a directory, use -r to remove directories`);
  }
  return editEntry(session, root, dir, name, () => undefined, { threshold: options.threshold });
}

/**
 * `files/rm <path>...`: removes entries of the key's MFS (Kubo's `files rm`): a directory needs
 * `recursive` (`r`); `force` removes whatever is there and ignores what is not; `/` is never
 * removed; `flush=false` is refused (Kubo: rm always flushes). Every path that can be removed is,
 * in one change; the others' reasons are answered as Kubo does: a 200 whose body lists each
 * (`"<path>: <reason>"`, one JSON string per line) and an `X-Stream-Error` trailer.
 *
 * @example
 * await filesRm(request); // POST /api/v0/files/rm?arg=/a.txt&arg=/docs&recursive=true
 */
export async function filesRm(r: FilesRequest): Promise<void> {
  const o = readFilesOptions(r.params, {
    recursive: { type: 'bool', aliases: ['r'] },
    force: { type: 'bool' },
  });
  if (o.has('flush') && !o.bool('flush')) {
    throw mfsError('files rm always flushes for safety. The --flush flag cannot be set to false');
  }
  const args = r.params.getAll('arg');
  if (args.length === 0) throw mfsRequestError('argument "path" is required');
  const options = { recursive: o.bool('recursive'), force: o.bool('force'), threshold: r.mfs.threshold };
  const errors = await r.mfs.change(
    r.key,
    async (session, root) => {
      const failed: string[] = [];
      let next = root;
      for (const arg of args) {
        try {
          next = await removePath(session, next, arg, options);
        } catch (err) {
          if (!(err instanceof IpfsCommandError) || err.status < 500) throw err;
          failed.push(`${arg}: ${err.message}`);
        }
      }
      return { root: next, result: failed };
    },
    { signal: r.signal },
  );
  if (errors.length === 0) {
    await writeFilesAnswer(r.res, undefined);
    return;
  }
  r.res.writeHead(200, {
    ...IPFS_CORS_HEADERS,
    'content-type': 'application/json',
    trailer: 'X-Stream-Error',
    'x-chunked-output': '1',
  });
  r.res.write(errors.map((e) => `${JSON.stringify(e)}\n`).join(''));
  r.res.addTrailers({ 'X-Stream-Error': "can't remove some files" });
  r.res.end();
}
