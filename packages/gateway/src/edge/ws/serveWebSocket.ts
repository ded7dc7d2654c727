import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { LimitSettings } from '../../config/types.js';
import { GatewayError, UpstreamRpcError } from '../../errors/GatewayError.js';
import { ethMethods } from '../../families/eth/ethMethods.js';
import type { Limiter } from '../../limits/Limiter.js';
import type { Logger } from '../../log/createLogger.js';
import type { Network } from '../../network/createNetwork.js';
import type { RequestContext } from '../../pipeline/RequestContext.js';
import type { RequestPath } from '../../pipeline/requestPath.js';
import type { RpcCall } from '../../pipeline/RpcCall.js';
import { refuseUpgrade } from '../../wire/refuseUpgrade.js';
import { createRequestContext, nextRequestId } from '../createRequestContext.js';
import { credentialsOf } from '../credentialsOf.js';
import { createSubscriptionBridge, type SubscriptionBridge } from './createSubscriptionBridge.js';

/** Close codes the gateway uses, with the reason text sent alongside. */
export const WS_CLOSE = {
  /** Over the per-connection in-flight cap or the send buffer (the client must read and pace itself). */
  POLICY: 1008,
  /** The upstream subscription connection was lost. */
  UPSTREAM_LOST: 1011,
  /** The gateway is stopping. */
  GOING_AWAY: 1001,
} as const;

/** Credits charged per subscription event delivered (as `eth_subscription` in usage): the table's eth_subscribe cost. */
const EVENT_CREDITS = ethMethods.eth_subscribe.credits;

/**
 * Serves `{ws_url}/ws/v3/<KEY>`. The upgrade is admitted by the same request path as HTTP
 * (key, secret/JWT from the `Authorization` header, origin, user agent) and by the per-key
 * connection cap; a refusal is an HTTP answer, never a dropped socket. On an open connection
 * every message goes through the same request path as an HTTP body; eth_subscribe /
 * eth_unsubscribe are bridged to the upstream's WebSocket and events are charged per event.
 * Memory stays bounded: at most `maxInFlightPerConnection` unanswered requests and
 * `maxSendBufferBytes` unread bytes per connection, beyond which the connection is closed (1008).
 *
 * @example
 * const ws = createWebSocketEdge({ path, limiter, limits: config.limits, log });
 * server.on('upgrade', (req, socket, head) => ws.upgrade(req, socket, head, network, key));
 */
