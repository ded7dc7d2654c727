/**
 * The HTTP edge: POST `/`, `/rpc` and `/rpc/v0_10` carry JSON-RPC; GET `/is_alive` answers liveness;
 * WebSocket upgrades (`/ws`, `/rpc/v0_10`, …) carry JSON-RPC and the spec 0.10 subscriptions.
 */
import { createServer, type Server } from 'node:http';
import { ErrorCode } from '../errors.js';
import { handleJsonRpc, isPromise } from './handleJsonRpc.js';
import { serializeJson } from './rawJson.js';
import type { MethodContext } from './types.js';
import { attachWebSocket } from './ws/attachWebSocket.js';

const RPC_PATHS = new Set(['/', '/rpc', '/rpc/', '/rpc/v0_10', '/rpc/v0_10/']);
const MAX_BODY = 50 * 1024 * 1024;

/** Create (not start) the HTTP server serving JSON-RPC for `ctx`. */
export function createRpcServer(ctx: MethodContext): Server {
  let subscriptions: ReturnType<typeof attachWebSocket> | undefined;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && path === '/is_alive') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('Alive!!!');
      return;
    }
    if (req.method !== 'POST' || !RPC_PATHS.has(path)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        send(res, { jsonrpc: '2.0', id: null, error: { code: ErrorCode.PARSE_ERROR, message: 'Parse error' } });
        return;
      }
      const done = (out: unknown) => {
        if (out === undefined) res.writeHead(204).end();
        else send(res, out);
        // what the request changed reaches the WebSocket subscriptions now
        subscriptions?.check();
      };
      const out = handleJsonRpc(ctx, payload);
      if (isPromise(out)) out.then(done);
      else done(out);
    });
  });
  // Clients keep connections open while the chain is busy executing; do not race them on idle sockets.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0;
  subscriptions = attachWebSocket(server, ctx);
  return server;
}

function send(res: import('node:http').ServerResponse, body: unknown): void {
  const text = serializeJson(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}
