import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The methods that read state at their block param (position), as a pruned geth refuses them. */
const STATE_AT: Readonly<Record<string, number>> = {
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
};

/** A pruned node in front of a real one: what it keeps, and what it was asked. */
export interface PrunedUpstream {
  readonly url: string;
  /** How many of the latest blocks it serves state for (changeable while it runs). */
  keep: number;
  /** State reads it refused (answered `missing trie node`) so far. */
  refused(): number;
  /** JSON-RPC requests seen so far, by method. */
  hits(method?: string): number;
  close(): Promise<void>;
}

/**
 * A fault upstream that behaves as a pruned geth in front of a real node (anvil): a state read
 * (`eth_getBalance`, `eth_call`…) at a block number (or `earliest`) older than the latest `keep`
 * blocks of the node's head is answered as geth does, -32000 `missing trie node <hash> (path )`;
 * every other request passes to the node. For tests of block availability against real nodes.
 *
 * @example
 * const pruned = await createPrunedUpstream(anvil.http, 16);
 * // eth_getBalance(addr, '0x1') with the head at 100: { code: -32000, message: 'missing trie node … (path )' }
 */
export async function createPrunedUpstream(target: string, keep: number): Promise<PrunedUpstream> {
  let refused = 0;
  const counts = new Map<string, number>();
  const post = async (body: string) =>
    (await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();
  const headOf = async (): Promise<number> => {
    const r = JSON.parse(await post('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'));
    return Number.parseInt(r.result, 16);
  };
  const self: PrunedUpstream = {
    url: '',
    keep,
    refused: () => refused,
    hits: (method) =>
      method === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(method) ?? 0),
    close: async () => {},
  };
  /** The height a single request reads state at, when it is a number or `earliest`. */
  const stateHeight = (req: { method?: unknown; params?: unknown }): number | undefined => {
    const at = STATE_AT[String(req.method)];
    if (at === undefined || !Array.isArray(req.params)) return undefined;
    const b: unknown = req.params[at];
    if (b === 'earliest') return 0;
    if (typeof b === 'string' && /^0x[0-9a-f]+$/i.test(b)) return Number.parseInt(b, 16);
    if (typeof b === 'object' && b !== null && typeof (b as { blockNumber?: unknown }).blockNumber === 'string')
      return Number.parseInt((b as { blockNumber: string }).blockNumber, 16);
    return undefined;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString();
    let parsed: { id?: unknown; method?: unknown; params?: unknown };
    try {
      parsed = JSON.parse(body);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (!Array.isArray(parsed)) {
      const method = String(parsed.method);
      counts.set(method, (counts.get(method) ?? 0) + 1);
      const height = stateHeight(parsed);
      if (height !== undefined && height <= (await headOf()) - self.keep) {
        refused += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: parsed.id ?? null,
            error: { code: -32000, message: `missing trie node ${'5e3c'.repeat(16)} (path )` },
          }),
        );
        return;
      }
    }
    const text = await post(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end(text);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  Object.assign(self, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return self;
}
