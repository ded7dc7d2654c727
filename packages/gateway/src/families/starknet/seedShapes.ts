/**
 * The interface's shapes for stk_ results, added on top of the spec 0.10 shapes (every
 * spec field is kept). The starknet_ aliases return the upstream's shapes untouched.
 */

/** Interface status words for blocks and receipts. */
export type SeedStatus = 'PENDING' | 'ACCEPTED_ON_L2' | 'ACCEPTED_ON_L1' | 'REJECTED';

/**
 * The one place that derives the interface's `status` from spec fields.
 * - PRE_CONFIRMED (or the older PENDING) finality, or no block hash yet: `PENDING`.
 * - ACCEPTED_ON_L2 / ACCEPTED_ON_L1: the same word. A reverted transaction is still accepted
 *   (it is in a block and paid its fee); its outcome stays in `execution_status` and
 *   `revert_reason`.
 * - REJECTED: a transaction or block the sequencer refused (older upstreams report it).
 */
export function seedStatus(finality: unknown): SeedStatus {
  switch (finality) {
    case 'ACCEPTED_ON_L2':
    case 'ACCEPTED_ON_L1':
    case 'REJECTED':
      return finality;
    default:
      return 'PENDING';
  }
}

/**
 * A block in the seed shape: `status`; a pending (pre-confirmed) block has status
 * `PENDING` and no `block_hash`, `block_number` or `new_root`.
 */
export function seedBlock(block: unknown): unknown {
  if (typeof block !== 'object' || block === null) return block;
  const b = block as Record<string, unknown>;
  if (typeof b.block_hash === 'string' && b.status !== 'PENDING') {
    return { ...b, status: seedStatus(b.status) };
  }
  const { block_hash: _h, block_number: _n, new_root: _r, ...rest } = b;
  return { status: 'PENDING', ...rest };
}

/** A receipt in the seed shape: `status` derived from its finality. */
export function seedReceipt(receipt: unknown): unknown {
  if (typeof receipt !== 'object' || receipt === null) return receipt;
  const r = receipt as Record<string, unknown>;
  return { ...r, status: seedStatus(r.block_hash === undefined ? 'PRE_CONFIRMED' : r.finality_status) };
}
