import { GatewayError } from '../../errors/GatewayError.js';
import { checkBlockId, checkFelt } from '../../families/starknet/starknetParams.js';
import type { SubscriptionFilter } from '../SubscriptionFamily.js';

/** The Starknet subscription kinds. */
export type StarknetSubscriptionKind = 'newHeads' | 'events' | 'transactionStatus' | 'newTransactions' | 'receipts';

/** A `starknet_subscribe…` filter in canonical form. */
export interface StarknetSubscriptionFilter extends SubscriptionFilter {
  readonly kind: StarknetSubscriptionKind;
  /** The client's `block_id` (a replay): such a stream is its client's own, never shared. */
  readonly blockId: unknown;
  /** For events: the `getEvents` filter fields (`address`, `keys`) and the finality asked for. */
  readonly events?: { address?: string[]; keys?: string[][]; finality: 'PRE_CONFIRMED' | 'ACCEPTED_ON_L2' };
  /** For transactionStatus: the hash, canonical. */
  readonly transactionHash?: string;
}

const METHODS: Readonly<Record<string, StarknetSubscriptionKind>> = {
  starknet_subscribeNewHeads: 'newHeads',
  starknet_subscribeEvents: 'events',
  starknet_subscribeTransactionStatus: 'transactionStatus',
  starknet_subscribeNewTransactions: 'newTransactions',
  starknet_subscribeNewTransactionReceipts: 'receipts',
};

let replays = 0;

/**
 * Turns a `starknet_subscribe…` call (upstream method name, named params) into a canonical
 * filter: equal filters get the same `key` however the client spelt them (felts by value, so
 * case and leading zeros do not matter; address lists sorted and deduplicated; trailing empty
 * key positions dropped; default finality statuses made explicit). A filter with `block_id`
 * replays from that block: it gets a key of its own (a later client could not be given the
 * replay), and the upstream replays it. Throws INVALID_PARAMS (-32602) for bad shapes; the
 * upstream decides the spec's limits (34 too many keys, 67 too many addresses, 68 too far back).
 *
 * @example
 * starknetSubscriptionFilter('starknet_subscribeEvents', { from_address: ['0xB', '0xa'] }).key
 * // === starknetSubscriptionFilter('starknet_subscribeEvents', { from_address: ['0x0A', '0xb'], keys: [[]] }).key
 */
export function starknetSubscriptionFilter(method: string, raw: unknown): StarknetSubscriptionFilter {
  const kind = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (kind === undefined) throw new GatewayError('METHOD_NOT_FOUND', `the method ${method} is not a subscription`);
  const p = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const blockId = p.block_id ?? undefined;
  if (blockId !== undefined) {
    checkBlockId(blockId, 'block_id');
    if (blockId === 'pre_confirmed' || blockId === 'pending' || blockId === 'l1_accepted') {
      throw invalid('block_id', 'a block hash, a block number or "latest" (a subscription starts at a mined block)');
    }
  }
  const own = blockId === undefined ? '' : `#replay${++replays}`;
  const filter = canonical(kind, method, p, blockId, own);
  if (blockId === undefined) return filter;
  // the upstream replays from block_id on the first subscribe only: after a reconnect the stream
  // is resubscribed from now and fills the gap itself (the block may be over 1024 back by then)
  const params = filter.upstreamParams as Record<string, unknown>;
  let first = true;
  return Object.defineProperty(filter, 'upstreamParams', {
    get() {
      if (!first) return params;
      first = false;
      return { ...params, block_id: blockId };
    },
  });
}

