import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the range-limited upstream words its refusal of a wide `eth_getLogs`. */
export type RangeWording =
  /** geth (and its forks): -32000 `exceed maximum block range: N` (the limit named). */
  | 'geth'
  /** Alchemy: -32602 `Log response size exceeded. … this block range should work: [0x…, 0x…]` (a range suggested). */
  | 'alchemy';

/** A provider in front of a real node that refuses `eth_getLogs` ranges wider than it takes. */
export interface RangeLimitedUpstream {
  readonly url: string;
  /** The ranges of the `eth_getLogs` it answered (in the order they arrived), and how many it refused. */
  readonly answered: { from: number; to: number }[];
  refused(): number;
  /** Requests seen, by method (all when none named). */
  hits(method?: string): number;
  /** Runs before the `n`th (1-based) `eth_getLogs` it answers is passed on (a reorg in the middle of a split). */
  beforeGetLogs(fn: ((n: number) => Promise<void>) | undefined): void;
  close(): Promise<void>;
}

/**
 * Starts an HTTP JSON-RPC proxy in front of `target` (a real anvil) that answers every call as
 * the node does, except an `eth_getLogs` over more than `maxRange` blocks (both ends counted,
 * tags resolved on the node), which it refuses in geth's or Alchemy's words, as providers do.
 *
 * @example
 * const p = await createRangeLimitedUpstream(anvil.http, 1000, 'geth');
 */
export async function createRangeLimitedUpstream(
  target: string,
  maxRange: number,
  wording: RangeWording,
): Promise<RangeLimitedUpstream> {
  const answered: { from: number; to: number }[] = [];
  const counts = new Map<string, number>();
  let total = 0;
  let refused = 0;
  let getLogs = 0;
  let before: ((n: number) => Promise<void>) | undefined;
  const call = async (method: string, params: unknown[]) => {
    const r = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return ((await r.json()) as { result: unknown }).result;
  };
  const heightOf = async (v: unknown): Promise<number> => {
    if (v === undefined || v === 'latest' || v === 'pending')
      return Number.parseInt((await call('eth_blockNumber', [])) as string, 16);
    if (v === 'earliest') return 0;
    if (v === 'safe' || v === 'finalized')
      return Number.parseInt(((await call('eth_getBlockByNumber', [v, false])) as { number: string }).number, 16);
    return Number.parseInt(String(v), 16);
  };
  const refusal = (from: number, to: number) => {
    refused += 1;
    const hex = (n: number) => `0x${n.toString(16)}`;
    return wording === 'geth'
      ? { code: -32000, message: `exceed maximum block range: ${maxRange}` }
      : {
          code: -32602,
          message: `Log response size exceeded. You can make eth_getLogs requests with up to a ${maxRange} block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [${hex(from)}, ${hex(Math.min(to, from + maxRange - 1))}]`,
        };
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString();
    const parsed = JSON.parse(body) as { id?: unknown; method?: unknown; params?: unknown[] };
    const method = Array.isArray(parsed) ? 'batch' : String(parsed.method);
    counts.set(method, (counts.get(method) ?? 0) + 1);
    total += 1;
    if (method === 'eth_getLogs') {
      const filter = (parsed.params?.[0] ?? {}) as { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown };
      if (filter.blockHash === undefined) {
        const from = await heightOf(filter.fromBlock);
        const to = await heightOf(filter.toBlock);
        if (to - from + 1 > maxRange) {
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', id: parsed.id ?? null, error: refusal(from, to) }));
          return;
        }
        getLogs += 1;
        answered.push({ from, to });
        if (before !== undefined) await before(getLogs);
      }
    }
    const r = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await r.text();
    if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(text);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered,
    refused: () => refused,
    hits: (method) => (method === undefined ? total : (counts.get(method) ?? 0)),
    beforeGetLogs(fn) {
      before = fn;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
