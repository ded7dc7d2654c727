import { type EthSubscriptionFilter, ethSubscriptionFilter } from './ethSubscriptionFilter.js';
import type { StreamIo, StreamLogic, SubscriptionFamily } from './SubscriptionFamily.js';

/**
 * Heights remembered for dedupe and reorgs: deeper reorgs are not followed, and a gap is filled
 * for its last WINDOW blocks at most.
 */
const WINDOW = 256;

interface Head {
  number: string;
  hash: string;
  parentHash: string;
  [field: string]: unknown;
}

interface Log {
  blockNumber: string;
  blockHash: string;
  logIndex: string;
  removed?: boolean;
  [field: string]: unknown;
}

/** What a newHeads stream knows of the chain, shared with the network's logs streams. */
interface ChainView {
  /** Highest height delivered (or learnt at start). */
  last: number | undefined;
  readonly hashes: Map<number, string>;
  /** Called when the block at `height` is replaced: logs at `height` not in `hash`, and above it, are gone. */
  readonly onReorg: Set<(height: number, hash: string) => void>;
}

/**
 * Ethereum subscriptions for one network's hub: `newHeads`, `logs` and `newPendingTransactions`.
 *
 * - newHeads: each block once (by hash), in order. A head that skips heights, or whose parent is
 *   not the block delivered below it, first gets the missing blocks over HTTP
 *   (`eth_getBlockByNumber`); after a reconnect, the blocks up to the upstream's head are fetched
 *   the same way. A block at a height already delivered, with another hash, is a reorg.
 * - logs: each (blockHash, logIndex) once; after a reconnect `eth_getLogs` from the last head
 *   seen before the drop to the new head. On a reorg (from the newHeads stream, which every logs
 *   stream holds, or a log of another block at a delivered height), the logs delivered from the
 *   replaced blocks are sent again with `removed: true` before any log of the new blocks.
 * - newPendingTransactions: relayed as they come (nothing to backfill).
 *
 * @example
 * const hub = createSubscriptionHub({ family: createEthSubscriptionFamily(), ... });
 */
export function createEthSubscriptionFamily(): SubscriptionFamily<EthSubscriptionFilter> {
  const chain: ChainView = { last: undefined, hashes: new Map(), onReorg: new Set() };
  return {
    subscribeMethods: new Set(['eth_subscribe']),
    unsubscribeMethods: new Set(['eth_unsubscribe']),
    filterOf: (_method, params) => ethSubscriptionFilter(params),
    unsubscribeId: (params) => (params as unknown[])[0] as string,
    upstreamUnsubscribe: (id) => ({ method: 'eth_unsubscribe', params: [id] }),
    notification: (_filter, id, resultJson) =>
      `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":${resultJson}}}`,
    notificationMethod: () => 'eth_subscription',
    dependsOn: (filter) => (filter.kind === 'logs' ? [['eth_subscribe', ['newHeads']]] : []),
    createStream(filter, io) {
      if (filter.kind === 'newHeads') return headsStream(chain, io);
      if (filter.kind === 'logs') return logsStream(chain, filter, io);
      return { order: 2, onEvent: (result) => io.emit(result) };
    },
  };
}

