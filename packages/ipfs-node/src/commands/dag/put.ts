import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { codecOf } from '../../dag/codecs.js';
import { hasherOf } from '../../dag/hashers.js';
import { IpfsNodeError } from '../../errors.js';
import { pinRecursive } from '../../pinning/pinRecursive.js';
import { readAll } from '../../util/readAll.js';
import { BLOCK_SIZE_LIMIT } from '../block/put.js';
import type { CommandContext, CommandResult } from '../types.js';

/**
 * `dag/put`: decodes each multipart part with `input-codec` (dag-json by default), stores it
 * encoded with `store-codec` (dag-cbor by default), always in that codec's canonical form, and emits `{"Cid":{"/":…}}` per node.
 */
export async function dagPut(ctx: CommandContext): Promise<CommandResult> {
  const store = codecOf(ctx.options.string('store-codec') ?? 'dag-cbor');
  const input = codecOf(ctx.options.string('input-codec') ?? 'dag-json');
  const hasher = hasherOf(ctx.options.string('hash') ?? 'sha2-256');
  const pin = ctx.options.bool('pin');
  const values = async function* () {
    for await (const file of ctx.files()) {
      const data = await readAll(file.content, BLOCK_SIZE_LIMIT * 2, () => {
        throw new IpfsNodeError('command', 'dag/put: node too large');
      });
      let bytes: Uint8Array;
      if (input.name === 'raw' && store.name === 'raw') {
        bytes = data;
      } else {
        // decoded and encoded again, as Kubo does: the stored block is the store codec's
        // canonical form (sorted map keys…) whatever order the client sent
        let value: unknown;
        try {
          value = input.decode(data);
        } catch (err) {
          throw new IpfsNodeError('command', `failed to decode ${input.name} input: ${(err as Error).message}`, {
            cause: err,
          });
        }
        if (store.name === 'raw' && !(value instanceof Uint8Array)) {
          throw new IpfsNodeError('command', 'raw store codec needs bytes input');
        }
        bytes = store.name === 'dag-pb' ? dagPb.encode(dagPb.prepare(value as dagPb.PBNode)) : store.encode(value);
      }
      const cid = CID.createV1(store.code, hasher.digest(bytes));
      await ctx.repo.gcLock.shared(async () => {
        await ctx.repo.blocks.put(cid, bytes, ctx.signal);
        if (pin) await pinRecursive(ctx.repo, cid, { signal: ctx.signal });
      });
      yield { Cid: { '/': ctx.cidString(cid) } };
    }
  };
  return { kind: 'values', values: values() };
}
