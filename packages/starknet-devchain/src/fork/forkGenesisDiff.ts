/** The first local block of a forked chain: the genesis state, where the origin leaves it empty. */
import { emptyDiff, type StateDiff, type StateReader } from '../chain/state.js';

/**
 * What of the genesis diff a forked chain writes in its first block: every class (a copy of the native classes the
 * chain runs), the contracts the origin has no contract at (with their nonces), and the storage slots the origin
 * leaves 0: a predeployed account missing on the origin gets its keys and balances, one already there (a chain forked
 * from a dev chain with the same seed) keeps the origin's, and the origin's contracts keep their state.
 *
 * @example
 * const diff = forkGenesisDiff(genesisDiff(accounts), origin);
 */
export function forkGenesisDiff(genesis: StateDiff, origin: StateReader): StateDiff {
  const out = emptyDiff();
  for (const [hash, d] of genesis.declared) out.declared.set(hash, d);
  const fresh = new Set<bigint>();
  for (const [address, classHash] of genesis.deployed) {
    if (origin.getClassHashAt(address) !== undefined) continue;
    fresh.add(address);
    out.deployed.set(address, classHash);
  }
  for (const [address, nonce] of genesis.nonces) if (fresh.has(address)) out.nonces.set(address, nonce);
  for (const [address, slots] of genesis.storage) {
    const kept = new Map<bigint, bigint>();
    for (const [key, value] of slots) {
      if (fresh.has(address) || origin.getStorage(address, key) === 0n) kept.set(key, value);
    }
    if (kept.size > 0) out.storage.set(address, kept);
  }
  return out;
}
