/** One end of a log query's block range: a height, or a tag resolved once per request. */
export type RangeEnd =
  | { readonly kind: 'number'; readonly n: number }
  | { readonly kind: 'tag'; readonly tag: 'latest' | 'pending' | 'safe' | 'finalized' };

/** An `eth_getLogs` call over a block range (not a `blockHash` one): its filter and both ends. */
export interface LogsQuery {
  readonly filter: Readonly<Record<string, unknown>>;
  readonly from: RangeEnd;
  readonly to: RangeEnd;
}

const QUANTITY = /^0x[0-9a-fA-F]{1,13}$/;
const TAGS = new Set(['latest', 'pending', 'safe', 'finalized']);

function endOf(v: unknown): RangeEnd | undefined {
  if (v === undefined || v === null) return { kind: 'tag', tag: 'latest' };
  if (typeof v !== 'string') return undefined;
  if (QUANTITY.test(v)) return { kind: 'number', n: Number.parseInt(v, 16) };
  if (v === 'earliest') return { kind: 'number', n: 0 };
  if (TAGS.has(v)) return { kind: 'tag', tag: v as 'latest' };
  return undefined;
}

/**
 * The block range of an `eth_getLogs` call's params (`[filter]`): `fromBlock` and `toBlock`
 * (absent: `latest`; `earliest`: block 0). Undefined for a `blockHash` filter and for params the
 * gateway does not read (the upstream answers them as it does).
 *
 * @example
 * logsQuery([{ fromBlock: '0x10', toBlock: 'latest' }]); // { filter, from: { kind: 'number', n: 16 }, to: { kind: 'tag', tag: 'latest' } }
 */
export function logsQuery(params: unknown): LogsQuery | undefined {
  if (!Array.isArray(params) || params.length !== 1) return undefined;
  const filter = params[0] as unknown;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return undefined;
  const f = filter as Record<string, unknown>;
  if (f.blockHash !== undefined) return undefined;
  const from = endOf(f.fromBlock);
  const to = endOf(f.toBlock);
  return from === undefined || to === undefined ? undefined : { filter: f, from, to };
}

/** A block number as JSON-RPC writes it. */
export const hex = (n: number): string => `0x${n.toString(16)}`;
