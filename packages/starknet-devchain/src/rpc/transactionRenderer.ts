import type { StoredTx } from '../chain/Chain.js';
import { readFlags } from './readFlags.js';
import { renderTransaction } from './render.js';

/**
 * How a method renders transactions, given its `response_flags` param: with INCLUDE_PROOF_FACTS
 * an INVOKE v3 transaction carries `proof_facts` (always empty here: the dev chain takes no
 * proofs), otherwise the transaction as stored.
 */
export function transactionRenderer(responseFlags: unknown): (t: StoredTx) => Record<string, unknown> {
  const flags = readFlags(responseFlags, 'response_flags', ['INCLUDE_PROOF_FACTS']);
  if (!flags.has('INCLUDE_PROOF_FACTS')) return renderTransaction;
  return (t) => {
    const wire = renderTransaction(t);
    return wire.type === 'INVOKE' && BigInt(String(wire.version)) % 2n ** 128n === 3n
      ? { ...wire, proof_facts: [] }
      : wire;
  };
}
