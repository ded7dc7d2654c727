import { IPFS_CORS_HEADERS } from '../ipfsCors.js';
import { proxyToUpstream } from '../proxyToUpstream.js';
import type { FilesRequest } from './FilesRequest.js';
import { mfsError, mfsRequestError } from './mfsError.js';
import { checkPath } from './mfsPath.js';
import { lookupNode } from './mfsTree.js';
import { readFilesOptions } from './readFilesOptions.js';
import { fileSizeOf } from './writeFileData.js';

/**
 * `files/read <path>`: the bytes of a file in the key's MFS from `offset` (`o`), at most `count`
 * (`n`), with Kubo's refusals (negative offset or count, an offset past the end, a path that is
 * not a file). The bytes come from the upstream's `cat` of the file's CID, streamed through the
 * key's served-bytes meter exactly as `cat` answers are.
 *
 * @example
 * await filesRead(request); // the file's bytes, X-Stream-Output: 1
 */
export async function filesRead(r: FilesRequest): Promise<void> {
  const o = readFilesOptions(r.params, {
    offset: { type: 'int', aliases: ['o'] },
    count: { type: 'int', aliases: ['n'] },
  });
  const arg = r.params.get('arg');
  if (arg === null) throw mfsRequestError('argument "path" is required');
  const path = checkPath(arg);
  const session = r.mfs.session(r.signal);
  const node = await lookupNode(session, (await r.mfs.current(r.key)).root, path.parts);
  if (node.kind !== 'file') throw mfsError(`${path.path} was not a file`);
  const offset = o.int('offset') ?? 0;
  if (offset < 0) throw mfsError('cannot specify negative offset');
  const size = fileSizeOf(node);
  if (offset > size) throw mfsError(`offset was past end of file (${offset} > ${size})`);
  const count = o.int('count');
  if (count !== undefined && count < 0) throw mfsError("cannot specify negative 'count'");
  if (count === 0 || offset === size) {
    r.res.writeHead(200, {
      ...IPFS_CORS_HEADERS,
      'content-type': 'text/plain',
      'x-stream-output': '1',
      'content-length': '0',
    });
    r.res.end();
    return;
  }
  const query = new URLSearchParams({ arg: node.cid.toString(), offset: String(offset) });
  if (count !== undefined) query.set('length', String(count));
  const { upstream, limits } = r.ctx;
  proxyToUpstream(r.req, r.res, {
    upstream: upstream.url,
    agent: upstream.agent,
    path: `${r.ctx.basePath}/api/v0/cat?${query}`,
    headers: upstream.headers,
    idleTimeoutMs: upstream.idleTimeoutMs,
    maxRequestBytes: limits.maxRequestBytes,
    resetOnStreamError: r.ctx.resetOnStreamError,
    ...(r.meter ? { meter: r.meter } : {}),
  });
}
