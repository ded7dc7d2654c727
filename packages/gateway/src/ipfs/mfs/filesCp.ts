import type { CID } from 'multiformats/cid';
import { IpfsCommandError } from '../IpfsCommandError.js';
import type { FilesRequest } from './FilesRequest.js';
import { ENTRY_EXISTS, mfsError, mfsRequestError } from './mfsError.js';
import { checkPath, splitParent } from './mfsPath.js';
import type { MfsNode, MfsSession } from './MfsSession.js';
import { editEntry, linkTo, lookupNode } from './mfsTree.js';
import { readFilesOptions } from './readFilesOptions.js';
import { isIpfsPath, resolveIpfsPath } from './resolveIpfsPath.js';
import { writeFilesAnswer } from './writeFilesAnswer.js';

const cannotGet = (source: string, err: unknown): unknown =>
  err instanceof IpfsCommandError && err.status >= 500
    ? mfsError(`cp: cannot get node from path ${source}: ${err.message}`)
    : err;

/** The source of a copy: an `/ipfs/…` path (any CID the node has, as `cat` reads) or the key's own MFS. */
async function sourceNode(r: FilesRequest, session: MfsSession, root: CID, source: string): Promise<MfsNode> {
  if (!isIpfsPath(source)) {
    try {
      return await lookupNode(session, root, checkPath(source).parts);
    } catch (err) {
      throw cannotGet(source, err);
    }
  }
  let cid: CID;
  try {
    cid = await resolveIpfsPath(r.ctx.upstream, source, r.signal);
  } catch (err) {
    throw cannotGet(source, err);
  }
  try {
    return await session.load(cid);
  } catch (err) {
    if (err instanceof IpfsCommandError && /codec|UnixFS|node type/.test(err.message)) {
      throw mfsError('cp: source must be a valid UnixFS (dag-pb or raw codec)');
    }
    throw cannotGet(source, err);
  }
}

/**
 * `files/cp <source> <dest>`: puts a node into the key's MFS (Kubo's `files cp`): the source is
 * an `/ipfs/…` path (any content the node has, whoever stored it: reading it is allowed to every
 * key, as `cat` is; once copied it counts in this key's stored bytes and its MFS keeps it) or a
 * path of the key's own MFS (never another key's). A destination ending in `/` takes the
 * source's name; an existing entry there is refused (`directory already has entry by that
 * name`); `parents` (`p`) makes missing directories. Only UnixFS (dag-pb or raw) can be copied.
 * Answers an empty 200.
 *
 * @example
 * await filesCp(request); // POST /api/v0/files/cp?arg=/ipfs/QmWSgS…&arg=/planets
 */
export async function filesCp(r: FilesRequest): Promise<void> {
  const o = readFilesOptions(r.params, { parents: { type: 'bool', aliases: ['p'] } });
  const args = r.params.getAll('arg');
  if (args.length < 1) throw mfsRequestError('argument "source" is required');
  if (args.length < 2) throw mfsRequestError('argument "dest" is required');
  if (args.length > 2) throw mfsRequestError(`expected 2 argument(s), got ${args.length}`);
  const source = isIpfsPath(args[0]!) ? args[0]!.replace(/\/+$/, '') : checkPath(args[0]!).path.replace(/\/+$/, '');
  let dest = checkPath(args[1]!);
  if (dest.trailingSlash) dest = checkPath(`${dest.path}${source.split('/').at(-1) ?? ''}`);
  const { dir, name } = splitParent(dest);
  await r.mfs.change(
    r.key,
    async (session, root) => {
      const node = await sourceNode(r, session, root, source);
      if (name === undefined)
        throw mfsError(`cp: cannot put node in path ${dest.path}: cannot create file with empty name`);
      try {
        const next = await editEntry(
          session,
          root,
          dir,
          name,
          (current) => {
            if (current !== undefined) throw mfsError(ENTRY_EXISTS);
            return linkTo(name, node);
          },
          { parents: o.bool('parents'), threshold: r.mfs.threshold },
        );
        return { root: next, result: undefined };
      } catch (err) {
        if (err instanceof IpfsCommandError && err.status >= 500) {
          throw mfsError(`cp: cannot put node in path ${dest.path}: ${err.message}`);
        }
        throw err;
      }
    },
    { signal: r.signal },
  );
  await writeFilesAnswer(r.res, undefined);
}
