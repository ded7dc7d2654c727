import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { CID } from 'multiformats/cid';
import { resolvePath } from '../dag/resolvePath.js';
import { IpfsNodeError } from '../errors.js';
import type { BlockStore } from '../repo/BlockStore.js';
import { inspectNode, type NodeInfo } from '../unixfs/inspectNode.js';
import { listDirectory } from '../unixfs/listDirectory.js';
import { readFileContent } from '../unixfs/readFileContent.js';
import { type TarEntry, tarArchive } from '../unixfs/tarArchive.js';
import { unixfsMetadata } from '../unixfs/unixfsMetadata.js';
import type { CommandContext, CommandResult } from './types.js';

/**
 * `get`: a file or directory tree as a tar stream named after the path's last segment (the CID
 * for a bare CID), directory entries without a trailing `/` and with the mode and mtime the
 * nodes store, as Kubo writes them; with `compress`, gzip-compressed (a lone file without
 * `archive` is gzipped raw; a directory needs `archive`). `compression-level`, when given with
 * `compress`, must be 1 to 9.
 */
export async function get(ctx: CommandContext): Promise<CommandResult> {
  const arg = ctx.args[0]!;
  const compress = ctx.options.bool('compress');
  const level = ctx.options.has('compression-level') ? (ctx.options.int('compression-level') ?? -1) : undefined;
  if (compress && level !== undefined && (level < 1 || level > 9)) {
    throw new IpfsNodeError('command', 'compression level must be between 1 and 9');
  }
  const { cid } = await resolvePath(ctx.repo.blocks, arg, ctx.signal);
  const root = await inspectNode(ctx.repo.blocks, cid, ctx.signal);
  const segments = arg
    .replace(/^\/ip[fl]d\//, '')
    .split('/')
    .filter((s) => s !== '');
  const name = segments.at(-1) ?? cid.toString();
  const store = ctx.repo.blocks;
  const signal = ctx.signal;
  let body: AsyncIterable<Uint8Array>;
  if (compress && !ctx.options.bool('archive')) {
    // without archive, compress applies to a file's bytes: a directory has none
    if (root.type !== 'file') throw new IpfsNodeError('command', 'file is not regular');
    const file = await readFileContent(store, cid, signal);
    body = file.read({ signal });
  } else {
    body = tarArchive(entries(store, root, name, signal));
  }
  if (compress) {
    const gzip = createGzip(level === undefined ? {} : { level });
    // pipeline (unlike pipe) hands a failure of the source on to the gzip stream's reader
    pipeline(Readable.from(body), gzip, () => undefined);
    body = gzip;
  }
  const result: CommandResult = { kind: 'bytes', body };
  if (root.type === 'file') result.length = root.size;
  return result;
}

async function* entries(
  store: BlockStore,
  node: NodeInfo,
  name: string,
  signal: AbortSignal,
): AsyncGenerator<TarEntry> {
  const meta = node.node?.Data === undefined ? {} : unixfsMetadata(node.node.Data);
  const stored = {
    ...(meta.mode === undefined ? {} : { mode: meta.mode }),
    ...(meta.mtime === undefined ? {} : { mtime: meta.mtime }),
  };
  if (node.type === 'symlink') {
    yield { type: 'symlink', name, target: node.target ?? '', ...stored };
    return;
  }
  if (node.type === 'file') {
    const file = await readFileContent(store, node.cid, signal);
    yield { type: 'file', name, size: file.size, content: file.read({ signal }), ...stored };
    return;
  }
  yield { type: 'directory', name, ...stored };
  const children: Array<{ name: string; cid: CID }> = [];
  for await (const child of listDirectory(store, node, signal)) children.push(child);
  for (const child of children) {
    yield* entries(store, await inspectNode(store, child.cid, signal), `${name}/${child.name}`, signal);
  }
}
