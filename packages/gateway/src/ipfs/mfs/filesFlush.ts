import type { FilesRequest } from './FilesRequest.js';
import { checkPath } from './mfsPath.js';
import { lookupNode } from './mfsTree.js';
import { readFilesOptions } from './readFilesOptions.js';
import { writeFilesAnswer } from './writeFilesAnswer.js';

/**
 * `files/flush [path]` (default `/`): `{"Cid":"<cid>"}` of that path in the key's MFS. Every
 * change is stored when it is made (`flush=false` changes nothing here), so flushing only reads
 * the path; a missing path is `file does not exist`.
 *
 * @example
 * await filesFlush(request); // {"Cid":"QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn"}
 */
export async function filesFlush(r: FilesRequest): Promise<void> {
  readFilesOptions(r.params, {});
  const path = checkPath(r.params.get('arg') ?? '/');
  const session = r.mfs.session(r.signal);
  const node = await lookupNode(session, (await r.mfs.current(r.key)).root, path.parts);
  await writeFilesAnswer(r.res, { Cid: node.cid.toString() });
}
