import { toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';
import { storedTrace } from './storedTrace.js';

/** starknet_traceBlockTransactions: the traces of every transaction of a block. */
export function starknet_traceBlockTransactions(ctx: MethodContext, p: Params): Record<string, unknown>[] {
  const chain = ctx.node.chain;
  const r = chain.resolve(parseBlockId(required(p, 'block_id')));
  const txs = r.kind === 'pending' ? r.pending.txs : r.block.txs;
  return txs.map((t) => ({ transaction_hash: toHex(t.hash), trace_root: storedTrace(chain, t) }));
}