export function createWebSocketEdge(deps: { path: RequestPath; limiter: Limiter; limits: LimitSettings; log: Logger }) {
  const { path, limiter, limits, log } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxBodyBytes, perMessageDeflate: false });
  const openPerKey = new Map<string, number>();

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, network: Network, pathKey: string) {
    const aborter = new AbortController();
    let ctx: RequestContext;
    try {
      ctx = createRequestContext(req, {
        transport: 'ws',
        network: network.settings.name,
        credentials: credentialsOf(pathKey, req.headers.authorization),
        timeoutMs: limits.requestTimeoutMs,
        signal: aborter.signal,
        log,
      });
      await path.admit(ctx);
    } catch (err) {
      return refuseUpgrade(socket, err);
    }
    const key = ctx.key!.record.key;
    const open = openPerKey.get(key) ?? 0;
    if (open >= limits.ws.maxConnectionsPerKey) {
      return refuseUpgrade(
        socket,
        new GatewayError(
          'RATE_LIMITED',
          `too many WebSocket connections for this API key: at most ${limits.ws.maxConnectionsPerKey}`,
          { refusal: 'connections', retryAfterSeconds: 1 },
        ),
      );
    }
    openPerKey.set(key, open + 1);
    wss.handleUpgrade(req, socket, head, (ws) => serveConnection(ws, ctx, network, aborter, key));
  }

  function serveConnection(
    ws: WebSocket,
    connection: RequestContext,
    network: Network,
    aborter: AbortController,
    key: string,
  ) {
    let bridge: SubscriptionBridge | undefined;
    let inFlight = 0;
    let closing = false;
    const closeFor = (code: number, reason: string) => {
      if (closing) return;
      closing = true;
      ws.close(code, reason);
      // a client that does not read never completes the closing handshake: drop it soon
      setTimeout(() => ws.terminate(), 1_000).unref();
    };
    const send = (text: string) => {
      if (closing || ws.readyState !== ws.OPEN) return;
      // checked before sending: one large answer always goes out; a client that leaves earlier
      // ones unread is closed instead of buffered without bound
      if (ws.bufferedAmount > limits.ws.maxSendBufferBytes) {
        closeFor(
          WS_CLOSE.POLICY,
          `send buffer full: more than ${limits.ws.maxSendBufferBytes} bytes unread; read your messages`,
        );
        return;
      }
      ws.send(text);
    };
    const onEvent = (text: string) => {
      send(text);
      const eventCtx = { ...connection, requestId: nextRequestId(), startedAt: Date.now() };
      void limiter.record(key, EVENT_CREDITS).catch(() => {});
      path.recordUsage(eventCtx, {
        method: 'eth_subscription',
        status: 200,
        error: undefined,
        credits: EVENT_CREDITS,
        upstream: undefined,
        bytesIn: 0,
        bytesOut: text.length,
      });
    };

    /** eth_subscribe / eth_unsubscribe go to the upstream's WebSocket through the bridge. */
    const subscription = (call: RpcCall): Promise<void> | undefined => {
      if (call.method !== 'eth_subscribe' && call.method !== 'eth_unsubscribe') return undefined;
      return (async () => {
        try {
          if (!bridge) {
            const url = network.wsUpstreamUrl();
            if (!url) throw new GatewayError('METHOD_NOT_FOUND', 'subscriptions are not available on this network');
            bridge = createSubscriptionBridge(url, onEvent, () =>
              closeFor(WS_CLOSE.UPSTREAM_LOST, 'upstream subscription connection lost'),
            );
          }
          const prepared = call.prepared!;
          const result = await bridge.call(prepared.upstreamMethod, prepared.upstreamParams).catch((err: unknown) => {
            const rpc = (err as { rpc?: { code: number; message: string; data?: unknown } }).rpc;
            throw rpc ? new UpstreamRpcError(rpc.code, rpc.message, rpc.data) : err;
          });
          call.result = prepared.finish ? prepared.finish(result) : result;
        } catch (err) {
          call.error = err;
        }
      })();
    };

    ws.on('message', (data, isBinary) => {
      if (closing) return;
      if (inFlight >= limits.ws.maxInFlightPerConnection) {
        closeFor(
          WS_CLOSE.POLICY,
          `too many requests in flight: at most ${limits.ws.maxInFlightPerConnection} unanswered; wait for answers`,
        );
        return;
      }
      inFlight += 1;
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      const now = Date.now();
      const ctx: RequestContext = {
        ...connection,
        requestId: nextRequestId(),
        startedAt: now,
        deadline: now + limits.requestTimeoutMs,
      };
      path.answerRpc(ctx, network, text, subscription).then(
        (reply) => {
          inFlight -= 1;
          if (reply.body !== undefined) send(reply.body);
        },
        (err: unknown) => {
          inFlight -= 1;
          log.error('websocket message failed', { error: (err as Error).message });
        },
      );
    });
    ws.once('close', () => {
      closing = true;
      aborter.abort();
      bridge?.close();
      const left = (openPerKey.get(key) ?? 1) - 1;
      if (left <= 0) openPerKey.delete(key);
      else openPerKey.set(key, left);
    });
    ws.on('error', () => ws.terminate());
  }

  return {
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, network: Network, key: string): void {
      upgrade(req, socket, head, network, key).catch(() => socket.destroy());
    },
    /** Closes every client connection (the gateway is stopping). */
    close(): void {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
    /** Open connections per key (for tests and metrics). */
    openConnections: (key: string): number => openPerKey.get(key) ?? 0,
  };
}

/** The WebSocket edge built by {@link createWebSocketEdge}. */
export type WebSocketEdge = ReturnType<typeof createWebSocketEdge>;
