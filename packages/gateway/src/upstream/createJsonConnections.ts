import { connect as connectTcp, type NetConnectOpts, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { isIP } from 'node:net';
import type { JsonPoster, JsonPosterOptions } from './JsonPoster.js';
import { JsonPostError } from './JsonPostError.js';
import type { PostedJson } from './postJson.js';
import { type AnswerHead, readAnswerHead } from './readAnswerHead.js';

/** What one read of a plain connection may bring (its buffer is reused for every read). */
const READ_BYTES = 16 * 1024;
/** The most an answer's head may take. */
const MAX_HEAD_BYTES = 64 * 1024;
/** The longest body a string can hold (V8's limit, in bytes of one-byte text): a longer one is refused. */
const MAX_BODY_BYTES = 512 * 1024 * 1024 - 64;
const HEAD_END = Buffer.from('\r\n\r\n');
const ONCE = { once: true } as const;
const CRLF = Buffer.from('\r\n');

/** Where a connection's answer is (the body modes are the head's `framing`). */
const Phase = {
  Idle: 0,
  Head: 1,
  Length: 2,
  ChunkSize: 3,
  ChunkData: 4,
  ChunkEnd: 5,
  Trailers: 6,
  UntilClose: 7,
} as const;
type Phase = (typeof Phase)[keyof typeof Phase];

/** One request: its text, and the promise's ends (it is its own abort listener: no closure per request). */
class Request {
  conn: Connection | undefined;
  constructor(
    readonly text: string,
    readonly resolve: (answer: PostedJson) => void,
    readonly reject: (err: unknown) => void,
    readonly signal: AbortSignal | undefined,
    readonly pool: Pool,
  ) {}
  handleEvent(): void {
    this.pool.abandon(this);
  }
}

interface Connection {
  readonly socket: Socket;
  /** The read buffer of a plain connection (TLS connections are given their chunks). */
  readonly buffer: Buffer | undefined;
  connected: boolean;
  request: Request | undefined;
  phase: Phase;
  /** A head (or chunk-size line, or trailers) split over reads, so far (latin1). */
  partial: string;
  head: AnswerHead | undefined;
  /** Body bytes still to come (Length, ChunkData), or the chunk's CRLF (ChunkEnd). */
  left: number;
  /** A body that came in more than one read (copied out of the reused buffer). */
  parts: Buffer[];
  partsBytes: number;
  /** When the upstream has taken too long (performance.now() ms): the answer, the connect, or the idle time. */
  deadline: number;
  /** Idle time the upstream allows (its `Keep-Alive: timeout=` hint, less a second), ms. */
  keepAliveMs: number;
  /** Why it closed, when an error said so first. */
  failure: unknown;
}

/** The pool's side of a request, for `Request.handleEvent`. */
interface Pool {
  abandon(request: Request): void;
}

/**
 * nodegate's own {@link JsonPoster}: kept-alive HTTP/1.1 connections (`http:` or `https:`) to
 * one upstream, made for small JSON answers at high rates. A request is one write of a head
 * prepared at creation and the body; a plain connection reads into one buffer it reuses, and
 * an answer that arrived in one read becomes its string straight from it (longer ones are
 * copied once), so a call allocates its request text, its answer text and a small request
 * object, against a few kilobytes in undici. One sweep per `timeoutMs / 10` (at least every
 * 10 ms, at most every second) checks every connection's deadline: a timer per connection, not
 * per request. Bodies by `Content-Length`, chunked, or until close; informational heads skipped;
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
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[^\t\x20-\x7e]/.test(value))
      throw new Error(`upstream header ${JSON.stringify(name)}: only visible ASCII may be sent`);
    fields += `${name}: ${value}\r\n`;
  }
  const requestHead = `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n${fields}content-length: `;

  const all = new Set<Connection>();
  const idle: Connection[] = [];
  const waiting: Request[] = [];
  let sweeper: NodeJS.Timeout | undefined;
  let closing: (() => void) | undefined;
  let closed = false;
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
    } else conn.deadline = performance.now() + timeoutMs;
    send(conn, request);
  };

  const send = (conn: Connection, request: Request) => {
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
    // the answer gave no sign of life for `timeoutMs`: counted from its last bytes
    conn.deadline = performance.now() + timeoutMs;
    const request = conn.request;
    try {
      while (at < end && conn.request === request) at = step(conn, buf, at, end);
    } catch (err) {
      fail(conn, err);
      return;
    }
    // bytes after a whole answer: the upstream does not speak one answer per request
    if (at < end) conn.socket.destroy();
  };

  /** One step of the answer's parse; returns where the bytes not used yet start. */
  const step = (conn: Connection, buf: Buffer, at: number, end: number): number => {
    switch (conn.phase) {
      case Phase.Head: {
        const found = lineEnd(conn, buf, at, end, HEAD_END);
        if (found === -1) return end;
        const head = readAnswerHead(conn.partial);
        conn.partial = '';
        if (head.status === 101) throw new JsonPostError('NG_BAD_ANSWER', 'the upstream switched protocols');
        if (head.status < 200) return found; // informational: the real head follows
        conn.head = head;
        if (head.keepAliveS !== undefined) conn.keepAliveMs = Math.min(keepAliveMs, head.keepAliveS * 1000 - 1000);
        if (head.status === 204 || head.status === 304 || head.framing === 'none' || head.length === 0) {
          complete(conn, '');
          return found;
        }
        if (head.framing === 'chunked') conn.phase = Phase.ChunkSize;
        else if (head.framing === 'close') conn.phase = Phase.UntilClose;
        else {
          if (head.length! > MAX_BODY_BYTES) throw tooLong();
          conn.phase = Phase.Length;
          conn.left = head.length!;
          // the whole body in this read (the common case): its string straight from the buffer
          if (end - found >= conn.left) {
            const until = found + conn.left;
            complete(conn, buf.toString('utf8', found, until));
            return until;
          }
        }
        return found;
      }
      case Phase.Length: {
        const take = Math.min(conn.left, end - at);
        keep(conn, buf, at, at + take);
        conn.left -= take;
        if (conn.left === 0) finish(conn);
        return at + take;
      }
      case Phase.ChunkSize: {
        const found = lineEnd(conn, buf, at, end, CRLF);
        if (found === -1) return end;
        const line = conn.partial;
        conn.partial = '';
        const size = /^([0-9a-fA-F]{1,8})[\t ]*(?:;.*)?$/.exec(line);
        if (size === null) throw new JsonPostError('NG_BAD_ANSWER', 'the upstream sent a malformed chunk size');
        conn.left = Number.parseInt(size[1]!, 16);
        if (conn.partsBytes + conn.left > MAX_BODY_BYTES) throw tooLong();
        conn.phase = conn.left === 0 ? Phase.Trailers : Phase.ChunkData;
        return found;
      }
      case Phase.ChunkData: {
        const take = Math.min(conn.left, end - at);
        keep(conn, buf, at, at + take);
        conn.left -= take;
        if (conn.left === 0) {
          conn.phase = Phase.ChunkEnd;
          conn.left = 2;
        }
        return at + take;
      }
      case Phase.ChunkEnd: {
        const take = Math.min(conn.left, end - at);
        for (let i = 0; i < take; i++) {
          if (buf[at + i] !== (conn.left === 2 ? 13 : 10)) {
            throw new JsonPostError('NG_BAD_ANSWER', 'the upstream sent a chunk without its line end');
          }
          conn.left -= 1;
        }
        if (conn.left === 0) conn.phase = Phase.ChunkSize;
        return at + take;
      }
      case Phase.Trailers: {
        // trailer lines until an empty one (their fields are not used)
        const found = lineEnd(conn, buf, at, end, CRLF);
        if (found === -1) return end;
        const line = conn.partial;
        conn.partial = '';
        if (line === '') finish(conn);
        return found;
      }
      case Phase.UntilClose: {
        if (conn.partsBytes + (end - at) > MAX_BODY_BYTES) throw tooLong();
        keep(conn, buf, at, end);
        return end;
      }
      default:
        return end;
    }
  };

  /**
   * Gathers text up to `marker` into `conn.partial`; returns where the bytes after the marker
   * start, or -1 when it has not come yet (every byte kept). Bounded by `MAX_HEAD_BYTES`.
   */
  const lineEnd = (conn: Connection, buf: Buffer, at: number, end: number, marker: Buffer): number => {
    if (conn.partial === '') {
      const i = buf.indexOf(marker, at);
      if (i !== -1 && i < end - marker.length + 1) {
        conn.partial = buf.toString('latin1', at, i);
        if (conn.partial.length > MAX_HEAD_BYTES) throw headTooLong();
        return i + marker.length;
      }
    }
    const before = conn.partial.length;
    const text = conn.partial + buf.toString('latin1', at, end);
    const i = text.indexOf(marker.toString('latin1'), Math.max(0, before - marker.length + 1));
    if (i === -1) {
      if (text.length > MAX_HEAD_BYTES) throw headTooLong();
      conn.partial = text;
      return -1;
    }
    conn.partial = text.slice(0, i);
    if (i > MAX_HEAD_BYTES) throw headTooLong();
    return at + (i + marker.length - before);
  };

  /** Body bytes out of a buffer that will be read into again: copied. */
  const keep = (conn: Connection, buf: Buffer, from: number, until: number) => {
    if (until <= from) return;
    conn.parts.push(Buffer.from(buf.subarray(from, until)));
    conn.partsBytes += until - from;
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
    request.signal?.removeEventListener('abort', request);
    conn.request = undefined;
    conn.head = undefined;
    conn.phase = Phase.Idle;
    conn.parts = [];
    conn.partsBytes = 0;
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
    idle.push(conn);
  };

  /** The request on `conn` fails with `err`; the connection is closed. */
  const fail = (conn: Connection, err: unknown) => {
    const request = conn.request;
    conn.request = undefined;
    conn.socket.destroy();
    if (request === undefined) return;
    request.signal?.removeEventListener('abort', request);
    request.reject(err);
  };

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
        signal?.addEventListener('abort', request, ONCE);
        start(request);
      });
    },
    close() {
      closed = true;
      for (const request of waiting.splice(0)) {
        request.signal?.removeEventListener('abort', request);
        request.reject(new JsonPostError('NG_CLOSED', 'the upstream client is closed'));
      }
      for (const conn of idle.splice(0)) conn.socket.destroy();
      if (all.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        closing = resolve;
      });
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
const tooLong = () => new JsonPostError('NG_BAD_ANSWER', 'the upstream answer is longer than 512 MiB');
const headTooLong = () => new JsonPostError('NG_BAD_ANSWER', "the upstream answer's head is longer than 64 KiB");
