import { GatewayError } from '../errors/GatewayError.js';
import type { SubscriptionFilter } from './SubscriptionFamily.js';

/** The eth subscription kinds the gateway shares. */
export type EthSubscriptionKind = 'newHeads' | 'logs' | 'newPendingTransactions';

/** An eth_subscribe filter in canonical form. */
export interface EthSubscriptionFilter extends SubscriptionFilter {
  readonly kind: EthSubscriptionKind;
  /** For `logs`: the filter object sent upstream (and to eth_getLogs when backfilling). */
  readonly logFilter?: { address?: string | string[]; topics?: Array<string | string[] | null> };
}

const HEX20 = /^0x[0-9a-fA-F]{40}$/;
const HEX32 = /^0x[0-9a-fA-F]{64}$/;

/**
 * Turns eth_subscribe params into a canonical filter: equal filters get the same `key`, however
 * the client spelt them (address case and order, a one-element array or a bare value, trailing
 * null topics, duplicates). `upstreamParams` is what goes to the upstream's eth_subscribe.
 * Throws INVALID_PARAMS (-32602) for shapes it cannot share.
 *
 * @example
 * ethSubscriptionFilter(['logs', { address: ['0xB…', '0xa…'] }]).key
 * // === ethSubscriptionFilter(['logs', { address: ['0xA…', '0xb…'], topics: [] }]).key
 */
export function ethSubscriptionFilter(params: unknown): EthSubscriptionFilter {
  const list = Array.isArray(params) ? params : [];
  const kind = list[0];
  if (kind === 'newHeads')
    return { kind, key: 'newHeads', upstreamMethod: 'eth_subscribe', upstreamParams: ['newHeads'] };
  if (kind === 'newPendingTransactions') {
    const full = list[1] === true;
    return {
      kind,
      key: full ? 'newPendingTransactions:full' : 'newPendingTransactions',
      upstreamMethod: 'eth_subscribe',
      upstreamParams: full ? [kind, true] : [kind],
    };
  }
  if (kind !== 'logs') throw invalid('params[0]', 'one of "newHeads", "logs", "newPendingTransactions"');
  const raw = list[1] ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid('params[1]', 'a log filter object { address?, topics? }');
  }
  const filter = raw as Record<string, unknown>;
  for (const field of Object.keys(filter)) {
    if (field !== 'address' && field !== 'topics') {
      throw invalid(`params[1].${field}`, 'only "address" and "topics" (a subscription follows the head)');
    }
  }
  const logFilter: { address?: string | string[]; topics?: Array<string | string[] | null> } = {};
  if (filter.address !== undefined && filter.address !== null) {
    const addresses = oneOrMany(filter.address, HEX20, 'params[1].address', 'an address or a list of addresses');
    if (addresses.length > 0) logFilter.address = addresses.length === 1 ? addresses[0]! : addresses;
  }
  if (filter.topics !== undefined && filter.topics !== null) {
    if (!Array.isArray(filter.topics) || filter.topics.length > 4) {
      throw invalid('params[1].topics', 'a list of at most 4 topics');
    }
    const topics = filter.topics.map((t, i): string | string[] | null => {
      if (t === null) return null;
      const at = `params[1].topics[${i}]`;
      const alternatives = oneOrMany(t, HEX32, at, 'a 32-byte topic, a list of them, or null');
      if (alternatives.length === 0) return null;
      return alternatives.length === 1 ? alternatives[0]! : alternatives;
    });
    while (topics.length > 0 && topics[topics.length - 1] === null) topics.pop();
    if (topics.length > 0) logFilter.topics = topics;
  }
  return {
    kind,
    key: `logs:${JSON.stringify(logFilter)}`,
    upstreamMethod: 'eth_subscribe',
    upstreamParams: ['logs', logFilter],
    logFilter,
  };
}

/** A value or a list of values matching `pattern`: lower-cased, deduplicated and sorted. */
function oneOrMany(v: unknown, pattern: RegExp, at: string, expected: string): string[] {
  const items = Array.isArray(v) ? v : [v];
  const out = new Set<string>();
  for (const item of items) {
    if (typeof item !== 'string' || !pattern.test(item)) throw invalid(at, expected);
    out.add(item.toLowerCase());
  }
  return [...out].sort();
}

function invalid(at: string, expected: string): GatewayError {
  return new GatewayError('INVALID_PARAMS', `invalid params: ${at} must be ${expected}`);
}
