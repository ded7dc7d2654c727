import { ProtocolRpcError } from '../../errors/GatewayError.js';
import type { StreamIo, StreamLogic, SubscriptionFamily } from '../SubscriptionFamily.js';
import { type StarknetSubscriptionFilter, starknetSubscriptionFilter } from './starknetSubscriptionFilter.js';

/** Heights remembered for dedupe and reorgs, and the most a gap is filled for (the spec's replay limit). */
const WINDOW = 1024;
/** Events asked per `starknet_getEvents` page when backfilling. */
const CHUNK = 100;

interface Header {
  block_number: number;
  block_hash: string;
  parent_hash: string;
  [field: string]: unknown;
}

interface Reorg {
  starting_block_hash: string;
  starting_block_number: number;
  ending_block_hash: string;
  ending_block_number: number;
}

interface Event {
  block_number?: number;
  block_hash?: string;
  transaction_hash: string;
  event_index?: number;
  finality_status?: string;
  [field: string]: unknown;
}

/** What the shared newHeads stream knows of the chain, for the events streams. */
interface ChainView {
  /** Highest height delivered (or learnt at start). */
  last: number | undefined;
  readonly hashes: Map<number, string>;
  /** The blocks from `reorg.starting_block_number` up are gone. */
  readonly onReorg: Set<(reorg: Reorg) => void>;
}

const NOTIFICATION: Readonly<Record<StarknetSubscriptionFilter['kind'], string>> = {
  newHeads: 'starknet_subscriptionNewHeads',
  events: 'starknet_subscriptionEvents',
  transactionStatus: 'starknet_subscriptionTransactionStatus',
  newTransactions: 'starknet_subscriptionNewTransaction',
  receipts: 'starknet_subscriptionNewTransactionReceipts',
};
const REORG_PREFIX = '{"starting_block_hash":';

const isReorg = (r: unknown): r is Reorg =>
  typeof r === 'object' && r !== null && 'starting_block_number' in r && 'ending_block_number' in r;
/** A reorg in canonical key order (the notification is told apart by its first key). */
const reorgOf = (r: Reorg): Reorg => ({
  starting_block_hash: r.starting_block_hash,
  starting_block_number: r.starting_block_number,
  ending_block_hash: r.ending_block_hash,
  ending_block_number: r.ending_block_number,
});

/**
 * Starknet subscriptions (spec 0.10) for one network's hub: `starknet_subscribeNewHeads`,
 * `…Events`, `…TransactionStatus`, `…NewTransactions` and `…NewTransactionReceipts`, called as
 * `starknet_…` or `stk_…` (the network family maps the names; notifications carry the spec's
 * `starknet_subscription…` names). Equal filters share one upstream subscription.
 *
 * - newHeads: each block once, in order. A client gets the current head first (the spec's
 *   default `block_id` is latest), then each new one. Heights skipped, a parent other than the
 *   block delivered below, and the gap after an upstream reconnect are filled by number
 *   (`starknet_getBlockWithTxHashes`), at most 1024 blocks. A block at a delivered height with
 *   another hash, or the upstream's own `starknet_subscriptionReorg`, sends
 *   `starknet_subscriptionReorg` once (to the events streams too).
 * - events: each (block, transaction, event index, finality) once; after a reconnect,
 *   `starknet_getEvents` from the last head seen before the drop to `latest`.
 * - transactionStatus: each status once; a client joining later gets the current one first.
 * - newTransactions, receipts: relayed as they come (nothing to backfill).
 * - With `block_id` a subscription is its client's own: the upstream replays from that block, and
 *   after a reconnect it is resubscribed without it and filled from where it was.
 *
 * @example
 * const hub = createSubscriptionHub({ family: createStarknetSubscriptionFamily(), ... });
 */
export function createStarknetSubscriptionFamily(): SubscriptionFamily<StarknetSubscriptionFilter> {
  const chain: ChainView = { last: undefined, hashes: new Map(), onReorg: new Set() };
  return {
    // the client's names, both spellings (the hub is given the upstream name)
    subscribeMethods: new Set(Object.values(SUBSCRIBE).flatMap((m) => [m, `stk_${m.slice(9)}`])),
    unsubscribeMethods: new Set(['starknet_unsubscribe', 'stk_unsubscribe']),
    filterOf: (method, params) => starknetSubscriptionFilter(method, params),
    unsubscribeId: (params) => {
      const p = params as { subscription_id?: unknown } | undefined;
      return String(p?.subscription_id ?? '');
    },
    upstreamUnsubscribe: (id) => ({ method: 'starknet_unsubscribe', params: { subscription_id: id } }),
    notification: (filter, id, resultJson) =>
      `{"jsonrpc":"2.0","method":"${resultJson.startsWith(REORG_PREFIX) ? 'starknet_subscriptionReorg' : NOTIFICATION[filter.kind]}","params":{"subscription_id":"${id}","result":${resultJson}}}`,
    notificationMethod: (filter) => NOTIFICATION[filter.kind],
    unknownSubscription: () => new ProtocolRpcError(66, 'Invalid subscription id'),
    dependsOn: (filter) =>
      filter.kind === 'events' && filter.blockId === undefined ? [['starknet_subscribeNewHeads', {}]] : [],
    createStream(filter, io) {
      if (filter.kind === 'newHeads') {
        return filter.blockId === undefined ? headsStream(chain, io) : replayStream(headsStream(ownView(), io, true));
      }
      if (filter.kind === 'events') {
        return filter.blockId === undefined
          ? eventsStream(chain, filter, io)
          : replayStream(eventsStream(ownView(), filter, io, true));
      }
      if (filter.kind === 'transactionStatus') return statusStream(io);
      return { order: 2, onEvent: (result) => io.emit(isReorg(result) ? reorgOf(result) : result) };
    },
  };
}

