import type { StateDiff } from '../../chain/state.js';
import { parseFelts, toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { type MethodContext, type Params, required } from '../types.js';

/** Renders a state diff; with `only`, the contract-related parts keep those addresses only (declarations stay). */
function renderDiff(d: StateDiff, only?: ReadonlySet<bigint>) {
  const keep = ([address]: [bigint, unknown]) => only === undefined || only.has(address);
  return {
    storage_diffs: [...d.storage].filter(keep).map(([address, slots]) => ({
      address: toHex(address),
      storage_entries: [...slots].map(([key, value]) => ({ key: toHex(key), value: toHex(value) })),
    })),
    deprecated_declared_classes: [],
    declared_classes: [...d.declared].map(([h, c]) => ({
      class_hash: toHex(h),
      compiled_class_hash: toHex(c.compiledClassHash),
    })),
    deployed_contracts: [...d.deployed]
      .filter(keep)
      .map(([address, c]) => ({ address: toHex(address), class_hash: toHex(c) })),
    replaced_classes: [...d.replaced].filter(keep).map(([address, c]) => ({
      contract_address: toHex(address),
      class_hash: toHex(c),
    })),
    nonces: [...d.nonces].filter(keep).map(([address, n]) => ({ contract_address: toHex(address), nonce: toHex(n) })),
  };
}

/**
 * starknet_getStateUpdate: the state diff of a block with old and new roots; with
 * `contract_addresses`, only those contracts' storage, nonces, deployments and class changes.
 */
export function starknet_getStateUpdate(ctx: MethodContext, p: Params): Record<string, unknown> {
  const chain = ctx.node.chain;
  const r = chain.resolve(parseBlockId(required(p, 'block_id')));
  const only =
    p.contract_addresses === undefined || p.contract_addresses === null
      ? undefined
      : new Set(parseFelts(p.contract_addresses, 'contract_addresses'));
  if (r.kind === 'pending')
    return { old_root: toHex(chain.latest.newRoot), state_diff: renderDiff(r.pending.diff, only) };
  const parent = chain.blockByNumber(r.block.number - 1);
  return {
    block_hash: toHex(r.block.hash),
    new_root: toHex(r.block.newRoot),
    old_root: toHex(parent?.newRoot ?? chain.config.fork?.stateRoot ?? 0n),
    state_diff: renderDiff(r.block.diff, only),
  };
}