function headsStream(chain: ChainView, io: StreamIo): StreamLogic {
  /** Hashes delivered, with their height: pruned below the window. */
  const seen = new Map<string, number>();
  const remember = (n: number, hash: string) => {
    chain.hashes.set(n, hash);
    seen.set(hash, n);
    chain.last = n;
    if (seen.size > 2 * WINDOW) {
      for (const [h, height] of seen) if (height <= n - WINDOW) seen.delete(h);
      for (const height of chain.hashes.keys()) if (height <= n - WINDOW) chain.hashes.delete(height);
    }
  };
  const blockAt = async (n: number): Promise<Head | undefined> => {
    const block = (await io.fetch('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])) as Head | null;
    return block ?? undefined;
  };

  /** Delivers `head` (and whatever is missing below it) unless it was delivered already. */
  async function deliver(head: Head, how: 'live' | 'backfill', depth = 0): Promise<void> {
    if (seen.has(head.hash)) return;
    const n = Number(head.number);
    // heights skipped since the last head: fetched in order first
    if (chain.last !== undefined && n > chain.last + 1) {
      for (let k = Math.max(chain.last + 1, n - WINDOW); k < n; k++) {
        const block = await blockAt(k);
        if (!block) break;
        await deliver(block, 'backfill', depth + 1);
      }
    }
    // a parent other than the block delivered below: that height was replaced too
    const below = chain.hashes.get(n - 1);
    if (below !== undefined && below !== head.parentHash && depth < WINDOW) {
      const parent = await blockAt(n - 1);
      if (parent && parent.hash === head.parentHash) await deliver(parent, 'backfill', depth + 1);
    }
    if (seen.has(head.hash)) return;
    if (chain.hashes.has(n) || (chain.last !== undefined && n <= chain.last)) {
      for (let k = chain.last ?? n; k >= n; k--) chain.hashes.delete(k);
      for (const listener of chain.onReorg) listener(n, head.hash);
    }
    remember(n, head.hash);
    io.emit(headerOf(head), how);
  }

  return {
    order: 0,
    async start() {
      // where the chain is, so that heights skipped before the first live head are filled;
      // without an answer the first live head sets it
      const latest = (await io.fetch('eth_getBlockByNumber', ['latest', false]).catch(() => null)) as Head | null;
      if (latest && chain.last === undefined) remember(Number(latest.number), latest.hash);
    },
    onEvent: (result) => deliver(result as Head, 'live'),
    async backfill() {
      if (chain.last === undefined) return;
      const latest = (await io.fetch('eth_getBlockByNumber', ['latest', false])) as Head | null;
      if (latest) await deliver(latest, 'backfill');
    },
    stop() {
      chain.last = undefined;
      chain.hashes.clear();
    },
  };
}

function logsStream(chain: ChainView, filter: EthSubscriptionFilter, io: StreamIo): StreamLogic {
  /** Logs delivered per height, by logIndex, with the hash of their block. */
  const delivered = new Map<number, { hash: string; logs: Map<string, Log> }>();
  let gapFrom: number | undefined;

  /** Sends the logs of replaced blocks again with `removed: true`: at `height` unless in `keep`, and above. */
  const removeFrom = (height: number, keep: string | undefined) => {
    const heights = [...delivered.keys()].filter((h) => h >= height).sort((a, b) => a - b);
    for (const h of heights) {
      const entry = delivered.get(h)!;
      if (h === height && entry.hash === keep) continue;
      for (const log of entry.logs.values()) io.emit({ ...log, removed: true }, 'removed');
      delivered.delete(h);
    }
  };
  const onReorg = (height: number, hash: string) => removeFrom(height, hash);
  chain.onReorg.add(onReorg);

  function deliver(log: Log, how: 'live' | 'backfill') {
    const n = Number(log.blockNumber);
    let entry = delivered.get(n);
    if (log.removed === true) {
      // the upstream's own removal: passed on once, for a log that was delivered
      if (entry?.hash === log.blockHash && entry.logs.delete(log.logIndex)) io.emit(log, 'removed');
      return;
    }
    if (entry && entry.hash !== log.blockHash) {
      removeFrom(n, undefined);
      entry = undefined;
    }
    if (!entry) {
      entry = { hash: log.blockHash, logs: new Map() };
      delivered.set(n, entry);
      const floor = (chain.last ?? n) - WINDOW;
      for (const h of delivered.keys()) if (h < floor) delivered.delete(h);
    }
    if (entry.logs.has(log.logIndex)) return;
    entry.logs.set(log.logIndex, log);
    io.emit(log, how);
  }

  return {
    order: 1,
    onEvent: (result) => deliver(result as Log, 'live'),
    dropped() {
      // from the last head seen (inclusive: its logs may not have arrived yet)
      gapFrom ??= chain.last;
    },
    async backfill() {
      const to = chain.last;
      if (gapFrom === undefined || to === undefined || to < gapFrom) return;
      // as for heads: at most the window's worth of blocks
      const from = Math.max(gapFrom, to - WINDOW + 1);
      const logs = (await io.fetch('eth_getLogs', [
        { ...filter.logFilter, fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` },
      ])) as Log[];
      gapFrom = undefined;
      for (const log of logs) deliver(log, 'backfill');
    },
    stop() {
      chain.onReorg.delete(onReorg);
    },
  };
}

/** A block as a newHeads notification carries it: the header, without body fields. */
function headerOf(block: Head): Head {
  if (!('transactions' in block)) return block;
  const { transactions: _t, uncles: _u, size: _s, totalDifficulty: _d, withdrawals: _w, ...header } = block;
  return header as Head;
}
