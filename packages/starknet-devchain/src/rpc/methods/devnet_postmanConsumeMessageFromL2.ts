import { parseFelt, parseFelts } from '../../felt.js';
import { parseEthAddress } from '../../messaging/parseEthAddress.js';
import { type MethodContext, type Params, required } from '../types.js';

/**
 * devnet_postmanConsumeMessageFromL2: consumes an L2 → L1 message without an L1 (it must have been sent by a mined
 * L2 transaction, and not consumed this way yet: -1 otherwise). Answers its hash.
 */
export function devnet_postmanConsumeMessageFromL2(ctx: MethodContext, p: Params): { message_hash: string } {
  const message = {
    from: parseFelt(required(p, 'from_address'), 'from_address'),
    to: parseEthAddress(required(p, 'to_address'), 'to_address'),
    payload: parseFelts(required(p, 'payload'), 'payload'),
  };
  return { message_hash: ctx.node.postman.consumeMessageFromL2(message) };
}
