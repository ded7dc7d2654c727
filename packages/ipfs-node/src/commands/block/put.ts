import { CID } from 'multiformats/cid';
import { codecOf } from '../../dag/codecs.js';
import { hasherOf, MAX_IDENTITY_DIGEST } from '../../dag/hashers.js';
import { IpfsNodeError } from '../../errors.js';
import { pinRecursive } from '../../pinning/pinRecursive.js';
import { readAll } from '../../util/readAll.js';
import type { CommandContext, CommandResult } from '../types.js';

/** Largest block `block/put` accepts without `allow-big-block`. */
export const BLOCK_SIZE_LIMIT = 2 * 1024 * 1024;

/**
 * `block/put`: stores each multipart part as one block (`cid-codec`, default raw; `format=v0`
 * gives a dag-pb CIDv0) and emits `{"Key","Size"}` per block; `pin` pins it recursively.
 */
export async function blockPut(ctx: CommandContext): Promise<CommandResult> {
  const format = ctx.options.string('format');
  let codecName = ctx.options.string('cid-codec') ?? 'raw';
  let version: 0 | 1 = 1;
  if (format !== undefined && format !== '') {
    if (format === 'v0' || format === 'protobuf' || format === 'dag-pb') {
      codecName = 'dag-pb';
      version = format === 'dag-pb' ? 1 : 0;
    } else if (format === 'cbor' || format === 'dag-cbor') codecName = 'dag-cbor';
    else codecName = format;
  }
  const codec = codecOf(codecName);
  const mhtype = ctx.options.string('mhtype') ?? 'sha2-256';
  const hasher = hasherOf(mhtype);
  const mhlen = ctx.options.int('mhlen') ?? -1;
  if (mhlen !== -1 && mhlen !== hasher.digest(new Uint8Array(0)).size) {
    throw new IpfsNodeError(
      'command',
      `multihash length ${mhlen} is not supported for ${hasher.name}: leave mhlen unset`,
    );
  }
  if (version === 0 && hasher.name !== 'sha2-256') {
    throw new IpfsNodeError('command', 'CIDv0 only supports sha2-256');
  }
  const allowBig = ctx.options.bool('allow-big-block');
  const pin = ctx.options.bool('pin');
  const values = async function* () {
    for await (const file of ctx.files()) {
      const bytes = await readAll(file.content, allowBig ? Number.POSITIVE_INFINITY : BLOCK_SIZE_LIMIT, () => {
        throw new IpfsNodeError(
          'command',
          `produced block is over ${BLOCK_SIZE_LIMIT / 1024 / 1024}MiB: big blocks can't be exchanged with other peers. consider using UnixFS for automatic chunking of bigger files, or pass --allow-big-block to override`,
        );
      });
      if (hasher.code === 0x00 && bytes.byteLength > MAX_IDENTITY_DIGEST) {
        throw new IpfsNodeError('command', `identity hash of ${bytes.byteLength} bytes is over ${MAX_IDENTITY_DIGEST}`);
      }
      const digest = hasher.digest(bytes);
      const cid = version === 0 ? CID.createV0(digest as never) : CID.createV1(codec.code, digest);
      await ctx.repo.gcLock.shared(async () => {
        await ctx.repo.blocks.put(cid, bytes, ctx.signal);
        if (pin) await pinRecursive(ctx.repo, cid, { signal: ctx.signal });
      });
      yield { Key: ctx.cidString(cid), Size: bytes.byteLength };
    }
  };
  return { kind: 'values', values: values() };
}
