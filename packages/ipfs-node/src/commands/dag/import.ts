import { CarBlockIterator } from '@ipld/car';
import type { CID } from 'multiformats/cid';
import { verifyBlock } from '../../dag/hashers.js';
import { IpfsNodeError } from '../../errors.js';
import { pinRecursive } from '../../pinning/pinRecursive.js';
import type { CommandContext, CommandResult } from '../types.js';

/**
 * `dag/import`: stores the blocks of each CAR part as it streams in (each checked against its CID's hash),
 * then pins every root (`pin-roots`, default true): `{"Root":{"Cid":{"/":…},"PinErrorMsg":…}}`
 * per root, and `{"Stats":{"BlockCount","BlockBytesCount"}}` with `stats`; nothing with `silent`.
 */
export async function dagImport(ctx: CommandContext): Promise<CommandResult> {
  const pinRoots = ctx.options.bool('pin-roots');
  const stats = ctx.options.bool('stats');
  const silent = ctx.options.bool('silent');
  const values = async function* () {
    const roots: CID[] = [];
    let blockCount = 0;
    let byteCount = 0;
    const results = await ctx.repo.gcLock.shared(async () => {
      for await (const file of ctx.files()) {
        let reader: CarBlockIterator;
        try {
          reader = await CarBlockIterator.fromIterable(file.content);
        } catch (err) {
          throw new IpfsNodeError('command', `invalid CAR: ${(err as Error).message}`, { cause: err });
        }
        roots.push(...(await reader.getRoots()));
        for await (const block of reader) {
          // stored only under a CID it matches, whatever the hash function (unknown ones are refused)
          verifyBlock(block.cid, block.bytes);
          await ctx.repo.blocks.put(block.cid, block.bytes, ctx.signal);
          blockCount++;
          byteCount += block.bytes.byteLength;
        }
      }
      const out: Array<{ Root: { Cid: { '/': string }; PinErrorMsg: string } }> = [];
      if (!pinRoots) return out;
      for (const root of roots) {
        let message = '';
        try {
          await pinRecursive(ctx.repo, root, { signal: ctx.signal });
        } catch (err) {
          message = IpfsNodeError.from(err).message;
        }
        out.push({ Root: { Cid: { '/': ctx.cidString(root) }, PinErrorMsg: message } });
      }
      return out;
    });
    if (silent) return;
    yield* results;
    if (stats) yield { Stats: { BlockCount: blockCount, BlockBytesCount: byteCount } };
  };
  return { kind: 'values', values: values() };
}
