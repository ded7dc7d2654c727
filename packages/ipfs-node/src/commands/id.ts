import { IpfsNodeError } from '../errors.js';
import type { CommandContext, CommandResult } from './types.js';

/** `id`: this node's identity. It has no network addresses: it is a local node. */
export async function id(ctx: CommandContext): Promise<CommandResult> {
  const { identity } = ctx.repo;
  const asked = ctx.args[0];
  if (asked !== undefined && asked !== identity.peerId) {
    throw new IpfsNodeError('command', `peer ${asked} not found: this node is offline`);
  }
  return {
    kind: 'value',
    value: {
      ID: identity.peerId,
      PublicKey: identity.publicKey,
      Addresses: [],
      AgentVersion: ctx.node.agentVersion,
      Protocols: [],
    },
  };
}
