import { dagPbPrefix } from './blockPrefix.js';
import { isDirectory } from './directoryEntries.js';
import type { FilesRequest } from './FilesRequest.js';
import { mfsError } from './mfsError.js';
import { checkPath } from './mfsPath.js';
import { replaceNode } from './mfsTree.js';
import { CID_OPTIONS, readCidPrefix } from './readCidPrefix.js';
import { readFilesOptions } from './readFilesOptions.js';
import { writeFilesAnswer } from './writeFilesAnswer.js';

/**
 * `files/chcid [path]` (default `/`): re-encodes a directory of the key's MFS under the CID
 * prefix `cid-version`/`hash` ask for (without either it does nothing, as Kubo); its new entries
 * inherit it. Only directories (`can only update directories`). Answers an empty 200.
 *
 * @example
 * await filesChcid(request); // POST /api/v0/files/chcid?arg=/docs&cid-version=1
 */
export async function filesChcid(r: FilesRequest): Promise<void> {
  const o = readFilesOptions(r.params, CID_OPTIONS);
  const path = checkPath(r.params.get('arg') ?? '/');
  const prefix = readCidPrefix(o);
  if (prefix !== undefined) {
    await r.mfs.change(
      r.key,
      async (session, root) => ({
        root: await replaceNode(
          session,
          root,
          path.parts,
          (node) => {
            if (!isDirectory(node) || node.pb === undefined) throw mfsError('can only update directories');
            return session.makeNode(node.pb, dagPbPrefix(prefix));
          },
          { threshold: r.mfs.threshold },
        ),
        result: undefined,
      }),
      { signal: r.signal },
    );
  }
  await writeFilesAnswer(r.res, undefined);
}
