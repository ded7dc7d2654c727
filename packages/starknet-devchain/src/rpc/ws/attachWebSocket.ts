/** The WebSocket edge of the dev chain: JSON-RPC over WebSocket, subscriptions included. */
import type { Server } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import { DevchainError, ErrorCode } from '../../errors.js';
import { handleJsonRpc, isPromise } from '../handleJsonRpc.js';
import { serializeJson } from '../rawJson.js';
import { toJsonRpcError } from '../toJsonRpcError.js';
import type { MethodContext, Params } from '../types.js';
import {
  createSubscriptions,
  type DevchainSubscriptions,
  type NotificationSink,
  SUBSCRIBE_PARAMS,
} from './createSubscriptions.js';

/** Paths that accept a WebSocket upgrade. */
export const WS_PATHS: ReadonlySet<string> = new Set(['/ws', '/ws/', '/ws/rpc/v0_10', '/rpc/v0_10', '/rpc', '/']);
/** How often the chain is looked at besides after each request (block-interval mining, on-demand blocks). */
const CHECK_MS = 25;
const MAX_PAYLOAD = 50 * 1024 * 1024;

/**
 * Serves JSON-RPC over WebSocket on `server` (paths {@link WS_PATHS}): every HTTP method, plus
 * the spec 0.10 subscriptions (`starknet_subscribe*`, `starknet_unsubscribe`), whose
 * notifications follow the answer that names them. Returns the subscriptions, whose `check()`
 * must run after each HTTP request so that changes are reported at once; a timer checks too.
 * `closeAllConnections()` on the server also drops the WebSocket clients.
 *
 * @example
 * const server = createServer(handler);
 * const subs = attachWebSocket(server, { node });
 */
export function attachWebSocket(server: Server, ctx: MethodContext): DevchainSubscriptions {
  const subs = createSubscriptions(ctx.node);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD, perMessageDeflate: false });
  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (!WS_PATHS.has(path)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws));
  });
  const timer = setInterval(() => {
    if (subs.size > 0) subs.check();
  }, CHECK_MS);
  timer.unref();
  server.on('close', () => clearInterval(timer));
  const closeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    clearInterval(timer);
    for (const c of wss.clients) c.terminate();
    closeAll();
  };

  function serve(ws: WebSocket) {
    const sink: NotificationSink = {
      notify(method, subscriptionId, result) {
        if (ws.readyState !== ws.OPEN) return;
        ws.send(serializeJson({ jsonrpc: '2.0', method, params: { subscription_id: subscriptionId, result } }));
      },
    };
    ws.on('message', (data) => {
      let payload: unknown;
      try {
        payload = JSON.parse(data.toString());
      } catch {
        ws.send(
          serializeJson({ jsonrpc: '2.0', id: null, error: toJsonRpcError(new DevchainError(ErrorCode.PARSE_ERROR)) }),
        );
        return;
      }
      const after: Array<() => void> = [];
      const one = (req: unknown): unknown => {
        const r = req as { method?: unknown; id?: unknown; params?: unknown; jsonrpc?: unknown } | null;
        if (typeof r !== 'object' || r === null || typeof r.method !== 'string' || !subs.handles(r.method)) {
          return handleJsonRpc(ctx, req);
        }
        const id = typeof r.id === 'string' || typeof r.id === 'number' ? r.id : null;
        try {
          if (r.jsonrpc !== '2.0') throw new DevchainError(ErrorCode.INVALID_REQUEST);
          const answer = subs.call(sink, r.method, namedParams(r.method, r.params));
          after.push(answer.after);
          return { jsonrpc: '2.0', id, result: answer.result };
        } catch (e) {
          return { jsonrpc: '2.0', id, error: toJsonRpcError(e) };
        }
      };
      const done = (out: unknown) => {
        if (out !== undefined && ws.readyState === ws.OPEN) ws.send(serializeJson(out));
        for (const f of after) f();
        // whatever the request changed (a transaction, a block) goes out now
        subs.check();
      };
      if (Array.isArray(payload) && payload.length > 0) {
        const answers = payload.map(one);
        const collect = (all: unknown[]) => {
          const list = all.filter((x) => x !== undefined);
          return list.length > 0 ? list : undefined;
        };
        // a method that answers later (the postman's) holds the batch's answer until it has
        if (answers.some(isPromise)) Promise.all(answers).then((all) => done(collect(all)));
        else done(collect(answers));
      } else {
        const out = one(payload);
        if (isPromise(out)) out.then(done);
        else done(out);
      }
    });
    ws.on('close', () => subs.dropConnection(sink));
    ws.on('error', () => ws.terminate());
  }
  return subs;
}

/** Named params of a subscription method (positional arrays in the spec's order). */
function namedParams(method: string, raw: unknown): Params {
  if (raw === undefined || raw === null) return {};
  const names = SUBSCRIBE_PARAMS[method]!;
  if (Array.isArray(raw)) {
    if (raw.length > names.length)
      throw new DevchainError(ErrorCode.INVALID_PARAMS, { data: 'too many positional params' });
    const out: Params = {};
    raw.forEach((v, i) => {
      out[names[i]!] = v;
    });
    return out;
  }
  if (typeof raw !== 'object') throw new DevchainError(ErrorCode.INVALID_PARAMS);
  for (const k of Object.keys(raw)) {
    if (!names.includes(k)) throw new DevchainError(ErrorCode.INVALID_PARAMS, { data: `unknown param ${k}` });
  }
  return raw as Params;
}
