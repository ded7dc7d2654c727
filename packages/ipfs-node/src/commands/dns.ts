import { IpfsNodeError } from '../errors.js';
import type { CommandContext, CommandResult } from './types.js';

/**
 * `dns`: DNSLink resolution needs DNS lookups, which the node never makes (it is offline by
 * design): every name is answered with Kubo's "could not resolve name" error, saying why.
 */
export async function dns(ctx: CommandContext): Promise<CommandResult> {
  const name = ctx.args[0]!;
  throw new IpfsNodeError(
    'command',
    `could not resolve name "${name}": this node is offline and makes no DNS lookups (DNSLink is not available)`,
  );
}
