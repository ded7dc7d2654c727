import { resolvePath } from '../../dag/resolvePath.js';
import { multihashKey } from '../../dag/walkDag.js';
import { IpfsNodeError } from '../../errors.js';
import { indirectPins } from '../../pinning/indirectPins.js';
import type { CommandContext, CommandResult } from '../types.js';

const TYPES = ['all', 'direct', 'indirect', 'recursive'] as const;

interface Listed {
  cid: string;
  type: string;
  name: string;
}

/**
 * `pin/ls`: pins by type (`all` by default, indirect ones as `indirect through <root>`), or the
 * pin status of given paths (an unpinned path is an error). `{"Keys":{…}}`, or one
 * `{"Cid","Type"}` per line with `stream`.
 */
export async function pinLs(ctx: CommandContext): Promise<CommandResult> {
  const type = ctx.options.string('type') ?? 'all';
  if (!(TYPES as readonly string[]).includes(type)) {
    throw new IpfsNodeError('command', `invalid type '${type}', must be one of {direct, indirect, recursive, all}`);
  }
  const names = ctx.options.bool('names');
  const listed: Listed[] = [];
  const needIndirect = type === 'all' || type === 'indirect';
  const reached = needIndirect ? await indirectPins(ctx.repo, ctx.signal) : new Map();
  if (ctx.args.length > 0) {
    for (const arg of ctx.args) {
      const { cid } = await resolvePath(ctx.repo.blocks, arg, ctx.signal);
      const pin = await ctx.repo.pins.get(cid);
      const via = reached.get(multihashKey(cid));
      if (pin !== undefined && (type === 'all' || type === pin.type)) {
        listed.push({ cid: ctx.cidString(cid), type: pin.type, name: pin.name });
      } else if (via !== undefined && needIndirect) {
        listed.push({ cid: ctx.cidString(cid), type: `indirect through ${ctx.cidString(via.root)}`, name: '' });
      } else {
        throw new IpfsNodeError('command', `path '${arg}' is not pinned`);
      }
    }
  } else {
    const roots = new Set<string>();
    for await (const pin of ctx.repo.pins.all()) {
      roots.add(multihashKey(pin.cid));
      if (type === 'all' || type === pin.type)
        listed.push({ cid: ctx.cidString(pin.cid), type: pin.type, name: pin.name });
    }
    if (needIndirect) {
      for (const [key, { cid }] of reached) {
        if (!roots.has(key)) listed.push({ cid: ctx.cidString(cid), type: 'indirect', name: '' });
      }
    }
  }
  if (ctx.options.bool('stream')) {
    return {
      kind: 'values',
      values: (async function* () {
        for (const p of listed)
          yield names && p.name !== '' ? { Cid: p.cid, Name: p.name, Type: p.type } : { Cid: p.cid, Type: p.type };
      })(),
    };
  }
  const keys: Record<string, { Type: string; Name: string }> = {};
  for (const p of listed) keys[p.cid] = { Type: p.type, Name: names ? p.name : '' };
  return { kind: 'value', value: { Keys: keys } };
}
