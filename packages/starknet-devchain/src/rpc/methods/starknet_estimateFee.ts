import { parseTransaction } from '../../chain/parseTransaction.js';
import { invalidParams } from '../../errors.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';
import { feeEstimate } from './feeEstimate.js';
import { simulationFlags } from './simulationFlags.js';

/** starknet_estimateFee: fees of a sequence of transactions (query versions accepted). */
export function starknet_estimateFee(ctx: MethodContext, p: Params): Record<string, string>[] {
  const raw = required(p, 'request');
  if (!Array.isArray(raw)) throw invalidParams('request: expected an array of transactions');
  const txs = raw.map((t) => parseTransaction(t));
  const flags = simulationFlags(p.simulation_flags);
  const chain = ctx.node.chain;
  const results = chain.simulate(txs, parseBlockId(p.block_id ?? 'pre_confirmed'), {
    skipValidate: flags.skipValidate,
    skipFeeCharge: true,
  });
  return results.map((r) => feeEstimate(chain, r));
}
