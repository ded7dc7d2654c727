import { resolvePath } from '../dag/resolvePath.js';
import { IpfsNodeError } from '../errors.js';
import type { CommandContext, CommandResult } from './types.js';

/**
 * `resolve`: an `/ipfs/` path resolved through UnixFS directories and IPLD links to the last
 * block it reaches, as `{"Path":"/ipfs/<cid>[/<path inside the block>]"}` (the CID in
 * `cid-base`). `/ipns/` names need the network: refused (the node is offline).
 */
export async function resolve(ctx: CommandContext): Promise<CommandResult> {
  const arg = ctx.args[0]!;
  if (arg.startsWith('/ipns/')) {
    throw new IpfsNodeError(
      'command',
      `could not resolve name "${arg.slice(6).split('/')[0]}": IPNS and DNSLink need the network and this node is offline`,
    );
  }
  const { cid, remainder } = await resolvePath(ctx.repo.blocks, arg, ctx.signal);
  const rest = remainder.length > 0 ? `/${remainder.join('/')}` : '';
  return { kind: 'value', value: { Path: `/ipfs/${ctx.cidString(cid)}${rest}` } };
}