/** The subscribe methods (upstream names; `stk_…` arrives mapped to these). */
const SUBSCRIBE = {
  newHeads: 'starknet_subscribeNewHeads',
  events: 'starknet_subscribeEvents',
  transactionStatus: 'starknet_subscribeTransactionStatus',
  newTransactions: 'starknet_subscribeNewTransactions',
  receipts: 'starknet_subscribeNewTransactionReceipts',
} as const;

const ownView = (): ChainView => ({ last: undefined, hashes: new Map(), onReorg: new Set() });

/**
 * A stream of one client that replays from its `block_id`: what the upstream sends before the
 * client is in (the replay follows the subscribe answer at once) is kept and given to it first.
 */
function replayStream(inner: StreamLogic & { hold(on: boolean): readonly unknown[] }): StreamLogic {
  inner.hold(true);
  return { ...inner, join: () => inner.hold(false) };
}

function headsStream(
  chain: ChainView,
  io: StreamIo,
  own = false,
): StreamLogic & { hold(on: boolean): readonly unknown[] } {
  const seen = new Map<string, number>();
  let current: Header | undefined;
  let held: unknown[] | undefined;
  const emit = (r: unknown, how: 'live' | 'backfill' | 'removed') => (held ? held.push(r) : io.emit(r, how));
  const reorged = new Set<string>();

  const remember = (h: Header) => {
    const n = h.block_number;
    chain.hashes.set(n, h.block_hash);
    seen.set(h.block_hash, n);
    chain.last = n;
    current = h;
    if (seen.size > 2 * WINDOW) {
      for (const [hash, height] of seen) if (height <= n - WINDOW) seen.delete(hash);
      for (const height of chain.hashes.keys()) if (height <= n - WINDOW) chain.hashes.delete(height);
    }
  };
  const blockAt = async (id: unknown): Promise<Header | undefined> => {
    const block = (await io.fetch('starknet_getBlockWithTxHashes', [id])) as
      | (Header & { transactions?: unknown })
      | null;
    if (!block || typeof block.block_hash !== 'string') return undefined;
    const { transactions: _t, ...header } = block;
    return header as Header;
  };
  /** Blocks from `reorg.starting_block_number` up are gone: said once, to this stream and the events streams. */
  const reorg = (r: Reorg) => {
    const key = `${r.starting_block_number}:${r.starting_block_hash}`;
    if (reorged.has(key)) return;
    reorged.add(key);
    for (let k = chain.last ?? r.ending_block_number; k >= r.starting_block_number; k--) {
      const hash = chain.hashes.get(k);
      if (hash !== undefined) seen.delete(hash);
      chain.hashes.delete(k);
    }
    chain.last = r.starting_block_number - 1;
    // a client joining now is not given a block that is gone
    if (current && current.block_number >= r.starting_block_number) current = undefined;
    emit(reorgOf(r), 'removed');
    for (const listener of chain.onReorg) listener(r);
  };

  async function deliver(head: Header, how: 'live' | 'backfill', depth = 0): Promise<void> {
    if (seen.has(head.block_hash)) return;
    const n = head.block_number;
    if (chain.last !== undefined && n > chain.last + 1) {
      for (let k = Math.max(chain.last + 1, n - WINDOW); k < n; k++) {
        const block = await blockAt({ block_number: k });
        if (!block) break;
        await deliver(block, 'backfill', depth + 1);
      }
    }
    const below = chain.hashes.get(n - 1);
    if (below !== undefined && below !== head.parent_hash && depth < WINDOW) {
      const parent = await blockAt({ block_hash: head.parent_hash });
      if (parent) await deliver(parent, 'backfill', depth + 1);
    }
    if (seen.has(head.block_hash)) return;
    const replaced = chain.hashes.get(n);
    if (replaced !== undefined && chain.last !== undefined && n <= chain.last) {
      reorg({
        starting_block_hash: replaced,
        starting_block_number: n,
        ending_block_hash: chain.hashes.get(chain.last) ?? replaced,
        ending_block_number: chain.last,
      });
    }
    remember(head);
    emit(head, how);
  }

  return {
    order: 0,
    hold(on) {
      const out = held ?? [];
      held = on ? [] : undefined;
      return out;
    },
    async start() {
      if (own) return;
      // where the chain is: the first head a client gets, and the start of the gap fill
      const latest = await blockAt('latest').catch(() => undefined);
      if (latest && chain.last === undefined) remember(latest);
    },
    join: () => (current && !own ? [current] : []),
    onEvent(result) {
      if (isReorg(result)) return reorg(result);
      return deliver(result as Header, 'live');
    },
    async backfill() {
      if (chain.last === undefined) return;
      const latest = await blockAt('latest');
      if (latest) await deliver(latest, 'backfill');
    },
    stop() {
      chain.last = undefined;
      chain.hashes.clear();
    },
  };
}

