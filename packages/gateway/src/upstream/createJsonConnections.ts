import { connect as connectTcp, type NetConnectOpts, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { isIP } from 'node:net';
import { offAbort } from '../abort/offAbort.js';
import { onAbort } from '../abort/onAbort.js';
import type { JsonPoster, JsonPosterOptions } from './JsonPoster.js';
import { headerFieldProblem } from './headerFieldProblem.js';
import { JsonPostError } from './JsonPostError.js';
import { type Connection, Phase, type Pool, Request } from './JsonConnection.js';
import type { PostedJson } from './postJson.js';
import { type AnswerHooks, stepAnswer } from './stepAnswer.js';

/** What one read of a plain connection may bring (its buffer is reused for every read). */
const READ_BYTES = 16 * 1024;

/**
 * nodegate's own {@link JsonPoster}: kept-alive HTTP/1.1 connections (`http:` or `https:`) to
 * one upstream, made for small JSON answers at high rates. A request is one write of a head
 * prepared at creation and the body; a plain connection reads into one buffer it reuses, and
 * an answer that arrived in one read becomes its string straight from it (longer ones are
 * copied once), so a call allocates its request text, its answer text and a small request
 * object, against a few kilobytes in undici. One sweep per `timeoutMs / 10` (at least every
 * 10 ms, at most every second) checks every connection's deadline: one interval per poster, no
 * timer per request. Bodies by `Content-Length`, chunked, or until close; informational heads skipped;
 * `Connection: close` and `Keep-Alive: timeout=` honoured; an answer with bytes after it, or on
 * an idle connection, closes that connection. A connection that fails is not retried here (the
 * network's retry layer decides, knowing whether the call is a write).
 *
 * @example
 * const poster = createJsonConnections(new URL('http://127.0.0.1:8545'), ['content-type', 'application/json'], { timeoutMs: 10_000 });
 * const { status, text } = await poster.post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}');
 */
export function createJsonConnections(url: URL, headers: readonly string[], options: JsonPosterOptions): JsonPoster {
  const tls = url.protocol === 'https:';
  if (!tls && url.protocol !== 'http:') throw new Error(`an upstream URL must be http: or https:, not ${url.protocol}`);
  const maxConnections = options.connections ?? 128;
  const timeoutMs = options.timeoutMs;
  const connectTimeoutMs = options.connectTimeoutMs ?? Math.min(timeoutMs, 5_000);
  const keepAliveMs = options.keepAliveMs ?? 30_000;
  const port = Number(url.port || (tls ? 443 : 80));
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let fields = '';
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = headers[i]!;
    const value = headers[i + 1]!;
    const problem = headerFieldProblem(name, value);
    if (problem !== undefined) throw new Error(`upstream header ${JSON.stringify(name)}: ${problem.message}`);
    fields += `${name}: ${value}\r\n`;
  }
  const requestHead = `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n${fields}content-length: `;

  const all = new Set<Connection>();
  const idle: Connection[] = [];
  const waiting: Request[] = [];
  let sweeper: NodeJS.Timeout | undefined;
  let closing: (() => void) | undefined;
  let closed = false;
  let closedAll: Promise<void> | undefined;
  const sweepMs = Math.min(1_000, Math.max(10, Math.round(Math.min(timeoutMs, connectTimeoutMs) / 10)));

  const pool: Pool = {
    abandon(request) {
      const at = waiting.indexOf(request);
      if (at !== -1) waiting.splice(at, 1);
      const conn = request.conn;
      // mid-answer: the connection cannot be used again
      if (conn !== undefined && conn.request === request) {
        conn.request = undefined;
        conn.socket.destroy();
      }
      request.reject(request.signal!.reason);
    },
  };

  const sweep = () => {
    const now = performance.now();
    for (const conn of all) {
      if (now < conn.deadline) continue;
      if (conn.request === undefined) {
        conn.socket.destroy(); // idle past its keep-alive
        continue;
      }
      const err = conn.connected
        ? new JsonPostError('NG_TIMEOUT', `no answer within ${timeoutMs} ms`)
        : new JsonPostError('NG_CONNECT_TIMEOUT', `no connection within ${connectTimeoutMs} ms`);
      fail(conn, err);
    }
  };

  const dial = (): Connection => {
    const conn: Connection = {
      socket: undefined as unknown as Socket,
      buffer: tls ? undefined : Buffer.allocUnsafeSlow(READ_BYTES),
      connected: false,
      request: undefined,
      phase: Phase.Idle,
      partial: '',
      head: undefined,
      left: 0,
      parts: [],
      partsBytes: 0,
      deadline: performance.now() + connectTimeoutMs,
      keepAliveMs,
      failure: undefined,
    };
    const socket = tls
      ? connectTls({
          host,
          port,
          ...(isIP(host) === 0 ? { servername: host } : {}),
          ALPNProtocols: ['http/1.1'],
          ...(options.ca === undefined ? {} : { ca: options.ca }),
        })
      : connectTcp({
          host,
          port,
          noDelay: true,
          onread: {
            buffer: conn.buffer!,
            callback: (n: number, buf: Buffer) => {
              read(conn, buf, 0, n);
              return true;
            },
          },
        } as NetConnectOpts);
    if (tls) socket.setNoDelay(true);
    (conn as { socket: Socket }).socket = socket;
    all.add(conn);
    sweeper ??= setInterval(sweep, sweepMs).unref();
    socket.once(tls ? 'secureConnect' : 'connect', () => {
      conn.connected = true;
      if (conn.request !== undefined) conn.deadline = performance.now() + timeoutMs;
    });
    if (tls) socket.on('data', (chunk: Buffer) => read(conn, chunk, 0, chunk.length));
    socket.on('error', (err) => {
      conn.failure ??= err;
    });
    socket.on('end', () => {
      if (conn.phase === Phase.UntilClose && conn.request !== undefined) return finish(conn);
      socket.destroy();
    });
    socket.on('close', () => {
      all.delete(conn);
      const at = idle.indexOf(conn);
      if (at !== -1) idle.splice(at, 1);
      if (conn.request !== undefined) {
        const cause = conn.failure;
        fail(
          conn,
          conn.connected
            ? new JsonPostError('NG_SOCKET', 'the upstream closed the connection before it answered', cause)
            : connectError(cause),
        );
      }
      if (all.size === 0 && sweeper !== undefined) {
        clearInterval(sweeper);
        sweeper = undefined;
      }
      if (closing !== undefined && all.size === 0) closing();
      else if (waiting.length > 0 && !closed) start(waiting.shift()!);
    });
    return conn;
  };

  /** Sends `request` on an idle connection, a new one, or queues it. */
  const start = (request: Request) => {
    let conn = idle.pop();
    while (conn !== undefined && (conn.socket.destroyed || conn.socket.readableEnded)) conn = idle.pop();
    if (conn === undefined) {
      if (all.size >= maxConnections) {
        waiting.push(request);
        return;
      }
      conn = dial();
    }
    send(conn, request);
  };

  const send = (conn: Connection, request: Request) => {
    conn.socket.ref();
    request.conn = conn;
    conn.request = request;
    conn.phase = Phase.Head;
    if (conn.connected) conn.deadline = performance.now() + timeoutMs;
    conn.socket.write(request.text);
  };

  /** Bytes of the connection's answer: parsed as far as they go. */
  const read = (conn: Connection, buf: Buffer, at: number, end: number): void => {
    if (conn.request === undefined) {
      // bytes nobody asked for (on an idle connection, or after an abandoned answer)
      conn.socket.destroy();
      return;
    }
    const request = conn.request;
    try {
      while (at < end && conn.request === request) at = stepAnswer(conn, buf, at, end, hooks);
    } catch (err) {
      fail(conn, err);
      return;
    }
    // the head is due within `timeoutMs` of the request however it trickles in; in the body,
    // no pause longer than `timeoutMs` (counted from its last bytes)
    if (conn.request === request && conn.phase !== Phase.Head) conn.deadline = performance.now() + timeoutMs;
    // bytes after a whole answer: the upstream does not speak one answer per request
    if (at < end) conn.socket.destroy();
  };

  /** The body gathered in parts is whole. */
  const finish = (conn: Connection) => {
    const parts = conn.parts;
    const text =
      parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts, conn.partsBytes).toString('utf8');
    complete(conn, text);
  };

  /** The answer is whole: resolved, and the connection kept for the next request or closed. */
  const complete = (conn: Connection, text: string) => {
    const request = conn.request!;
    const head = conn.head!;
    if (request.signal !== undefined) offAbort(request.signal, request);
    conn.request = undefined;
    conn.head = undefined;
    conn.phase = Phase.Idle;
    if (conn.partsBytes > 0) {
      conn.parts = [];
      conn.partsBytes = 0;
    }
    request.resolve(
      head.retryAfter === undefined
        ? { status: head.status, text }
        : { status: head.status, text, retryAfter: head.retryAfter },
    );
    if (!head.keepAlive || head.framing === 'close' || closed || conn.keepAliveMs <= 0) {
      conn.socket.destroy();
      return;
    }
    const next = waiting.shift();
    if (next !== undefined) return send(conn, next);
    conn.deadline = performance.now() + conn.keepAliveMs;
    // an idle connection does not hold the process open (as undici's do not)
    conn.socket.unref();
    idle.push(conn);
  };

  /** The request on `conn` fails with `err`; the connection is closed. */
  const fail = (conn: Connection, err: unknown) => {
    const request = conn.request;
    conn.request = undefined;
    conn.socket.destroy();
    if (request === undefined) return;
    if (request.signal !== undefined) offAbort(request.signal, request);
    request.reject(err);
  };

  const hooks: AnswerHooks = { complete, finish, keepAliveMs };

  return {
    post(body, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (closed) return Promise.reject(new JsonPostError('NG_CLOSED', 'the upstream client is closed'));
      return new Promise<PostedJson>((resolve, reject) => {
        const request = new Request(
          `${requestHead}${Buffer.byteLength(body)}\r\n\r\n${body}`,
          resolve,
          reject,
          signal,
          pool,
        );
        if (signal !== undefined) onAbort(signal, request);
        start(request);
      });
    },
    close() {
      if (closedAll !== undefined) return closedAll;
      closed = true;
      for (const request of waiting.splice(0)) {
        if (request.signal !== undefined) offAbort(request.signal, request);
        request.reject(new JsonPostError('NG_CLOSED', 'the upstream client is closed'));
      }
      for (const conn of idle.splice(0)) conn.socket.destroy();
      closedAll =
        all.size === 0
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              closing = resolve;
            });
      return closedAll;
    },
  };
}

const connectError = (cause: unknown): JsonPostError => {
  const code = (cause as { code?: unknown } | undefined)?.code;
  return new JsonPostError(
    typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : 'NG_CONNECT_FAILED',
    'could not connect to the upstream',
    cause,
  );
};
