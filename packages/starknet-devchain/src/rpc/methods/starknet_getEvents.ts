import type { EmittedEvent } from '../../chain/Chain.js';
import { DevchainError, ErrorCode, invalidParams } from '../../errors.js';
import { parseFelt, toHex } from '../../felt.js';
import { parseBlockId } from '../blockId.js';
import { cachedJson, RawJson } from '../rawJson.js';
import { type MethodContext, type Params, required } from '../types.js';

/** Largest accepted chunk_size. */
export const MAX_CHUNK_SIZE = 1024;
/** Largest number of key positions in a filter. */
export const MAX_KEY_POSITIONS = 16;

/** A compiled event filter. */
interface Matcher {
  addresses: Set<string> | undefined;
  keys: (Set<string> | undefined)[];
}

function matches(m: Matcher, e: EmittedEvent): boolean {
  if (m.addresses && !m.addresses.has(e.from_address)) return false;
  for (let i = 0; i < m.keys.length; i++) {
    const set = m.keys[i];
    if (!set) continue;
    const k = e.keys[i];
    if (k === undefined || !set.has(k)) return false;
  }
  return true;
}

function compileFilter(f: Record<string, unknown>): Matcher {
  let addresses: Set<string> | undefined;
  if (f.address !== undefined && f.address !== null) {
    const list = Array.isArray(f.address) ? f.address : [f.address];
    if (list.length > 0) addresses = new Set(list.map((a, i) => toHex(parseFelt(a, `filter.address[${i}]`))));
  }
  const keys: (Set<string> | undefined)[] = [];
  if (f.keys !== undefined) {
    if (!Array.isArray(f.keys)) throw invalidParams('filter.keys: expected an array of arrays');
    if (f.keys.length > MAX_KEY_POSITIONS) {
      throw new DevchainError(ErrorCode.TOO_MANY_KEYS_IN_FILTER, {
        data: `at most ${MAX_KEY_POSITIONS} key positions, got ${f.keys.length}`,
      });
    }
    f.keys.forEach((pos, i) => {
      if (!Array.isArray(pos)) throw invalidParams(`filter.keys[${i}]: expected an array`);
      keys.push(
        pos.length === 0 ? undefined : new Set(pos.map((k, j) => toHex(parseFelt(k, `filter.keys[${i}][${j}]`)))),
      );
    });
    while (keys.length > 0 && keys[keys.length - 1] === undefined) keys.pop();
  }
  return { addresses, keys };
}

/**
 * starknet_getEvents: events matching address and keys (position i of `keys` is an OR-set for
 * `event.keys[i]`; positions are ANDed; empty positions match anything) in [from_block, to_block],
 * ordered by block, transaction and event index; paged with opaque `"<block>-<offset>"` tokens.
 */
export function starknet_getEvents(ctx: MethodContext, p: Params): { events: RawJson; continuation_token?: string } {
  const chain = ctx.node.chain;
  const f = required(p, 'filter');
  if (typeof f !== 'object' || f === null) throw invalidParams('filter: expected an object');
  const filter = f as Record<string, unknown>;
  const chunk = filter.chunk_size;
  if (typeof chunk !== 'number' || !Number.isInteger(chunk) || chunk < 1)
    throw invalidParams('filter.chunk_size: expected a positive integer');
  if (chunk > MAX_CHUNK_SIZE)
    throw new DevchainError(ErrorCode.PAGE_SIZE_TOO_BIG, { data: `chunk_size is limited to ${MAX_CHUNK_SIZE}` });
  const matcher = compileFilter(filter);
  const from =
    filter.from_block === undefined
      ? chain.firstNumber
      : chain.numberOf(parseBlockId(filter.from_block, 'filter.from_block'));
  const to =
    filter.to_block === undefined
      ? chain.pendingBlock.number
      : chain.numberOf(parseBlockId(filter.to_block, 'filter.to_block'));
  const eventsOf = (n: number): EmittedEvent[] =>
    n === chain.pendingBlock.number ? chain.pendingEvents() : (chain.blockByNumber(n)?.events ?? []);

  let block = from;
  let offset = 0;
  const token = filter.continuation_token;
  if (token !== undefined && token !== null) {
    const m = typeof token === 'string' ? /^(\d+)-(\d+)$/.exec(token) : null;
    if (!m) throw new DevchainError(ErrorCode.INVALID_CONTINUATION_TOKEN);
    block = Number(m[1]);
    offset = Number(m[2]);
    if (block < from || block > to || offset > eventsOf(block).length)
      throw new DevchainError(ErrorCode.INVALID_CONTINUATION_TOKEN);
  }

  const out: EmittedEvent[] = [];
  for (let b = block; b <= to; b++) {
    const evs = eventsOf(b);
    for (let i = b === block ? offset : 0; i < evs.length; i++) {
      const e = evs[i]!;
      if (!matches(matcher, e)) continue;
      if (out.length === chunk) return { events: rawEvents(out), continuation_token: `${b}-${i}` };
      out.push(e);
    }
  }
  return { events: rawEvents(out) };
}

function rawEvents(events: readonly EmittedEvent[]): RawJson {
  return new RawJson(`[${events.map(cachedJson).join(',')}]`);
}
