import * as dagPb from '@ipld/dag-pb';
import { codecOf } from '../../dag/codecs.js';
import { resolvePath } from '../../dag/resolvePath.js';
import { IpfsNodeError } from '../../errors.js';
import type { CommandContext, CommandResult } from '../types.js';

/**
 * `dag/get`: the node (or the value a path points at inside it) re-encoded with `output-codec`
 * (dag-json by default; `raw` returns a node's block bytes or a bytes value as is).
 */
export async function dagGet(ctx: CommandContext): Promise<CommandResult> {
  const outName = ctx.options.string('output-codec') ?? 'dag-json';
  const { cid, remainder, value } = await resolvePath(ctx.repo.blocks, ctx.args[0]!, ctx.signal);
  let bytes: Uint8Array;
  if (remainder.length === 0) {
    const block = await ctx.repo.blocks.get(cid, ctx.signal);
    if (outName === 'raw' || outName === codecOf(cid.code).name) {
      bytes = block;
    } else {
      bytes = encode(outName, decodeBlock(cid.code, block));
    }
  } else if (outName === 'raw') {
    if (!(value instanceof Uint8Array)) {
      throw new IpfsNodeError('command', 'cannot encode a non-bytes value with the raw codec');
    }
    bytes = value;
  } else {
    bytes = encode(outName, value);
  }
  return {
    kind: 'bytes',
    body: (async function* () {
      yield bytes;
    })(),
  };
}

function decodeBlock(code: number, block: Uint8Array): unknown {
  if (code === dagPb.code) {
    // the dag-pb data model, without absent optional fields (dag-json cannot encode undefined)
    const node = dagPb.decode(block);
    const out: Record<string, unknown> = {
      Links: node.Links.map((l) => {
        const link: Record<string, unknown> = { Hash: l.Hash };
        if (l.Name !== undefined) link.Name = l.Name;
        if (l.Tsize !== undefined) link.Tsize = l.Tsize;
        return link;
      }),
    };
    if (node.Data !== undefined) out.Data = node.Data;
    return out;
  }
  return codecOf(code).decode(block);
}

function encode(codecName: string, value: unknown): Uint8Array {
  if (codecName === 'dag-pb') return dagPb.encode(dagPb.prepare(value as dagPb.PBNode));
  return codecOf(codecName).encode(value);
}
