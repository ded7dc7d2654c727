import { resolvePath } from '../dag/resolvePath.js';
import { inspectNode } from '../unixfs/inspectNode.js';
import { goFileMode, goTimeJson } from '../unixfs/goFileMode.js';
import { listDirectory } from '../unixfs/listDirectory.js';
import { unixfsMetadata } from '../unixfs/unixfsMetadata.js';
import type { CommandContext, CommandResult } from './types.js';

/** Kubo's UnixFS type numbers in `ls` output. */
const TYPE = { raw: 0, directory: 1, file: 2, symlink: 4 } as const;

interface LsLink {
  Name: string;
  Hash: string;
  Size: number;
  Type: number;
  Target: string;
  /** UnixFS mode as Go's os.FileMode (0: none stored), as current Kubo answers. */
  Mode: number;
  /** UnixFS mtime as Go's time.Time JSON (zero time: none stored). */
  ModTime: string;
}

/**
 * `ls`: the links of each directory (a chunked file lists its chunks), as
 * `{"Objects":[{"Hash","Links":[{Name,Hash,Size,Type,Target,Mode,ModTime}]}]}` (Mode and
 * ModTime: the UnixFS 1.5 metadata each entry stores, read when types or sizes are resolved);
 * with `stream`, one object per line as entries are read.
 */
export async function ls(ctx: CommandContext): Promise<CommandResult> {
  const resolveType = ctx.options.bool('resolve-type');
  const withSize = ctx.options.bool('size');
  const store = ctx.repo.blocks;
  const signal = ctx.signal;
  const objects: Array<{ Hash: string; Links: LsLink[] }> = [];
  for (const arg of ctx.args) {
    const { cid } = await resolvePath(store, arg, signal);
    const node = await inspectNode(store, cid, signal);
    const links: LsLink[] = [];
    if (node.type === 'directory' || node.type === 'hamt') {
      for await (const child of listDirectory(store, node, signal)) {
        let type: number = TYPE.file;
        let size = 0n;
        let target = '';
        let mode = 0;
        let modTime = goTimeJson(undefined);
        if (resolveType || withSize) {
          const info = await inspectNode(store, child.cid, signal);
          type = info.type === 'hamt' ? TYPE.directory : TYPE[info.type];
          size = info.type === 'file' ? info.size : 0n;
          target = info.target ?? '';
          const meta = info.node?.Data === undefined ? {} : unixfsMetadata(info.node.Data);
          mode = goFileMode(meta.mode, info.type === 'hamt' ? 'directory' : info.type);
          modTime = goTimeJson(meta.mtime);
        }
        links.push({
          Name: child.name,
          Hash: ctx.cidString(child.cid),
          Size: withSize ? Number(size) : 0,
          Type: type,
          Target: target,
          Mode: mode,
          ModTime: modTime,
        });
      }
    } else if (node.type === 'file' && node.node !== undefined) {
      node.node.Links.forEach((link, i) => {
        const size = node.blockSizes?.[i] ?? 0n;
        links.push({
          Name: link.Name ?? '',
          Hash: ctx.cidString(link.Hash),
          Size: Number(size),
          Type: TYPE.file,
          Target: '',
          Mode: 0,
          ModTime: goTimeJson(undefined),
        });
      });
    }
    objects.push({ Hash: arg, Links: links });
  }
  if (ctx.options.bool('stream')) {
    return {
      kind: 'values',
      values: (async function* () {
        for (const o of objects) yield { Objects: [o] };
      })(),
    };
  }
  return { kind: 'value', value: { Objects: objects } };
}
