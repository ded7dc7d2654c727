import type { CID } from 'multiformats/cid';
import { IpfsCommandError } from '../IpfsCommandError.js';
import { storedLimitMessage } from '../storedLimitMessage.js';
import { type BlockPrefix, prefixOf } from './blockPrefix.js';
import { ByteReader } from './ByteReader.js';
import { findEntry, isDirectory } from './directoryEntries.js';
import type { FilesRequest } from './FilesRequest.js';
import { mfsError, mfsRequestError, NOT_EXIST } from './mfsError.js';
import { checkPath, splitParent } from './mfsPath.js';
import type { MfsNode, MfsSession } from './MfsSession.js';
import { editEntry, linkTo } from './mfsTree.js';
import { CID_OPTIONS, readCidPrefix } from './readCidPrefix.js';
import { METADATA_OPTIONS, readFilesOptions, readMetadata } from './readFilesOptions.js';
import { readFirstFilePart } from './readFirstFilePart.js';
import { emptyFile, writeFileData } from './writeFileData.js';
import { writeFilesAnswer } from './writeFilesAnswer.js';

/**
 * The file at `parts` (undefined when missing) and the CID prefix of the deepest directory on the
 * way (a new file, and directories `parents` creates, inherit it).
 */
async function findTarget(
  session: MfsSession,
  root: CID,
  parts: readonly string[],
): Promise<{ file: MfsNode | undefined; parentPrefix: BlockPrefix }> {
  let node = await session.load(root);
  let parentPrefix = prefixOf(root);
  for (let i = 0; i < parts.length; i++) {
    if (!isDirectory(node)) throw mfsError(`cannot access ${parts.slice(0, i + 1).join('/')}: Not a directory`);
    parentPrefix = prefixOf(node.cid);
    const entry = await findEntry(session, node, parts[i]!);
    if (entry === undefined) return { file: undefined, parentPrefix };
    node = await session.load(entry.cid);
  }
  return { file: node, parentPrefix };
}

/**
 * `files/write <path>` with one multipart file: writes its bytes into the file at `offset` (`o`),
 * at most `count` (`n`) of them, as Kubo does: `create` (`e`) makes a missing file, `parents`
 * (`p`) the directories on the way, `truncate` (`t`) empties the file first; `raw-leaves`,
 * `cid-version` and `hash` choose how new nodes are made (a new file inherits its directory's CID
 * prefix), `mode`, `mtime` and `mtime-nsecs` set its metadata. The bytes count against the key's
 * storage quota as they arrive (its upload ledger), and the whole change is refused with 413
 * when the tree would grow past it. Answers an empty 200.
 *
 * @example
 * await filesWrite(request); // POST /api/v0/files/write?arg=/a.txt&create=true (multipart)
 */
export async function filesWrite(r: FilesRequest): Promise<void> {
  const o = readFilesOptions(r.params, {
    offset: { type: 'int', aliases: ['o'] },
    create: { type: 'bool', aliases: ['e'] },
    parents: { type: 'bool', aliases: ['p'] },
    truncate: { type: 'bool', aliases: ['t'] },
    count: { type: 'int', aliases: ['n'] },
    'raw-leaves': { type: 'bool' },
    ...CID_OPTIONS,
    ...METADATA_OPTIONS,
  });
  const arg = r.params.get('arg');
  if (arg === null) throw mfsRequestError('argument "path" is required');
  const path = checkPath(arg);
  const offset = o.int('offset') ?? 0;
  if (offset < 0) throw mfsError('cannot have negative write offset');
  const count = o.int('count');
  if (count !== undefined && count < 0) throw mfsError('cannot have negative byte count');
  const prefix = readCidPrefix(o);
  const meta = readMetadata(o);
  const { dir, name } = splitParent(path);
  const create = o.bool('create');
  const parents = o.bool('parents');

  const { ctx, key } = r;
  const limit = ctx.limits.maxStoredBytesPerKey;
  const upload = ctx.uploads.open(key);
  let forwarded = 0;
  try {
    const used = (await ctx.pins.storedBytes(key)) + upload.pendingAtOpen;
    const declared = Number(r.req.headers['content-length'] ?? 0);
    if (used >= limit || used + declared > limit) throw new IpfsCommandError(413, storedLimitMessage(used, limit), 1);
    const content = readFirstFilePart(r.req, {
      maxBodyBytes: ctx.limits.maxRequestBytes,
      maxContentBytes: count,
      admit: (bytes) => {
        if (used + upload.forwardedSinceOpen() + bytes > limit) return false;
        upload.add(bytes);
        forwarded += bytes;
        return true;
      },
      refusal: () => storedLimitMessage(used, limit),
    });
    let written: { base: CID | undefined; node: MfsNode } | undefined;
    await r.mfs.change(
      key,
      async (session, root) => {
        const target = await findTarget(session, root, path.parts);
        if (written === undefined) {
          if (target.file !== undefined && target.file.kind !== 'file' && target.file.kind !== 'symlink') {
            throw mfsError(`${path.path} was not a file`);
          }
          if (target.file === undefined && (!create || name === undefined)) throw mfsError(NOT_EXIST);
          const file = target.file ?? emptyFile(session, prefix ?? target.parentPrefix);
          const node = await writeFileData(session, file, new ByteReader(content), {
            offset,
            truncate: o.bool('truncate'),
            rawLeaves: o.has('raw-leaves') ? o.bool('raw-leaves') : undefined,
            prefix: target.file === undefined ? undefined : prefix,
            mode: meta.mode,
            mtime: meta.mtime,
            maxGap: ctx.limits.maxRequestBytes,
          });
          written = { base: target.file?.cid, node };
        } else {
          // another gateway instance changed the key's MFS meanwhile: the write lands only on the file it read
          const base = written.base;
          const same = base === undefined ? target.file === undefined : target.file?.cid.equals(base) === true;
          if (!same)
            throw mfsError('the file changed while it was being written (another gateway instance): write again');
        }
        if (target.file !== undefined && written.node.cid.equals(target.file.cid)) return { root, result: undefined };
        const node = written.node;
        const next = await editEntry(session, root, dir, name!, () => linkTo(name!, node), {
          parents,
          newDirectoryPrefix: prefix,
          threshold: r.mfs.threshold,
        });
        return { root: next, result: undefined };
      },
      { signal: r.signal, ownPendingBytes: () => forwarded },
    );
  } finally {
    upload.close();
  }
  await writeFilesAnswer(r.res, undefined);
}
