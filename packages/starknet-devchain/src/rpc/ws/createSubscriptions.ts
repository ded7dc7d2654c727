/** The spec 0.10 WebSocket subscriptions of the dev chain, fed by a chain watcher. */
import type { Block, Chain, EmittedEvent, StoredTx } from '../../chain/Chain.js';
import type { DevchainNode } from '../../devchain.js';
import { DevchainError, ErrorCode, invalidParams } from '../../errors.js';
import { parseFelt, toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { MAX_KEY_POSITIONS } from '../methods/starknet_getEvents.js';
import { renderBlockHeader, renderReceiptWithBlock } from '../render.js';
import { transactionRenderer } from '../transactionRenderer.js';
import type { Params } from '../types.js';
import { type ChainListener, type Reorg, watchChain } from './watchChain.js';

/** How far back `block_id` may reach (error 68 beyond). */
export const MAX_BLOCKS_BACK = 1024;
/** Most addresses in a `sender_address` filter (error 67 beyond). */
export const MAX_SENDER_ADDRESSES = 1024;

/** The subscribe methods, with their params in the spec's order. */
export const SUBSCRIBE_PARAMS: Readonly<Record<string, readonly string[]>> = {
  starknet_subscribeNewHeads: ['block_id'],
  starknet_subscribeEvents: ['from_address', 'keys', 'block_id', 'finality_status'],
  starknet_subscribeTransactionStatus: ['transaction_hash'],
  starknet_subscribeNewTransactions: ['finality_status', 'sender_address', 'tags'],
  starknet_subscribeNewTransactionReceipts: ['finality_status', 'sender_address'],
  starknet_unsubscribe: ['subscription_id'],
};

/** Where a subscription's notifications go: one WebSocket connection. */
export interface NotificationSink {
  /** Sends `{"jsonrpc":"2.0","method":…,"params":{"subscription_id":…,"result":…}}`. */
  notify(method: string, subscriptionId: string, result: unknown): void;
}

type Finality = 'RECEIVED' | 'CANDIDATE' | 'PRE_CONFIRMED' | 'ACCEPTED_ON_L2';

interface Sub {
  readonly id: string;
  readonly sink: NotificationSink;
  readonly onReceived?: (chain: Chain, t: StoredTx) => void;
  readonly onPreConfirmed?: (chain: Chain, t: StoredTx) => void;
  readonly onMined?: (chain: Chain, b: Block) => void;
  /** Whether a reorg concerns it (every kind but the transaction status of a transaction not seen yet). */
  readonly reorgs: boolean;
}

/** The subscriptions of one dev chain. */
export interface DevchainSubscriptions {
  /** Whether `method` is one of the subscription methods (subscribe or unsubscribe). */
  handles(method: string): boolean;
  /**
   * Runs a subscription method for `sink`: the result to answer, and what to send once the
   * answer is written (the replay of `block_id`, the current transaction status).
   */
  call(sink: NotificationSink, method: string, params: Params): { result: unknown; after: () => void };
  /** Ends every subscription of a connection. */
  dropConnection(sink: NotificationSink): void;
  /** Reports chain changes to the subscriptions (after each request and on a timer). */
  check(): void;
  /** Open subscriptions (for tests). */
  readonly size: number;
}

/**
 * The dev chain's subscriptions (spec 0.10): new heads, events, a transaction's status, new
 * transactions and new receipts, each with the spec's filters, replay of `block_id` (up to 1024
 * blocks back, error 68 beyond), and `starknet_subscriptionReorg` when the node's chain is replaced
 * (`devnet_restart`, `devnet_load`). Transactions are seen RECEIVED and PRE_CONFIRMED when they sit
 * in the pre-confirmed block (block-interval or on-demand mining) and ACCEPTED_ON_L2 when mined;
 * in the default mode (one block per transaction) they go from RECEIVED to ACCEPTED_ON_L2.
 *
 * @example
 * const subs = createSubscriptions(node);
 * const { result, after } = subs.call(sink, 'starknet_subscribeNewHeads', {});
 * send({ id, result }); after();
 */
export function createSubscriptions(node: DevchainNode): DevchainSubscriptions {
  const subs = new Map<string, Sub>();
  let nextId = 1;
  const each = (f: (s: Sub) => void) => {
    for (const s of [...subs.values()]) f(s);
  };
  const listener: ChainListener = {
    received: (chain, t) => each((s) => s.onReceived?.(chain, t)),
    preConfirmed: (chain, t) => each((s) => s.onPreConfirmed?.(chain, t)),
    mined: (chain, b) => each((s) => s.onMined?.(chain, b)),
    reorg: (_chain, r: Reorg) => each((s) => s.reorgs && s.sink.notify('starknet_subscriptionReorg', s.id, r)),
  };
  const watcher = watchChain(node, listener);

  function open(sink: NotificationSink, make: (id: string) => Omit<Sub, 'id' | 'sink'>): string {
    const id = String(nextId++);
    subs.set(id, { id, sink, ...make(id) });
    return id;
  }

  function subscribe(sink: NotificationSink, method: string, p: Params): { result: unknown; after: () => void } {
    // everything up to now is reported to the older subscriptions before a new one replays
    watcher.check();
    const chain = node.chain;
    const notify = (id: string, m: string, result: unknown) => sink.notify(m, id, result);
    switch (method) {
      case 'starknet_subscribeNewHeads': {
        const from = replayStart(chain, p.block_id);
        const id = open(sink, (id) => ({
          reorgs: true,
          onMined: (c, b) => notify(id, 'starknet_subscriptionNewHeads', renderBlockHeader(c, b)),
        }));
        const after = () => {
          for (let n = from; n <= chain.latestNumber; n++) {
            notify(id, 'starknet_subscriptionNewHeads', renderBlockHeader(chain, chain.blockByNumber(n)!));
          }
        };
        return { result: id, after };
      }
      case 'starknet_subscribeEvents': {
        const match = eventMatcher(p.from_address, p.keys);
        const finality = oneOf(p.finality_status, 'finality_status', ['PRE_CONFIRMED', 'ACCEPTED_ON_L2'] as const);
        const withPending = finality === 'PRE_CONFIRMED';
        // without block_id only new events come (a shared stream can then give every client the same)
        const from = p.block_id === undefined || p.block_id === null ? undefined : replayStart(chain, p.block_id);
        const send = (id: string, e: EmittedEvent, status: Finality) =>
          notify(id, 'starknet_subscriptionEvents', { ...e, finality_status: status });
        const id = open(sink, (id) => ({
          reorgs: true,
          ...(withPending
            ? {
                onPreConfirmed: (c, t) => {
                  for (const e of eventsOf(c, t)) if (match(e)) send(id, e, 'PRE_CONFIRMED');
                },
              }
            : {}),
          onMined: (_c, b) => {
            for (const e of b.events) if (match(e)) send(id, e, 'ACCEPTED_ON_L2');
          },
        }));
        const after = () => {
          if (from === undefined) return;
          for (let n = from; n <= chain.latestNumber; n++) {
            for (const e of chain.blockByNumber(n)!.events) if (match(e)) send(id, e, 'ACCEPTED_ON_L2');
          }
          if (withPending) for (const e of chain.pendingEvents()) if (match(e)) send(id, e, 'PRE_CONFIRMED');
        };
        return { result: id, after };
      }
      case 'starknet_subscribeTransactionStatus': {
        if (p.transaction_hash === undefined) throw invalidParams('missing param transaction_hash');
        const hash = parseFelt(p.transaction_hash, 'transaction_hash');
        const txHash = toHex(hash);
        let last = '';
        const status = (id: string, c: Chain, t: StoredTx, finality: Finality) => {
          const s: Record<string, unknown> = { finality_status: finality };
          if (finality === 'PRE_CONFIRMED' || finality === 'ACCEPTED_ON_L2') {
            s.execution_status = t.receipt.execution_status;
            if (t.receipt.revert_reason !== undefined) s.failure_reason = t.receipt.revert_reason;
          }
          const text = JSON.stringify(s);
          if (text === last || c !== node.chain) return;
          last = text;
          notify(id, 'starknet_subscriptionTransactionStatus', { transaction_hash: txHash, status: s });
        };
        const id = open(sink, (id) => ({
          reorgs: true,
          onReceived: (c, t) => t.hash === hash && status(id, c, t, 'RECEIVED'),
          onPreConfirmed: (c, t) => t.hash === hash && status(id, c, t, 'PRE_CONFIRMED'),
          onMined: (c, b) => {
            const t = b.txs.find((x) => x.hash === hash);
            if (t) status(id, c, t, 'ACCEPTED_ON_L2');
          },
        }));
        const after = () => {
          const t = chain.getTransaction(hash);
          if (t) status(id, chain, t, chain.isPending(t) ? 'PRE_CONFIRMED' : 'ACCEPTED_ON_L2');
        };
        return { result: id, after };
      }
      case 'starknet_subscribeNewTransactions':
      case 'starknet_subscribeNewTransactionReceipts': {
        const receipts = method === 'starknet_subscribeNewTransactionReceipts';
        const statuses = finalities(
          p.finality_status,
          receipts ? ['PRE_CONFIRMED', 'ACCEPTED_ON_L2'] : ['RECEIVED', 'CANDIDATE', 'PRE_CONFIRMED', 'ACCEPTED_ON_L2'],
        );
        const senders = senderFilter(p.sender_address);
        const render = receipts ? undefined : transactionRenderer(readTags(p.tags));
        const wanted = (t: StoredTx) => senders === undefined || senders.has(toHex(t.tx.sender));
        const out = receipts ? 'starknet_subscriptionNewTransactionReceipts' : 'starknet_subscriptionNewTransaction';
        const send = (id: string, c: Chain, t: StoredTx, finality: Finality) => {
          if (!statuses.has(finality) || !wanted(t)) return;
          notify(
            id,
            out,
            render
              ? { ...render(t), finality_status: finality }
              : { ...renderReceiptWithBlock(c, t), finality_status: finality },
          );
        };
        const id = open(sink, (id) => ({
          reorgs: true,
          onReceived: (c, t) => send(id, c, t, 'RECEIVED'),
          onPreConfirmed: (c, t) => send(id, c, t, 'PRE_CONFIRMED'),
          onMined: (c, b) => {
            for (const t of b.txs) send(id, c, t, 'ACCEPTED_ON_L2');
          },
        }));
        return { result: id, after: () => {} };
      }
      default:
        throw new DevchainError(ErrorCode.METHOD_NOT_FOUND, { data: method });
    }
  }

  return {
    handles: (method) => Object.hasOwn(SUBSCRIBE_PARAMS, method),
    call(sink, method, params) {
      if (method === 'starknet_unsubscribe') {
        const id = params.subscription_id;
        const sub = typeof id === 'string' || typeof id === 'number' ? subs.get(String(id)) : undefined;
        if (!sub || sub.sink !== sink) throw new DevchainError(ErrorCode.INVALID_SUBSCRIPTION_ID);
        subs.delete(sub.id);
        return { result: true, after: () => {} };
      }
      return subscribe(sink, method, params);
    },
    dropConnection(sink) {
      for (const [id, s] of subs) if (s.sink === sink) subs.delete(id);
    },
    check: () => watcher.check(),
    get size() {
      return subs.size;
    },
  };
}

/** The first block a `block_id` replays (default: the latest); 68 beyond 1024 blocks back, 24 for an unknown block. */
function replayStart(chain: Chain, value: unknown): number {
  if (value === undefined || value === null) return chain.latestNumber;
  if (value === 'pre_confirmed' || value === 'pending' || value === 'l1_accepted') {
    throw invalidParams('block_id: a subscription starts at a block hash, a block number or "latest"');
  }
  const id = parseBlockId(value);
  const r = chain.resolve(id);
  if (r.kind !== 'block') throw invalidParams('block_id: a subscription starts at a mined block');
  if (chain.latestNumber - r.block.number > MAX_BLOCKS_BACK) throw new DevchainError(ErrorCode.TOO_MANY_BLOCKS_BACK);
  return r.block.number;
}

/** Events of one pre-confirmed transaction, as getEvents lists them. */
function eventsOf(chain: Chain, t: StoredTx): EmittedEvent[] {
  const txHash = toHex(t.hash);
  return t.receipt.events.map((e, i) => ({
    from_address: e.from_address,
    keys: e.keys,
    data: e.data,
    transaction_hash: txHash,
    transaction_index: t.index,
    event_index: i,
    block_number: chain.pendingBlock.number,
  }));
}

/** `from_address` (one or a list) and `keys` (positions of alternatives; empty matches any) as a predicate. */
function eventMatcher(fromAddress: unknown, keys: unknown): (e: EmittedEvent) => boolean {
  let addresses: Set<string> | undefined;
  if (fromAddress !== undefined && fromAddress !== null) {
    const list = Array.isArray(fromAddress) ? fromAddress : [fromAddress];
    if (list.length > 0) addresses = new Set(list.map((a, i) => toHex(parseFelt(a, `from_address[${i}]`))));
  }
  const positions: (Set<string> | undefined)[] = [];
  if (keys !== undefined && keys !== null) {
    if (!Array.isArray(keys)) throw invalidParams('keys: expected an array of arrays of felts');
    if (keys.length > MAX_KEY_POSITIONS) {
      throw new DevchainError(ErrorCode.TOO_MANY_KEYS_IN_FILTER, {
        data: `at most ${MAX_KEY_POSITIONS} key positions, got ${keys.length}`,
      });
    }
    keys.forEach((pos, i) => {
      if (!Array.isArray(pos)) throw invalidParams(`keys[${i}]: expected an array of felts`);
      positions.push(
        pos.length === 0 ? undefined : new Set(pos.map((k, j) => toHex(parseFelt(k, `keys[${i}][${j}]`)))),
      );
    });
  }
  return (e) => {
    if (addresses && !addresses.has(e.from_address)) return false;
    for (let i = 0; i < positions.length; i++) {
      const set = positions[i];
      if (set && (e.keys[i] === undefined || !set.has(e.keys[i]!))) return false;
    }
    return true;
  };
}

function oneOf<T extends string>(value: unknown, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw invalidParams(`${name}: expected one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** A list of finality statuses (default `[ACCEPTED_ON_L2]`). */
function finalities(value: unknown, allowed: readonly Finality[]): ReadonlySet<Finality> {
  if (value === undefined || value === null) return new Set(['ACCEPTED_ON_L2']);
  if (!Array.isArray(value)) throw invalidParams(`finality_status: expected a list of ${allowed.join(', ')}`);
  return new Set(value.map((v) => oneOf(v, 'finality_status[]', allowed)!));
}

/** `sender_address` as a set of canonical hex addresses; 67 over {@link MAX_SENDER_ADDRESSES}. */
function senderFilter(value: unknown): ReadonlySet<string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidParams('sender_address: expected a list of addresses');
  if (value.length > MAX_SENDER_ADDRESSES) {
    throw new DevchainError(ErrorCode.TOO_MANY_ADDRESSES_IN_FILTER, {
      data: `at most ${MAX_SENDER_ADDRESSES} addresses, got ${value.length}`,
    });
  }
  if (value.length === 0) return undefined;
  return new Set(value.map((a, i) => toHex(parseFelt(a, `sender_address[${i}]`))));
}

function readTags(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((t) => t !== 'INCLUDE_PROOF_FACTS')) {
    throw invalidParams('tags: expected a list of INCLUDE_PROOF_FACTS');
  }
  return value;
}
