import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { LimitSettings } from '../../config/types.js';
import { GatewayError } from '../../errors/GatewayError.js';
import { ethMethods } from '../../families/eth/ethMethods.js';
import type { Limiter } from '../../limits/Limiter.js';
import type { Logger } from '../../log/createLogger.js';
import type { Network } from '../../network/createNetwork.js';
import type { RequestContext } from '../../pipeline/RequestContext.js';
import type { RequestPath } from '../../pipeline/requestPath.js';
import type { RpcCall } from '../../pipeline/RpcCall.js';
import { SUBSCRIPTION_CLOSE, type SubscriptionHub } from '../../subscriptions/createSubscriptionHub.js';
import type { Subscriptions } from '../../subscriptions/createSubscriptions.js';
import { refuseUpgrade } from '../../wire/refuseUpgrade.js';
import { createRequestContext, nextRequestId } from '../createRequestContext.js';
import { credentialsOf } from '../credentialsOf.js';

/**
 * Close codes the gateway uses, each sent with a reason text. Every way a subscription ends
 * has one: the client unsubscribes or closes (its own code), or one of these.
 */
export const WS_CLOSE = {
  /** The gateway is stopping. */
  GOING_AWAY: SUBSCRIPTION_CLOSE.GOING_AWAY,
  /** Over the per-connection in-flight cap or the send buffer (the client must read and pace itself). */
  POLICY: 1008,
  /** The upstream subscription connection failed for good (reconnecting gave up). */
  UPSTREAM_LOST: SUBSCRIPTION_CLOSE.UPSTREAM_FAILED,
} as const;

/** Credits charged per subscription event delivered (usage records the notification method, `eth_subscription`): the eth table's eth_subscribe cost. */
const EVENT_CREDITS = ethMethods.eth_subscribe.credits;

/** Subscriptions one connection may hold (each is a little memory here and maybe one upstream). */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1_000;

/**
 * Serves `{ws_url}/ws/v3/<KEY>`. The upgrade is admitted by the same request path as HTTP
 * (key, secret/JWT from the `Authorization` header, origin, user agent) and by the per-key
 * connection cap; a refusal is an HTTP answer, never a dropped socket. On an open connection
 * every message goes through the same request path as an HTTP body; eth_subscribe /
 * eth_unsubscribe go to the network's subscription hub (one upstream subscription per filter,
 * shared by every client; each client has its own subscription id) and events are charged per
 * event and per client. Memory stays bounded: at most `maxInFlightPerConnection` unanswered
 * requests and `maxSendBufferBytes` unread bytes per connection, beyond which the connection is
 * closed (1008). Clients are pinged every `clientHeartbeatMs`; one that did not answer the
 * previous ping is dropped. On shutdown every connection is closed with 1001.
 *
 * @example
 * const ws = createWebSocketEdge({ path, limiter, limits: config.limits, log, subscriptions });
 * server.on('upgrade', (req, socket, head) => ws.upgrade(req, socket, head, network, key));
 */
export function createWebSocketEdge(deps: {
  path: RequestPath;
  limiter: Limiter;
  limits: LimitSettings;
  log: Logger;
  subscriptions: Subscriptions;
}) {
  const { path, limiter, limits, log, subscriptions } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxBodyBytes, perMessageDeflate: false });
  const openPerKey = new Map<string, number>();
  /** Clients pinged and not heard from since. */
  const unanswered = new WeakSet<WebSocket>();
  const heartbeat = setInterval(() => {
    for (const client of wss.clients) {
      if (unanswered.has(client)) {
        subscriptions.deadClientClosed();
        client.terminate();
        continue;
      }
      unanswered.add(client);
      client.ping();
    }
  }, subscriptions.timings.clientHeartbeatMs);
  heartbeat.unref();

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
    const closed = subscriptions.connectionOpened();
    /** This connection's subscription ids, in the network's hub. */
    const mine = new Set<string>();
    let pendingSubscribes = 0;
    const hub: SubscriptionHub | undefined = subscriptions.hubFor(network);
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
    const sink = {
      event(text: string, method: string) {
        if (closing) return;
        send(text);
        const eventCtx = { ...connection, requestId: nextRequestId(), startedAt: Date.now() };
        void limiter.record(key, EVENT_CREDITS).catch(() => {});
        path.recordUsage(eventCtx, {
          method,
          status: 200,
          error: undefined,
          credits: EVENT_CREDITS,
          upstream: undefined,
          bytesIn: 0,
          bytesOut: text.length,
        });
      },
      end: (code: number, reason: string) => closeFor(code, reason),
    };
    ws.on('pong', () => unanswered.delete(ws));

    /** Subscribe / unsubscribe calls go to the network's hub; `activations` run once the answer is written. */
    const subscription =
      (activations: Array<() => void>) =>
      (call: RpcCall): Promise<void> | undefined => {
        if (!hub) return undefined;
        const subscribe = hub.family.subscribeMethods.has(call.method);
        if (!subscribe && !hub.family.unsubscribeMethods.has(call.method)) return undefined;
        const h = hub;
        return (async () => {
          try {
            const params = call.prepared!.upstreamParams;
            if (!subscribe) {
              const id = h.family.unsubscribeId(params);
              const ended = mine.delete(id) && h.unsubscribe(id);
              if (!ended && h.family.unknownSubscription) throw h.family.unknownSubscription();
              call.result = ended;
              return;
            }
            if (mine.size + pendingSubscribes >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
              throw new GatewayError(
                'INVALID_REQUEST',
                `too many subscriptions on this connection: at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION}; unsubscribe first`,
              );
            }
            pendingSubscribes += 1;
            const sub = await h
              .subscribe(call.prepared!.upstreamMethod, params, sink)
              .finally(() => (pendingSubscribes -= 1));
            if (closing) {
              h.unsubscribe(sub.id);
              return;
            }
            mine.add(sub.id);
            activations.push(sub.activate);
            call.result = sub.id;
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
      const activations: Array<() => void> = [];
      path.answerRpc(ctx, network, text, subscription(activations)).then(
        (reply) => {
          inFlight -= 1;
          if (reply.body !== undefined) send(reply.body);
          // events only after the answer that names the subscription
          for (const activate of activations) activate();
        },
        (err: unknown) => {
          inFlight -= 1;
          log.error('websocket message failed', { error: (err as Error).message });
        },
      );
    });
    ws.once('close', () => {
      closing = true;
      closed();
      aborter.abort();
      for (const id of mine) hub?.unsubscribe(id);
      mine.clear();
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
    /**
     * Closes every client connection with 1001 (the gateway is stopping) and waits up to
     * `graceMs` for the closing handshakes before dropping the rest.
     */
    async close(graceMs = 500): Promise<void> {
      clearInterval(heartbeat);
      const clients = [...wss.clients];
      for (const client of clients) client.close(WS_CLOSE.GOING_AWAY, 'gateway shutting down');
      const end = Date.now() + graceMs;
      while (Date.now() < end && clients.some((c) => c.readyState !== c.CLOSED)) {
        await new Promise((r) => setTimeout(r, 20));
      }
      for (const client of clients) client.terminate();
      wss.close();
    },
    /** Open connections per key (for tests and metrics). */
    openConnections: (key: string): number => openPerKey.get(key) ?? 0,
  };
}

/** The WebSocket edge built by {@link createWebSocketEdge}. */
export type WebSocketEdge = ReturnType<typeof createWebSocketEdge>;