function eventsStream(
  chain: ChainView,
  filter: StarknetSubscriptionFilter,
  io: StreamIo,
  own = false,
): StreamLogic & { hold(on: boolean): readonly unknown[] } {
  /** For a stream of its own (no heads stream): the head when it started, where a gap starts at the latest. */
  let startHead: number | undefined;
  /** Events delivered per height: the block hash and their ids. */
  const delivered = new Map<number, { hash: string | undefined; ids: Set<string> }>();
  let gapFrom: number | undefined;
  let highest: number | undefined;
  let held: unknown[] | undefined;
  const emit = (r: unknown, how: 'live' | 'backfill' | 'removed') => (held ? held.push(r) : io.emit(r, how));
  const reorged = new Set<string>();
  const onReorg = (r: Reorg) => {
    const key = `${r.starting_block_number}:${r.starting_block_hash}`;
    if (reorged.has(key)) return;
    reorged.add(key);
    for (const h of [...delivered.keys()]) if (h >= r.starting_block_number) delivered.delete(h);
    // a gap being filled starts no later than the first replaced block
    if (gapFrom !== undefined) gapFrom = Math.min(gapFrom, r.starting_block_number);
    emit(reorgOf(r), 'removed');
  };
  chain.onReorg.add(onReorg);

  function deliver(e: Event, how: 'live' | 'backfill') {
    const n = e.block_number ?? -1;
    let entry = delivered.get(n);
    if (entry && e.block_hash !== undefined && entry.hash !== undefined && entry.hash !== e.block_hash) {
      // another block at that height: the old one's events are gone
      entry = undefined;
    }
    if (!entry) {
      entry = { hash: e.block_hash, ids: new Set() };
      delivered.set(n, entry);
      highest = Math.max(highest ?? n, n);
      const floor = Math.max(chain.last ?? n, highest) - WINDOW;
      for (const h of delivered.keys()) if (h < floor) delivered.delete(h);
    }
    entry.hash ??= e.block_hash;
    const id = `${e.transaction_hash}:${e.event_index}:${e.finality_status}`;
    if (entry.ids.has(id)) return;
    entry.ids.add(id);
    emit(e, how);
  }

  return {
    order: 1,
    hold(on) {
      const out = held ?? [];
      held = on ? [] : undefined;
      return out;
    },
    async start() {
      if (own) startHead = (await io.fetch('starknet_blockNumber', []).catch(() => undefined)) as number | undefined;
    },
    onEvent(result) {
      if (isReorg(result)) return onReorg(result);
      deliver(result as Event, 'live');
    },
    dropped() {
      // from the last head seen (inclusive: its events may not have arrived yet)
      gapFrom ??= chain.last ?? highest ?? startHead;
    },
    async backfill() {
      if (gapFrom === undefined) return;
      const head = (await io.fetch('starknet_blockNumber', [])) as number;
      const from = Math.max(gapFrom, head - WINDOW + 1);
      if (from > head) {
        gapFrom = undefined;
        return;
      }
      const ev = filter.events!;
      let token: string | undefined;
      const found: Event[] = [];
      do {
        const page = (await io.fetch('starknet_getEvents', [
          {
            from_block: { block_number: from },
            to_block: { block_number: head },
            ...(ev.address ? { address: ev.address } : {}),
            ...(ev.keys ? { keys: ev.keys } : {}),
            chunk_size: CHUNK,
            ...(token === undefined ? {} : { continuation_token: token }),
          },
        ])) as { events: Event[]; continuation_token?: string };
        found.push(...page.events);
        token = page.continuation_token;
      } while (token !== undefined);
      gapFrom = undefined;
      for (const e of found) deliver({ ...e, finality_status: 'ACCEPTED_ON_L2' }, 'backfill');
    },
    stop() {
      chain.onReorg.delete(onReorg);
    },
  };
}

function statusStream(io: StreamIo): StreamLogic {
  let last: unknown;
  let lastText = '';
  return {
    order: 2,
    join: () => (last === undefined ? [] : [last]),
    onEvent(result) {
      if (isReorg(result)) return io.emit(reorgOf(result), 'removed');
      const text = JSON.stringify(result);
      // the upstream's current status after a resubscribe is not news
      if (text === lastText) return;
      lastText = text;
      last = result;
      io.emit(result);
    },
  };
}
