import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the lying upstream changes in the real node's answers. */
export interface Lies {
  /** `eth_getBalance`: one wei more than the truth. */
  balance?: boolean;
  /** `eth_getBlockByNumber` / `eth_getBlockByHash`: another block hash (and parent hash). */
  blockHash?: boolean;
  /** `eth_blockNumber`: this many blocks ahead of the truth. */
  headAhead?: number;
}

/** An upstream in front of a real node that lies when told to. */
export interface LyingUpstream {
  readonly url: string;
  /** What it lies about now (changeable while it runs; `{}`: it tells the truth). */
  lies: Lies;
  /** JSON-RPC requests seen so far, by method. */
  hits(method?: string): number;
  close(): Promise<void>;
}

const FAKE_HASH = `0x${'bad0'.repeat(16)}`;

/**
 * A fault upstream that passes JSON-RPC to a real node (anvil) and, as `lies` says, changes its
 * answers the way a faulty or malicious provider would: a balance one wei off, another block
 * hash, a head ahead of the chain. For tests of consensus against real nodes.
 *
 * @example
 * const liar = await createLyingUpstream(anvil.http, { balance: true });
 */
export async function createLyingUpstream(target: string, lies: Lies = {}): Promise<LyingUpstream> {
  const counts = new Map<string, number>();
  const self = {
    url: '',
    lies,
    hits: (method?: string) =>
      method === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(method) ?? 0),
    close: async () => {},
  };
  const lie = (method: string, result: unknown): unknown => {
    const l = self.lies;
    if (method === 'eth_getBalance' && l.balance && typeof result === 'string')
      return `0x${(BigInt(result) + 1n).toString(16)}`;
    if (method === 'eth_blockNumber' && l.headAhead !== undefined && typeof result === 'string')
      return `0x${(BigInt(result) + BigInt(l.headAhead)).toString(16)}`;
    if ((method === 'eth_getBlockByNumber' || method === 'eth_getBlockByHash') && l.blockHash && result !== null)
      return { ...(result as object), hash: FAKE_HASH, parentHash: FAKE_HASH };
    return result;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString();
    const named = /"method"\s*:\s*"([^"]{1,64})"/.exec(body)?.[1] ?? '';
    counts.set(named, (counts.get(named) ?? 0) + 1);
    const r = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await r.text();
    let sent: { method?: unknown } | unknown[];
    let answer: { result?: unknown } | unknown[];
    try {
      sent = JSON.parse(body);
      answer = JSON.parse(text);
    } catch {
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(text);
      return;
    }
    if (Array.isArray(sent) || Array.isArray(answer) || !('result' in answer)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(text);
      return;
    }
    const method = String(sent.method);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ...answer, result: lie(method, answer.result) }));
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  self.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return self;
}
