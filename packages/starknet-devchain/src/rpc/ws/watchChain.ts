/** What changed on the dev chain since it was last looked at, as events for the subscriptions. */
import type { Block, Chain, StoredTx } from '../../chain/Chain.js';
import type { DevchainNode } from '../../devchain.js';
import { toHex } from '../../felt.js';

/** The blocks a replaced chain no longer has (spec REORG_DATA). */
export interface Reorg {
  starting_block_hash: string;
  starting_block_number: number;
  ending_block_hash: string;
  ending_block_number: number;
}

/** What a chain watcher reports, in chain order. */
export interface ChainListener {
  /** A transaction seen for the first time (RECEIVED); `pending` when it sits in the pre-confirmed block. */
  received(chain: Chain, tx: StoredTx): void;
  /** A transaction of the pre-confirmed block (PRE_CONFIRMED). */
  preConfirmed(chain: Chain, tx: StoredTx): void;
  /** A new block (its transactions are ACCEPTED_ON_L2). */
  mined(chain: Chain, block: Block): void;
  /** Blocks that were delivered are gone (devnet_restart, devnet_load). */
  reorg(chain: Chain, reorg: Reorg): void;
}

/** A watcher: `check()` reports every change since the last check, once. */
export interface ChainWatcher {
  check(): void;
}

/**
 * Watches a dev chain node: each `check()` compares the chain with what was reported before and
 * reports the difference in order: the blocks no longer on the chain (the node replaced its chain:
 * `devnet_restart`, `devnet_load`) as a reorg, then each new block (its transactions first seen
 * there are reported as received before), then the new transactions of the pre-confirmed block.
 * The chain is looked at after every request and on a short timer, so a change is reported within
 * a few milliseconds whatever caused it (a transaction, block-interval mining, a devnet call).
 *
 * @example
 * const watcher = watchChain(node, listener);
 * handleJsonRpc(ctx, payload);
 * watcher.check(); // the listener hears of the blocks and transactions it made
 */
export function watchChain(node: DevchainNode, listener: ChainListener): ChainWatcher {
  let chain = node.chain;
  /** Hashes of the blocks reported, by number. */
  const known: bigint[] = chain.allBlocks.map((b) => b.hash);
  /** Transactions reported as received and not yet mined. */
  const seen = new Set<bigint>(chain.pendingBlock.txs.map((t) => t.hash));
  let pendingNumber = chain.pendingBlock.number;
  let pendingReported = chain.pendingBlock.txs.length;

  return {
    check() {
      const now = node.chain;
      if (now !== chain) {
        let common = 0;
        while (common < known.length && now.blockByNumber(common)?.hash === known[common]) common += 1;
        if (common < known.length) {
          const last = known.length - 1;
          listener.reorg(now, {
            starting_block_hash: toHex(known[common]!),
            starting_block_number: common,
            ending_block_hash: toHex(known[last]!),
            ending_block_number: last,
          });
          known.length = common;
        }
        chain = now;
        seen.clear();
        pendingNumber = -1;
      }
      for (let n = known.length; n <= chain.latestNumber; n++) {
        const block = chain.blockByNumber(n)!;
        for (const t of block.txs) {
          if (!seen.delete(t.hash)) listener.received(chain, t);
        }
        known.push(block.hash);
        listener.mined(chain, block);
      }
      const pending = chain.pendingBlock;
      if (pending.number !== pendingNumber) {
        pendingNumber = pending.number;
        pendingReported = 0;
      }
      for (; pendingReported < pending.txs.length; pendingReported++) {
        const t = pending.txs[pendingReported]!;
        seen.add(t.hash);
        listener.received(chain, t);
        listener.preConfirmed(chain, t);
      }
    },
  };
}
