/** One end of a `starknet_getEvents` range: a height, a tag (resolved once per first page) or a hash (not split). */
export type EventsEnd =
  | { readonly kind: 'number'; readonly n: number }
  | { readonly kind: 'tag'; readonly tag: string }
  | { readonly kind: 'hash' };

/** A `starknet_getEvents` call's filter and both ends of its block range. */
export interface EventsQuery {
  readonly filter: Readonly<Record<string, unknown>>;
  readonly from: EventsEnd;
  readonly to: EventsEnd;
  /** The client's `chunk_size`. */
  readonly chunk: number;
  /** The client's `continuation_token`, when it sent one. */
  readonly token: string | undefined;
}

/** Tags an events range may end at: `latest`, `l1_accepted` and the pending block's (`pre_confirmed`, `pending`). */
const TAGS = new Set(['latest', 'l1_accepted', 'pre_confirmed', 'pending']);

function endOf(v: unknown, absent: EventsEnd): EventsEnd | undefined {
  if (v === undefined || v === null) return absent;
  if (typeof v === 'string') return TAGS.has(v) ? { kind: 'tag', tag: v } : undefined;
  if (typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as { block_number?: unknown; block_hash?: unknown };
  if (Number.isSafeInteger(o.block_number) && (o.block_number as number) >= 0)
    return { kind: 'number', n: o.block_number as number };
  if (typeof o.block_hash === 'string') return { kind: 'hash' };
  return undefined;
}

/**
 * The range of a `starknet_getEvents` call's named params (`{ filter }`, as the family prepares
 * them): `from_block` absent is block 0, `to_block` absent the pending block (the spec's
 * defaults). Undefined for params the gateway does not read (the upstream answers them).
 *
 * @example
 * eventsQuery({ filter: { from_block: { block_number: 5 }, to_block: 'latest', chunk_size: 10 } });
 */
export function eventsQuery(params: unknown, pendingTag = 'pre_confirmed'): EventsQuery | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const filter = (params as { filter?: unknown }).filter;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return undefined;
  const f = filter as Record<string, unknown>;
  const chunk = f.chunk_size;
  if (!Number.isSafeInteger(chunk) || (chunk as number) < 1) return undefined;
  const token = f.continuation_token;
  if (token !== undefined && typeof token !== 'string') return undefined;
  const from = endOf(f.from_block, { kind: 'number', n: 0 });
  const to = endOf(f.to_block, { kind: 'tag', tag: pendingTag });
  return from === undefined || to === undefined ? undefined : { filter: f, from, to, chunk: chunk as number, token };
}
