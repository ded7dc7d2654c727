import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { CID } from 'multiformats/cid';
import { resolvePath } from '../dag/resolvePath.js';
import type { BlockStore } from '../repo/BlockStore.js';
import { inspectNode, type NodeInfo } from '../unixfs/inspectNode.js';
import { listDirectory } from '../unixfs/listDirectory.js';
import { readFileContent } from '../unixfs/readFileContent.js';
import { type TarEntry, tarArchive } from '../unixfs/tarArchive.js';
import type { CommandContext, CommandResult } from './types.js';

/**
 * `get`: a file or directory tree as a tar stream named after the path's last segment (the CID
 * for a bare CID); with `compress`, gzip-compressed (a lone file without `archive` is gzipped raw).
 */
export async function get(ctx: CommandContext): Promise<CommandResult> {
  const arg = ctx.args[0]!;
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
  if (root.type === 'file' && ctx.options.bool('compress') && !ctx.options.bool('archive')) {
    const file = await readFileContent(store, cid, signal);
    body = file.read({ signal });
  } else {
    body = tarArchive(entries(store, root, name, signal));
  }
  if (ctx.options.bool('compress')) {
    const level = ctx.options.int('compression-level') ?? -1;
    const gzip = createGzip(level >= 1 && level <= 9 ? { level } : {});
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
  if (node.type === 'symlink') {
    yield { type: 'symlink', name, target: node.target ?? '' };
    return;
  }
  if (node.type === 'file') {
    const file = await readFileContent(store, node.cid, signal);
    yield { type: 'file', name, size: file.size, content: file.read({ signal }) };
    return;
  }
  yield { type: 'directory', name };
  const children: Array<{ name: string; cid: CID }> = [];
  for await (const child of listDirectory(store, node, signal)) children.push(child);
  for (const child of children) {
    yield* entries(store, await inspectNode(store, child.cid, signal), `${name}/${child.name}`, signal);
  }
}
