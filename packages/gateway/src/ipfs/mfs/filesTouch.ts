import type { FilesRequest } from './FilesRequest.js';
import { mfsError, mfsRequestError } from './mfsError.js';
import { checkPath } from './mfsPath.js';
import { replaceNode } from './mfsTree.js';
import { readFilesOptions } from './readFilesOptions.js';
import type { UnixfsMtime } from './unixfsData.js';
import { withMetadata } from './writeFileData.js';
import { writeFilesAnswer } from './writeFilesAnswer.js';

/**
 * `files/touch <path>`: stores a modification time in a file or directory of the key's MFS:
 * `mtime` seconds (and `mtime-nsecs`), or now when `mtime` is not given (Kubo's `files touch`;
 * the path must exist). Answers an empty 200.
 *
 * @example
 * await filesTouch(request); // POST /api/v0/files/touch?arg=/a.txt&mtime=1630937926
 */
export async function filesTouch(r: FilesRequest): Promise<void> {
  const o = readFilesOptions(r.params, { mtime: { type: 'int' }, 'mtime-nsecs': { type: 'int' } });
  const arg = r.params.get('arg');
  if (arg === null) throw mfsRequestError('argument "path" is required');
  const path = checkPath(arg);
  const secs = o.int('mtime');
  const nsecs = o.int('mtime-nsecs') ?? 0;
  if (secs !== undefined && secs < 0)
    throw mfsRequestError(`Could not convert value "${secs}" to type "uint64" (for option "-mtime")`);
  if (nsecs < 0 || nsecs > 999_999_999) throw mfsError('mtime-nsecs must be within the range [0,999999999]');
  let mtime: UnixfsMtime;
  if (secs !== undefined && secs !== 0) mtime = { secs: BigInt(secs), nsecs };
  else {
    const now = Date.now();
    mtime = { secs: BigInt(Math.floor(now / 1000)), nsecs: (now % 1000) * 1_000_000 };
  }
  await r.mfs.change(
    r.key,
    async (session, root) => ({
      root: await replaceNode(
        session,
        root,
        path.parts,
        (node) => withMetadata(session, node, { mode: node.unixfs?.mode, mtime }),
        { threshold: r.mfs.threshold },
      ),
      result: undefined,
    }),
    { signal: r.signal },
  );
  await writeFilesAnswer(r.res, undefined);
}
