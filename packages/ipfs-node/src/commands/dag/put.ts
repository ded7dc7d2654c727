import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { sha256, sha512 } from 'multiformats/hashes/sha2';
import { codecOf } from '../../dag/codecs.js';
import { IpfsNodeError } from '../../errors.js';
import { pinRecursive } from '../../pinning/pinRecursive.js';
import { readAll } from '../../util/readAll.js';
import { BLOCK_SIZE_LIMIT } from '../block/put.js';
import type { CommandContext, CommandResult } from '../types.js';

const hashers = { 'sha2-256': sha256, 'sha2-512': sha512 } as const;

/**
 * `dag/put`: decodes each multipart part with `input-codec` (dag-json by default), stores it
 * encoded with `store-codec` (dag-cbor by default) and emits `{"Cid":{"/":…}}` per node.
 */
export async function dagPut(ctx: CommandContext): Promise<CommandResult> {
  const store = codecOf(ctx.options.string('store-codec') ?? 'dag-cbor');
  const input = codecOf(ctx.options.string('input-codec') ?? 'dag-json');
  const hashName = ctx.options.string('hash') ?? 'sha2-256';
  const hasher = Object.hasOwn(hashers, hashName) ? hashers[hashName as keyof typeof hashers] : undefined;
  if (hasher === undefined) throw new IpfsNodeError('command', `unsupported hash function: ${hashName}`);
  const pin = ctx.options.bool('pin');
  const values = async function* () {
    for await (const file of ctx.files()) {
      const data = await readAll(file.content, BLOCK_SIZE_LIMIT * 2, () => {
        throw new IpfsNodeError('command', 'dag/put: node too large');
      });
      let bytes: Uint8Array;
      if (input.name === store.name) {
        // validate, keep the client's encoding
        input.decode(data);
        bytes = data;
      } else {
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
      const cid = CID.createV1(store.code, await hasher.digest(bytes));
      await ctx.repo.gcLock.shared(async () => {
        await ctx.repo.blocks.put(cid, bytes, ctx.signal);
        if (pin) await pinRecursive(ctx.repo, cid, { signal: ctx.signal });
      });
      yield { Cid: { '/': ctx.cidString(cid) } };
    }
  };
  return { kind: 'values', values: values() };
}
