import { emptyDirectory, isDirectory } from './directoryEntries.js';
import type { FilesRequest } from './FilesRequest.js';
import { mfsError, mfsRequestError } from './mfsError.js';
import { checkPath, splitParent } from './mfsPath.js';
import { editEntry, KEEP, linkTo } from './mfsTree.js';
import { prefixOf } from './blockPrefix.js';
import { CID_OPTIONS, readCidPrefix } from './readCidPrefix.js';
import { METADATA_OPTIONS, readFilesOptions, readMetadata } from './readFilesOptions.js';
import { writeFilesAnswer } from './writeFilesAnswer.js';

/**
 * `files/mkdir <path>`: makes a directory in the key's MFS (Kubo's `mfs.Mkdir`): `parents` (`p`)
 * makes the missing ones on the way and accepts one that exists; without it, an existing name is
 * `file already exists` and `/` is refused. The new directory takes `cid-version`/`hash` when
 * given (else its parent's CID prefix), and `mode`, `mtime`, `mtime-nsecs`. Answers an empty 200.
 *
 * @example
 * await filesMkdir(request); // POST /api/v0/files/mkdir?arg=/a/b&parents=true
 */
export async function filesMkdir(r: FilesRequest): Promise<void> {
  const o = readFilesOptions(r.params, {
    parents: { type: 'bool', aliases: ['p'] },
    ...CID_OPTIONS,
    ...METADATA_OPTIONS,
  });
  const arg = r.params.get('arg');
  if (arg === null) throw mfsRequestError('argument "path" is required');
  if (arg === '') throw mfsError('no path given to Mkdir');
  const path = checkPath(arg);
  const parents = o.bool('parents');
  const prefix = readCidPrefix(o);
  const meta = readMetadata(o);
  const { dir, name } = splitParent(path);
  if (name === undefined) {
    if (!parents) throw mfsError("cannot create directory '/': Already exists");
  } else {
    await r.mfs.change(
      r.key,
      async (session, root) => ({
        root: await editEntry(
          session,
          root,
          dir,
          name,
          async (current, parent) => {
            if (current !== undefined) {
              if (parents && isDirectory(await session.load(current.cid))) return KEEP;
              throw mfsError('file already exists');
            }
            return linkTo(name, emptyDirectory(session, prefix ?? prefixOf(parent.cid), meta));
          },
          { parents, newDirectoryPrefix: prefix, threshold: r.mfs.threshold },
        ),
        result: undefined,
      }),
      { signal: r.signal },
    );
  }
  await writeFilesAnswer(r.res, undefined);
}
