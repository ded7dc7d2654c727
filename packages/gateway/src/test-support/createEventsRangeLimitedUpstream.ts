import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Starknet provider in front of a real node that refuses `starknet_getEvents` ranges wider than it takes. */
export interface EventsRangeLimitedUpstream {
  readonly url: string;
  /** The ranges of the `starknet_getEvents` it passed on, in the order they arrived. */
  readonly answered: { from: number; to: number; token: boolean }[];
  /** Refusals (or held answers, with `hangMs`) so far. */
  refused(): number;
  close(): Promise<void>;
}

/**
 * Starts an HTTP JSON-RPC proxy in front of `target` (a Starknet dev chain) that answers every
 * call as the node does, except a `starknet_getEvents` over more than `maxRange` blocks (both
 * ends counted; tags resolved on the node, the pre-confirmed block one past the latest), which
 * it refuses as providers word it (`block range is larger than max block range, … max block range = N`),
 * or, with `hangMs`, answers only after that long (a node that times out on wide ranges).
 *
 * @example
 * const p = await createEventsRangeLimitedUpstream(devchain.http, 3);
 * const slow = await createEventsRangeLimitedUpstream(devchain.http, 8, { hangMs: 3000 });
 */
export async function createEventsRangeLimitedUpstream(
  target: string,
  maxRange: number,
  options: { hangMs?: number } = {},
): Promise<EventsRangeLimitedUpstream> {
  const answered: { from: number; to: number; token: boolean }[] = [];
  let refused = 0;
  const latest = async () => {
    const r = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'starknet_blockNumber', params: [] }),
    });
    return ((await r.json()) as { result: number }).result;
  };
  const heightOf = async (v: unknown, absent: 'first' | 'pending'): Promise<number> => {
    if (v === undefined || v === null) return absent === 'first' ? 0 : (await latest()) + 1;
    if (typeof v === 'object' && typeof (v as { block_number?: unknown }).block_number === 'number')
      return (v as { block_number: number }).block_number;
    if (v === 'pre_confirmed' || v === 'pending') return (await latest()) + 1;
    return latest();
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString();
    const parsed = JSON.parse(body) as { id?: unknown; method?: unknown; params?: unknown };
    if (!Array.isArray(parsed) && parsed.method === 'starknet_getEvents') {
      const p = parsed.params as { filter?: Record<string, unknown> } | unknown[];
      const filter = (Array.isArray(p) ? p[0] : p?.filter) as Record<string, unknown>;
      const from = await heightOf(filter.from_block, 'first');
      const to = await heightOf(filter.to_block, 'pending');
      if (to - from + 1 > maxRange && options.hangMs !== undefined) {
        refused += 1;
        await new Promise((resolve) => setTimeout(resolve, options.hangMs));
      } else if (to - from + 1 > maxRange) {
        refused += 1;
        const error = {
          code: -32000,
          message: `block range is larger than max block range, block range = ${to - from + 1}, max block range = ${maxRange}`,
        };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: parsed.id ?? null, error }));
        return;
      } else answered.push({ from, to, token: filter.continuation_token !== undefined });
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
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
