import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fault upstream does with one JSON-RPC request. */
export type Fault =
  /** Pass it to the real upstream behind. */
  | { kind: 'pass' }
  /** Pass it on, but answer after `ms`. */
  | { kind: 'slow'; ms: number }
  /** HTTP 429 with a Retry-After (seconds). */
  | { kind: '429'; retryAfterS: number }
  /** An HTML error page with this status (a load balancer's 502). */
  | { kind: 'html'; status: number }
  /** A JSON-RPC error answer (e.g. -32000 "header not found" from a node behind). */
  | { kind: 'rpc-error'; code: number; message: string }
  /** Reset the connection without an answer. */
  | { kind: 'reset' }
  /** Answer eth_blockNumber / starknet_blockNumber as this many blocks behind the real head. */
  | { kind: 'stale-head'; behind: number };

/** How the fault upstream speaks beyond its faults. */
export interface FaultUpstreamOptions {
  /**
   * Word a block beyond the node's head as geth does: anvil answers -32602 `BlockOutOfRangeError`,
   * geth (and the clients that copy it) -32000 `header not found`.
   */
  readonly gethErrors?: boolean;
}

/** A scriptable upstream in front of a real node (anvil, the dev chain). */
export interface FaultUpstream {
  readonly url: string;
  /** Decides the next requests' fate; `(method) => Fault`. Default: pass. */
  script(fn: (method: string, n: number) => Fault): void;
  /** Requests seen so far, by method. */
  hits(method?: string): number;
  close(): Promise<void>;
}

/**
 * Starts a small HTTP server that forwards JSON-RPC to `target` (a real node) and fails the way
 * real upstreams do when told to: 429 with Retry-After, an HTML 502, a slow answer, a reset, a
 * JSON-RPC "header not found", a stale head; with `gethErrors`, a block beyond the node's head is
 * answered in geth's words. For tests of the
 * upstream policies against real nodes (never a mock of the node itself).
 *
 * @example
 * const f = await createFaultUpstream(anvil.http);
 * f.script((method) => (method === 'eth_getBalance' ? { kind: '429', retryAfterS: 1 } : { kind: 'pass' }));
 */
export async function createFaultUpstream(target: string, options: FaultUpstreamOptions = {}): Promise<FaultUpstream> {
  let decide: (method: string, n: number) => Fault = () => ({ kind: 'pass' });
  const counts = new Map<string, number>();
  let total = 0;
  const forward = async (body: string) => {
    const r = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return r.text();
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString();
    let parsed: any;
    try {
      parsed = JSON.parse(body);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    const method = String(first?.method ?? '');
    counts.set(method, (counts.get(method) ?? 0) + 1);
    total += 1;
    const fault = decide(method, counts.get(method)!);
    switch (fault.kind) {
      case 'reset':
        req.socket.destroy();
        return;
      case '429':
        res.writeHead(429, { 'retry-after': String(fault.retryAfterS), 'content-type': 'text/plain' }).end('slow down');
        return;
      case 'html':
        res.writeHead(fault.status, { 'content-type': 'text/html' }).end('<html><body>Bad Gateway</body></html>');
        return;
      case 'rpc-error':
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: first?.id ?? null,
            error: { code: fault.code, message: fault.message },
          }),
        );
        return;
      case 'slow':
        await new Promise((r) => setTimeout(r, fault.ms));
        break;
      default:
        break;
    }
    let text = await forward(body);
    if (fault.kind === 'stale-head' && /blockNumber$/.test(method)) {
      const answer = JSON.parse(text);
      if (typeof answer.result === 'string')
        answer.result = `0x${Math.max(0, Number.parseInt(answer.result, 16) - fault.behind).toString(16)}`;
      else if (typeof answer.result === 'number') answer.result = Math.max(0, answer.result - fault.behind);
      text = JSON.stringify(answer);
    }
    if (options.gethErrors && text.includes('BlockOutOfRangeError')) {
      const answer = JSON.parse(text);
      answer.error = { code: -32000, message: 'header not found' };
      text = JSON.stringify(answer);
    }
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
    script(fn) {
      decide = fn;
    },
    hits: (method) => (method === undefined ? total : (counts.get(method) ?? 0)),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
