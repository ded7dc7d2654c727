import { findEntry, isDirectory } from './directoryEntries.js';
import type { FilesRequest } from './FilesRequest.js';
import { ENTRY_EXISTS, mfsError, mfsRequestError, NOT_EXIST } from './mfsError.js';
import { checkPath, splitParent } from './mfsPath.js';
import { editEntry, lookupNode } from './mfsTree.js';
import { readFilesOptions } from './readFilesOptions.js';
import { writeFilesAnswer } from './writeFilesAnswer.js';

/**
 * `files/mv <source> <dest>` within the key's MFS (boxo's `mfs.Mv`): a destination ending in `/`,
 * or naming an existing directory, receives the source under its own name; an existing file at
 * the destination is replaced; an entry of that name already in the receiving directory is
 * refused. Moving a directory into itself is refused (Kubo would lose it). Answers an empty 200.
 *
 * @example
 * await filesMv(request); // POST /api/v0/files/mv?arg=/a.txt&arg=/docs/
 */
export async function filesMv(r: FilesRequest): Promise<void> {
  readFilesOptions(r.params, {});
  const args = r.params.getAll('arg');
  if (args.length < 1) throw mfsRequestError('argument "source" is required');
  if (args.length < 2) throw mfsRequestError('argument "dest" is required');
  if (args.length > 2) throw mfsRequestError(`expected 2 argument(s), got ${args.length}`);
  const src = checkPath(args[0]!);
  const dst = checkPath(args[1]!);
  const from = splitParent(src);
  if (from.name === undefined) throw mfsError('cannot move the root directory');
  await r.mfs.change(
    r.key,
    async (session, root) => {
      const srcDir = await lookupNode(session, root, from.dir);
      if (!isDirectory(srcDir)) throw mfsError(`/${from.dir.join('/')} is not a directory`);
      const moved = await findEntry(session, srcDir, from.name!);
      if (moved === undefined) throw mfsError(NOT_EXIST);
      // where it goes: into a directory named by the destination, else under the destination's name
      let dir = dst.trailingSlash ? dst.parts : dst.parts.slice(0, -1);
      let name = dst.trailingSlash ? from.name! : (dst.parts.at(-1) ?? from.name!);
      let replace = false;
      const receiving = await lookupNode(session, root, dir);
      if (!isDirectory(receiving)) throw mfsError(`/${dir.join('/')} is not a directory`);
      const there = dst.parts.length === 0 || dst.trailingSlash ? undefined : await findEntry(session, receiving, name);
      if (dst.parts.length === 0 || (there !== undefined && isDirectory(await session.load(there.cid)))) {
        dir = dst.parts;
        name = from.name!;
      } else if (there !== undefined) replace = true;
      const srcPath = [...from.dir, from.name!];
      const same = (a: readonly string[], b: readonly string[]) =>
        a.length === b.length && a.every((p, i) => p === b[i]);
      if (same(dst.parts, srcPath) || (same(dir, from.dir) && name === from.name)) return { root, result: undefined };
      const inside = dir.length >= srcPath.length && same(dir.slice(0, srcPath.length), srcPath);
      if (inside && isDirectory(await session.load(moved.cid))) throw mfsError(`cannot move ${src.path} into itself`);
      const target = await lookupNode(session, root, dir);
      if (!isDirectory(target)) throw mfsError(`/${dir.join('/')} is not a directory`);
      if (!replace && (await findEntry(session, target, name)) !== undefined) throw mfsError(ENTRY_EXISTS);
      const options = { threshold: r.mfs.threshold };
      const removed = await editEntry(session, root, from.dir, from.name!, () => undefined, options);
      const next = await editEntry(session, removed, dir, name, () => moved, options);
      return { root: next, result: undefined };
    },
    { signal: r.signal },
  );
  await writeFilesAnswer(r.res, undefined);
}
