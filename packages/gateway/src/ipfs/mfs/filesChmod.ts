import type { FilesRequest } from './FilesRequest.js';
import { mfsError, mfsRequestError } from './mfsError.js';
import { checkPath } from './mfsPath.js';
import { replaceNode } from './mfsTree.js';
import { readFilesOptions } from './readFilesOptions.js';
import { withMetadata } from './writeFileData.js';
import { writeFilesAnswer } from './writeFilesAnswer.js';

/**
 * `files/chmod <mode> <path>`: stores a POSIX mode (octal, Kubo's numeric notation: `0644`,
 * `755`) in a file or directory of the key's MFS; a raw-block file becomes a dag-pb file node
 * (only those carry metadata). Answers an empty 200.
 *
 * @example
 * await filesChmod(request); // POST /api/v0/files/chmod?arg=0600&arg=/secret.txt
 */
export async function filesChmod(r: FilesRequest): Promise<void> {
  readFilesOptions(r.params, {});
  const args = r.params.getAll('arg');
  if (args.length < 1) throw mfsRequestError('argument "mode" is required');
  if (args.length < 2) throw mfsRequestError('argument "path" is required');
  if (args.length > 2) throw mfsRequestError(`expected 2 argument(s), got ${args.length}`);
  if (!/^[0-7]{1,11}$/.test(args[0]!) || Number.parseInt(args[0]!, 8) > 0x7fffffff) {
    throw mfsError(`strconv.ParseInt: parsing ${JSON.stringify(args[0])}: invalid syntax`);
  }
  const mode = Number.parseInt(args[0]!, 8) & 0o7777;
  const path = checkPath(args[1]!);
  await r.mfs.change(
    r.key,
    async (session, root) => ({
      root: await replaceNode(
        session,
        root,
        path.parts,
        (node) => withMetadata(session, node, { mode, mtime: node.unixfs?.mtime }),
        { threshold: r.mfs.threshold },
      ),
      result: undefined,
    }),
    { signal: r.signal },
  );
  await writeFilesAnswer(r.res, undefined);
}
