import * as dagCbor from '@ipld/dag-cbor';
import { varint } from 'multiformats';
import { parseCid } from '../../dag/parseCid.js';
import { walkDag } from '../../dag/walkDag.js';
import type { CommandContext, CommandResult } from '../types.js';

/**
 * `dag/export`: the DAG under a root as a CARv1 stream (depth-first, each block once), reading
 * blocks only as fast as the client takes them. The root is read first, so a missing root is a 500.
 */
export async function dagExport(ctx: CommandContext): Promise<CommandResult> {
  const root = await parseCid(ctx.repo.blocks, ctx.args[0]!, ctx.signal);
  await ctx.repo.blocks.get(root, ctx.signal);
  const store = ctx.repo.blocks;
  const signal = ctx.signal;
  async function* car(): AsyncGenerator<Uint8Array> {
    yield frame(dagCbor.encode({ roots: [root], version: 1 }));
    for await (const block of walkDag(store, root, { signal })) {
      const bytes = block.bytes!;
      const cidBytes = block.cid.bytes;
      const head = varint.encodeTo(cidBytes.byteLength + bytes.byteLength, new Uint8Array(10));
      const len = varint.encodingLength(cidBytes.byteLength + bytes.byteLength);
      yield concat(head.subarray(0, len), cidBytes);
      yield bytes;
    }
  }
  return { kind: 'bytes', body: car() };
}

function frame(payload: Uint8Array): Uint8Array {
  const len = varint.encodingLength(payload.byteLength);
  const out = new Uint8Array(len + payload.byteLength);
  varint.encodeTo(payload.byteLength, out);
  out.set(payload, len);
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
