import WebSocket from 'ws';
import { GatewayError, UpstreamRpcError } from '../errors/GatewayError.js';

/** How an upstream socket keeps itself alive. */
export interface UpstreamSocketTimings {
  /** A ping every this often; a socket that did not answer the previous ping is dropped. */
  readonly heartbeatMs: number;
  /** First reconnect delay; doubled on each failed attempt (with jitter) up to `maxBackoffMs`. */
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  /** After failing to reconnect for this long, the socket gives up (`onGiveUp`). */
  readonly giveUpAfterMs: number;
  /** An upstream that does not answer a call within this is dropped (and the call fails). */
  readonly callTimeoutMs: number;
}

/** What the owner of an upstream socket hears. */
export interface UpstreamSocketEvents {
  /** A subscription notification: the upstream subscription id and the event. */
  onNotification(upstreamId: string, result: unknown): void;
  /** The socket is open again after a drop (not on the first open): resubscribe and backfill. */
  onReconnected(): void;
  /** The socket dropped; it reconnects by itself unless closed. */
  onDropped(reason: string): void;
  /** Reconnecting failed for `giveUpAfterMs`: the socket is closed for good. */
  onGiveUp(reason: string): void;
}

/** A JSON-RPC connection to an upstream's WebSocket that reconnects by itself. */
export interface UpstreamSocket {
  /**
   * One JSON-RPC call. `onResult` runs synchronously when the answer arrives, before any later
   * message is read (so a subscription id is routed before its first notification).
   */
  call(method: string, params: unknown, onResult?: (result: unknown) => void): Promise<unknown>;
  /** Whether the socket is open now. */
  readonly connected: boolean;
  /** Connections opened since creation (the first one included). */
  readonly connects: number;
  /** Closes the socket for good (no reconnect). */
  close(): void;
}

/**
 * Opens a JSON-RPC WebSocket to the URL that `urlOf` gives at each (re)connect, told how many
 * attempts in a row have failed, so a network can point it at another upstream while one fails. A ping goes out every `heartbeatMs`; a socket that
 * has not answered the previous ping (or a call within `callTimeoutMs`) is terminated and
 * reconnected with exponential backoff; after `giveUpAfterMs` without a connection it gives up.
 * Calls made while it is reconnecting wait for the connection.
 *
 * @example
 * const socket = createUpstreamSocket(() => network.wsUpstreamUrl(), timings, {
 *   onNotification: (id, result) => route(id, result),
 *   onReconnected: () => resubscribeAll(),
 *   onDropped: () => {},
 *   onGiveUp: (reason) => endAll(reason),
 * });
 * const id = await socket.call('eth_subscribe', ['newHeads']);
 */
export function createUpstreamSocket(
  urlOf: (failedAttempts: number) => string | undefined,
  timings: UpstreamSocketTimings,
  events: UpstreamSocketEvents,
): UpstreamSocket {
  let ws: WebSocket | undefined;
  let open = false;
  let closed = false;
  let connects = 0;
  let attempt = 0;
  let downSince: number | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    {
      resolve: (v: unknown) => void;
      reject: (e: unknown) => void;
      onResult: ((r: unknown) => void) | undefined;
      timer: NodeJS.Timeout;
    }
  >();
  let waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];

  function failPending(err: unknown) {
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    pending.clear();
  }

  function connect() {
    const url = urlOf(attempt);
    if (!url) return scheduleReconnect('no upstream WebSocket URL');
    const socket = new WebSocket(url, { perMessageDeflate: false });
    ws = socket;
    let alive = true;
    socket.on('open', () => {
      if (closed) return socket.terminate();
      open = true;
      attempt = 0;
      downSince = undefined;
      connects += 1;
      alive = true;
      heartbeat = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, timings.heartbeatMs);
      heartbeat.unref();
      const ready = waiters;
      waiters = [];
      for (const w of ready) w.resolve();
      if (connects > 1) events.onReconnected();
    });
    socket.on('pong', () => {
      alive = true;
    });
    socket.on('message', (data) => onMessage(data.toString()));
    socket.on('error', () => {
      // 'close' follows
    });
    socket.on('close', (code) => {
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = undefined;
      const wasOpen = open;
      open = false;
      if (ws === socket) ws = undefined;
      failPending(lost());
      if (closed) return;
      if (wasOpen) events.onDropped(`upstream WebSocket closed (${code})`);
      scheduleReconnect(`upstream WebSocket closed (${code})`);
    });
  }

  function scheduleReconnect(reason: string) {
    if (closed) return;
    downSince ??= Date.now();
    if (Date.now() - downSince >= timings.giveUpAfterMs) {
      closed = true;
      const err = new GatewayError(
        'UPSTREAM_UNAVAILABLE',
        `upstream unavailable: the subscription connection failed for ${Math.round(timings.giveUpAfterMs / 1000)} s (${reason})`,
        { data: { reason: 'socket' } },
      );
      for (const w of waiters) w.reject(err);
      waiters = [];
      events.onGiveUp(reason);
      return;
    }
    const base = Math.min(timings.maxBackoffMs, timings.initialBackoffMs * 2 ** attempt);
    attempt += 1;
    const delay = base / 2 + Math.random() * (base / 2);
    reconnectTimer = setTimeout(connect, delay);
    reconnectTimer.unref();
  }

  function onMessage(text: string) {
    let msg: {
      id?: unknown;
      method?: unknown;
      params?: { subscription?: unknown; subscription_id?: unknown; result?: unknown };
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof msg.method === 'string' && msg.params) {
      // eth: `subscription`; Starknet spec 0.10: `subscription_id`
      const id = msg.params.subscription ?? msg.params.subscription_id;
      if (typeof id === 'string' || typeof id === 'number') events.onNotification(String(id), msg.params.result);
      return;
    }
    if (typeof msg.id !== 'number') return;
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.error) {
      p.reject(
        new UpstreamRpcError(
          typeof msg.error.code === 'number' ? msg.error.code : -32603,
          String(msg.error.message),
          msg.error.data,
        ),
      );
    } else {
      p.onResult?.(msg.result);
      p.resolve(msg.result);
    }
  }

  function whenOpen(): Promise<void> {
    if (closed) return Promise.reject(lost());
    if (open) return Promise.resolve();
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  }

  connect();

  return {
    async call(method, params, onResult) {
      await whenOpen();
      const socket = ws!;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          // an upstream that stops answering is as good as gone: drop it and reconnect
          pending.delete(id);
          reject(lost());
          socket.terminate();
        }, timings.callTimeoutMs);
        pending.set(id, { resolve, reject, onResult, timer });
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      });
    },
    get connected() {
      return open;
    },
    get connects() {
      return connects;
    },
    close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (heartbeat) clearInterval(heartbeat);
      failPending(lost());
      for (const w of waiters) w.reject(lost());
      waiters = [];
      ws?.terminate();
    },
  };
}

function lost(): GatewayError {
  return new GatewayError('UPSTREAM_UNAVAILABLE', 'upstream unavailable: the subscription connection was lost', {
    data: { reason: 'socket' },
  });
}
