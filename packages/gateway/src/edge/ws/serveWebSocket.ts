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
import { closeSocketFor } from '../../wire/closeSocketFor.js';
import { refuseUpgrade } from '../../wire/refuseUpgrade.js';
import { createRequestContext, nextRequestId } from '../createRequestContext.js';
import { credentialsOf } from '../credentialsOf.js';
import { createEventGate } from './createEventGate.js';
import { createHeldTurns } from './createHeldTurns.js';

/**
 * Close codes the gateway uses, each sent with a reason text. Every way a subscription ends
 * has one: the client unsubscribes or closes (its own code), or one of these.
 */
export const WS_CLOSE = {
  /** The gateway is stopping. */
  GOING_AWAY: SUBSCRIPTION_CLOSE.GOING_AWAY,
  /**
   * Policy: over the per-connection in-flight cap or the send buffer (the client must read and
   * pace itself); the key was revoked, or its settings now refuse the connection or one of its
   * subscriptions; the key is over its daily credits (events stop). The reason says which.
   */
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
 * event and per client, before they are sent (`createEventGate`: a key over its daily credits
 * gets a -32005 notice and the connection closes, 1008).
 *
 * A connection holds its key only as long as the key holds: before each message the key is read
 * again (`path.readmit`, from the authenticator's cache), and when a key changes (a change here,
 * or a notice from another instance) each of its connections is checked at once: a revoked key,
 * or settings that now refuse the connection (origin, user agent, secret, JWT) or one of its open
 * subscriptions (method, contract), close it with 1008 and a reason, after a JSON-RPC error
 * notice. A key held over its limits waits out its pause per message, as on HTTP (its backoff, at
 * most 1 s), with the socket's reading paused meanwhile, so a flood of refused calls costs its
 * sender time and the gateway nothing; messages that pile up meanwhile count as in flight.
 *
 * Memory stays bounded: at most `maxInFlightPerConnection` unanswered
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
  /** Each open connection's re-check, by key: run when the key changes. */
  const checksByKey = new Map<string, Set<() => void>>();
  const stopListening = path.onKeyChange((key) => {
    if (key === undefined) {
      for (const checks of checksByKey.values()) for (const check of checks) check();
    } else {
      const checks = checksByKey.get(key);
      if (checks) for (const check of checks) check();
    }
  });
  /** Events whose charge failed since the last warning (the limiter's store away): logged once a minute. */
  let unchargedSince = 0;
  const chargeFailed = (err: unknown) => {
    const now = Date.now();
    if (now - unchargedSince < 60_000) return;
    unchargedSince = now;
    log.warn('subscription events sent without a charge: the limiter did not answer', {
      error: (err as Error).message,
    });
  };
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
        credentials: credentialsOf(pathKey, req.headers),
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
    /** This connection's subscriptions (ids in the network's hub) and the calls that opened them. */
    const mine = new Map<string, RpcCall>();
    let pendingSubscribes = 0;
    const hub: SubscriptionHub | undefined = subscriptions.hubFor(network);
    let inFlight = 0;
    let closing = false;
    const closeFor = (code: number, reason: string) => {
      if (closing) return;
      closing = true;
      events.stop();
      ws.close(code, reason);
      // a client that does not read never completes the closing handshake: drop it soon
      setTimeout(() => ws.terminate(), 1_000).unref();
    };
    /** Ends the connection for a refusal: the JSON-RPC error as a notice, then 1008 with a short reason. */
    const refuse = (err: unknown) => {
      if (closing) return;
      const { notice, reason } = closeSocketFor(err);
      if (ws.readyState === ws.OPEN) ws.send(notice);
      closeFor(WS_CLOSE.POLICY, reason);
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
    const events = createEventGate({
      limiter,
      tenant: () => connection.key!,
      credits: EVENT_CREDITS,
      maxPendingBytes: limits.ws.maxSendBufferBytes,
      deliver(text, method) {
        send(text);
        const eventCtx = { ...connection, requestId: nextRequestId(), startedAt: Date.now() };
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
      exhausted: refuse,
      overflow: () =>
        closeFor(
          WS_CLOSE.POLICY,
          `send buffer full: more than ${limits.ws.maxSendBufferBytes} bytes unread; read your messages`,
        ),
      onError: chargeFailed,
    });
    const sink = {
      event(text: string, method: string) {
        if (!closing) events.push(text, method);
      },
      end: (code: number, reason: string) => closeFor(code, reason),
    };
    ws.on('pong', () => unanswered.delete(ws));

    /** Reads the key again (and its settings against this connection and its subscriptions); false when refused. */
    const readmit = async (): Promise<boolean> => {
      try {
        await path.readmit(connection, mine.values());
        return !closing;
      } catch (err) {
        refuse(err);
        return false;
      }
    };
    /** The key changed: check it now (one check at a time; a change during a check runs it again). */
    let checking = false;
    let checkAgain = false;
    const check = () => {
      if (closing) return;
      if (checking) {
        checkAgain = true;
        return;
      }
      checking = true;
      void readmit().finally(() => {
        checking = false;
        if (checkAgain) {
          checkAgain = false;
          check();
        }
      });
    };
    const checks = checksByKey.get(key) ?? new Set<() => void>();
    checksByKey.set(key, checks);
    checks.add(check);

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
            mine.set(sub.id, call);
            activations.push(sub.activate);
            call.result = sub.id;
          } catch (err) {
            call.error = err;
          }
        })();
      };

    /** One message through the request path: the key read again, then the body answered. */
    const answer = async (text: string) => {
      if (!(await readmit())) return;
      const now = Date.now();
      const ctx: RequestContext = {
        ...connection,
        requestId: nextRequestId(),
        startedAt: now,
        deadline: now + limits.requestTimeoutMs,
      };
      const activations: Array<() => void> = [];
      const reply = await path.answerRpc(ctx, network, text, subscription(activations));
      if (reply.body !== undefined) send(reply.body);
      // events only after the answer that names the subscription
      for (const activate of activations) activate();
    };
    const answered = (job: Promise<void>) =>
      job.then(
        () => {
          inFlight -= 1;
        },
        (err: unknown) => {
          inFlight -= 1;
          log.error('websocket message failed', { error: (err as Error).message });
        },
      );

    const turns = createHeldTurns({
      pauseMs: () => path.heldPauseMs(connection),
      pause: () => ws.pause(),
      resume: () => ws.resume(),
      signal: aborter.signal,
    });

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
      answered(turns.run(() => (closing ? Promise.resolve() : answer(text))));
    });
    ws.once('close', () => {
      closing = true;
      events.stop();
      closed();
      aborter.abort();
      checks.delete(check);
      if (checks.size === 0 && checksByKey.get(key) === checks) checksByKey.delete(key);
      for (const id of mine.keys()) hub?.unsubscribe(id);
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
      stopListening();
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
