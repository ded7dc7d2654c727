import { toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { readFlags } from '../readFlags.js';
import { type MethodContext, type Params, required } from '../types.js';
import { storedTrace } from './storedTrace.js';

/**
 * starknet_traceBlockTransactions: the traces of every transaction of a block; with the trace
 * flag RETURN_INITIAL_READS, `{ traces, initial_reads }` (the block run again over its parent
 * state, recording what it read).
 */
export function starknet_traceBlockTransactions(
  ctx: MethodContext,
  p: Params,
): Record<string, unknown>[] | { traces: Record<string, unknown>[]; initial_reads: unknown } {
  const flags = readFlags(p.trace_flags, 'trace_flags', ['RETURN_INITIAL_READS']);
  const chain = ctx.node.chain;
  const id = parseBlockId(required(p, 'block_id'));
  const r = chain.resolve(id);
  const txs = r.kind === 'pending' ? r.pending.txs : r.block.txs;
  const traces = txs.map((t) => ({ transaction_hash: toHex(t.hash), trace_root: storedTrace(chain, t) }));
  if (!flags.has('RETURN_INITIAL_READS')) return traces;
  return { traces, initial_reads: chain.blockInitialReads(id) };
}