function canonical(
  kind: StarknetSubscriptionKind,
  method: string,
  p: Record<string, unknown>,
  blockId: unknown,
  own: string,
): StarknetSubscriptionFilter {
  const upstream = (params: Record<string, unknown>) => ({ upstreamMethod: method, upstreamParams: params });
  switch (kind) {
    case 'newHeads':
      return { kind, blockId, key: `newHeads${own}`, ...upstream({}) };
    case 'events': {
      const address =
        p.from_address === undefined || p.from_address === null ? [] : felts(p.from_address, 'from_address', true);
      const keys: string[][] = [];
      if (p.keys !== undefined && p.keys !== null) {
        if (!Array.isArray(p.keys)) throw invalid('keys', 'a list of lists of felts');
        for (const [i, pos] of p.keys.entries()) keys.push(felts(pos, `keys[${i}]`, false));
        while (keys.length > 0 && keys[keys.length - 1]!.length === 0) keys.pop();
      }
      const finality = p.finality_status ?? 'ACCEPTED_ON_L2';
      if (finality !== 'ACCEPTED_ON_L2' && finality !== 'PRE_CONFIRMED') {
        throw invalid('finality_status', '"PRE_CONFIRMED" or "ACCEPTED_ON_L2"');
      }
      const params: Record<string, unknown> = { finality_status: finality };
      if (address.length > 0) params.from_address = address.length === 1 ? address[0] : address;
      if (keys.length > 0) params.keys = keys;
      const events = {
        ...(address.length > 0 ? { address } : {}),
        ...(keys.length > 0 ? { keys } : {}),
        finality,
      } as const;
      return { kind, blockId, events, key: `events:${JSON.stringify(params)}${own}`, ...upstream(params) };
    }
    case 'transactionStatus': {
      if (p.transaction_hash === undefined) throw invalid('transaction_hash', 'a felt (required)');
      const transactionHash = canonicalFelt(checkFelt(p.transaction_hash, 'transaction_hash'));
      return {
        kind,
        blockId,
        transactionHash,
        key: `transactionStatus:${transactionHash}`,
        ...upstream({ transaction_hash: transactionHash }),
      };
    }
    case 'newTransactions':
    case 'receipts': {
      const allowed =
        kind === 'receipts'
          ? ['PRE_CONFIRMED', 'ACCEPTED_ON_L2']
          : ['RECEIVED', 'CANDIDATE', 'PRE_CONFIRMED', 'ACCEPTED_ON_L2'];
      let statuses = ['ACCEPTED_ON_L2'];
      if (p.finality_status !== undefined && p.finality_status !== null) {
        if (!Array.isArray(p.finality_status) || p.finality_status.some((s) => !allowed.includes(s as string))) {
          throw invalid('finality_status', `a list of ${allowed.join(', ')}`);
        }
        statuses = [...new Set(p.finality_status as string[])].sort();
      }
      const params: Record<string, unknown> = { finality_status: statuses };
      if (p.sender_address !== undefined && p.sender_address !== null) {
        if (!Array.isArray(p.sender_address)) throw invalid('sender_address', 'a list of addresses');
        const senders = felts(p.sender_address, 'sender_address', true);
        if (senders.length > 0) params.sender_address = senders;
      }
      if (kind === 'newTransactions' && p.tags !== undefined && p.tags !== null) {
        if (!Array.isArray(p.tags) || p.tags.some((t) => t !== 'INCLUDE_PROOF_FACTS')) {
          throw invalid('tags', 'a list of "INCLUDE_PROOF_FACTS"');
        }
        if (p.tags.length > 0) params.tags = ['INCLUDE_PROOF_FACTS'];
      }
      return { kind, blockId, key: `${kind}:${JSON.stringify(params)}`, ...upstream(params) };
    }
  }
}

/** `0x` and the lower-case hex digits without leading zeros. */
function canonicalFelt(v: string): string {
  return `0x${BigInt(v).toString(16)}`;
}

/** One felt or a list (`oneOrMany`), canonical; sorted and deduplicated when the order does not matter. */
function felts(v: unknown, at: string, oneOrMany: boolean): string[] {
  const list = Array.isArray(v) ? v : oneOrMany ? [v] : undefined;
  if (list === undefined) throw invalid(at, 'a list of felts');
  const out = new Set<string>();
  for (const [i, x] of list.entries()) out.add(canonicalFelt(checkFelt(x, `${at}[${i}]`)));
  return [...out].sort();
}

function invalid(at: string, expected: string): GatewayError {
  return new GatewayError('INVALID_PARAMS', `invalid params: ${at} must be ${expected}`);
}
