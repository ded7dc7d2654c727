import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import { GatewayError, UpstreamRpcError } from '../../errors/GatewayError.js';
import { toWireError } from '../../errors/toWireError.js';
import type { KeyAuthenticator } from '../../keys/createKeyAuthenticator.js';
import type { RpcRequest, RpcResponse } from '../../jsonrpc/types.js';
import type { Network } from '../../network/createNetwork.js';
import type { Resolved } from '../../network/createNetworkResolver.js';
import { handleRpcBody } from '../../rpc/handleRpcBody.js';
import { handleRpcRequest } from '../../rpc/handleRpcRequest.js';
import { unauthorized } from '../unauthorized.js';
import { CORS_HEADERS } from '../cors.js';
import { errorBody } from '../errorBody.js';
import { routeRequest } from '../routeRequest.js';
import { createSubscriptionBridge, type SubscriptionBridge } from './createSubscriptionBridge.js';

interface WsDeps {
  resolve: (host: string | undefined, path: string) => Resolved<Network> | undefined;
  keys: KeyAuthenticator;
  maxPayload: number;
  maxBatch: number;
}

/**
 * Serves `{ws_url}/ws/v3/<KEY>`: the upgrade is authenticated like HTTP (401/404 answered
 * as plain HTTP before the upgrade); every method runs through the same pipeline as HTTP;
 * eth_subscribe / eth_unsubscribe are bridged to the upstream's WebSocket.
 */
export function attachWebSocket(app: FastifyInstance, deps: WsDeps): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: deps.maxPayload, perMessageDeflate: false });
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade(req, socket, head).catch(() => socket.destroy());
  });
  app.addHook('preClose', async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const route = routeRequest(deps.resolve, req.headers.host, req.url ?? '/');
    if (route.kind !== 'ws') {
      return reject(
        socket,
        route.kind === 'network-not-found'
          ? new GatewayError(
              'NETWORK_NOT_FOUND',
              'network not found: no network matches this Host header or path prefix',
            )
          : new GatewayError('NOT_FOUND', 'not found: WebSocket endpoints are {ws_url}/ws/v3/<API_KEY>'),
      );
    }
    const key = await deps.keys.authenticate(route.key);
    if (!key) return reject(socket, unauthorized(route.key));
    wss.handleUpgrade(req, socket, head, (ws) => serveConnection(ws, route.network, deps.maxBatch));
  }
}

function reject(socket: Duplex, err: GatewayError) {
  const body = errorBody(err);
  const reason = err.httpStatus === 401 ? 'Unauthorized' : err.httpStatus === 404 ? 'Not Found' : 'Bad Request';
  const cors = Object.entries(CORS_HEADERS)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${err.httpStatus} ${reason}\r\ncontent-type: application/json\r\n${cors}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function serveConnection(ws: WebSocket, network: Network, maxBatch: number) {
  let bridge: SubscriptionBridge | undefined;
  const ctx = { transport: 'ws' as const, dev: network.settings.dev };
  const send = (text: string) => {
    if (ws.readyState === ws.OPEN) ws.send(text);
  };

  /** eth_subscribe / eth_unsubscribe go to the upstream's WebSocket through the bridge. */
  async function subscription(req: RpcRequest): Promise<RpcResponse | undefined> {
    let response: RpcResponse;
    try {
      const call = network.family.prepare(req, ctx);
      if (!bridge) {
        const url = network.wsUpstreamUrl();
        if (!url) throw new GatewayError('METHOD_NOT_FOUND', 'subscriptions are not available on this network');
        bridge = createSubscriptionBridge(url, send, () => ws.close(1011, 'upstream subscription connection lost'));
      }
      const result = await bridge.call(call.upstreamMethod, call.upstreamParams).catch((err: unknown) => {
        const rpc = (err as { rpc?: { code: number; message: string; data?: unknown } }).rpc;
        throw rpc ? new UpstreamRpcError(rpc.code, rpc.message, rpc.data) : err;
      });
      response = { jsonrpc: '2.0', id: req.id ?? null, result: call.finish ? call.finish(result) : result };
    } catch (err) {
      response = { jsonrpc: '2.0', id: req.id ?? null, error: toWireError(err).error };
    }
    return req.id === undefined ? undefined : response;
  }

  const answerRequest = (req: RpcRequest) =>
    req.method === 'eth_subscribe' || req.method === 'eth_unsubscribe'
      ? subscription(req)
      : handleRpcRequest(network, req, ctx);

  ws.on('message', (data, isBinary) => {
    const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
    void handleRpcBody(network, text, ctx, maxBatch, answerRequest).then((reply) => {
      if (reply.body !== undefined) send(reply.body);
    });
  });
  ws.on('close', () => bridge?.close());
  ws.on('error', () => bridge?.close());
}
