import { EventEmitter } from 'node:events';
import { connect, type NetConnectOpts, type Socket } from 'node:net';
import type { UpstreamBody } from '../../ipfs/IpfsUpstream.js';
import { contentError } from './contentError.js';
import { type AnswerHead, type AnswerParser, createAnswerParser } from './createAnswerParser.js';

/** What one read may bring. */
const READ_BYTES = 64 * 1024;
/** Read buffers one answer may hold at once (written on, not yet flushed) before reading stops. */
const MAX_HELD = 4;
/** Idle kept-alive connections kept per node. */
const MAX_IDLE = 32;
/** Connections open at once per node (busy and idle): at most 5 × 64 KiB of read buffers each. */
const MAX_CONNECTIONS = 256;
/** The most of a failed answer's body read for its message. */
const MAX_ERROR_BODY = 16 * 1024;

/**
 * An upstream answer's body whose chunks are views of the connection's read buffers: each chunk
 * a `data` listener receives must be given back with {@link StreamBody.release} once nothing
 * refers to it any longer (its write completed); its buffer then takes a later read. At most
 * four buffers are held at once: past that the connection stops reading, so a slow client holds
 * the node back instead of filling memory. Otherwise it behaves as the subset of a `Readable`
 * the gateway uses: `data`, `end`, `error` and `close` events, `pause`/`resume`, `destroy`.
 */
export interface StreamBody extends UpstreamBody {
  readonly trailers: Readonly<Record<string, string>>;
  /** Gives a chunk back (once per chunk received). */
  release(chunk: Uint8Array): void;
}

/** Connections to one IPFS node for streamed answers read without a copy. */
export interface StreamConnections {
  /**
   * `POST /api/v0/<command>?<params>`: resolves with the body once the node answered 200, or
   * rejects with the {@link contentError} its failure maps to (the node's own error for another
   * status, 504 when `signal` aborted first, 502 when the node cannot be reached). Once it
   * answered, aborting `lifetime` destroys the body.
   */
  open(
    command: string,
    params: Record<string, string>,
    signal: AbortSignal,
    lifetime?: AbortSignal,
  ): Promise<StreamBody>;
  /**
   * Every connection the pool may hold (`maxConnections`, default 256) is busy: the caller takes another road (the node's
   * connection pool, which queues), so the buffers here stay bounded whatever the number of readers.
   */
  readonly full: boolean;
  close(): void;
}

/** A connection and its reusable read buffers. */
interface Connection {
  readonly socket: Socket;
  readonly parser: AnswerParser;
  /** The buffer the next read lands in: never one a chunk still refers to. */
  current: Buffer;
  readonly free: Buffer[];
  /** The answer being read, which the parser's events go to. */
  answer: Answer | undefined;
  /** Bytes of the last read not yet parsed (the answer paused): their buffer is held meanwhile. */
  pending: { buf: Buffer; at: number; end: number } | undefined;
  /** Whether reading stopped (paused, or too many buffers held). */
  stopped: boolean;
}

/**
 * A pool of kept-alive HTTP/1.1 connections to the IPFS node at `url` (plain HTTP) for answers
 * that are streamed on (a file's `cat`): each connection reads into a few buffers it reuses and
 * {@link createAnswerParser} hands the body on as views of them, so a megabyte streamed
 * allocates nothing per chunk (Node's HTTP client copies every body chunk into a new buffer, and
 * V8 counts that memory toward its next full collection: most of a large read's CPU).
 *
 * @example
 * const streams = createStreamConnections(new URL('http://127.0.0.1:5001'), {});
 * const body = await streams.open('cat', { arg: cid }, signal);
 * body.on('data', (chunk) => res.write(chunk, () => body.release(chunk)));
 */
export function createStreamConnections(
  url: URL,
  headers: Readonly<Record<string, string>>,
  options: { maxConnections?: number } = {},
): StreamConnections {
  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  const idle: Connection[] = [];
  let open = 0;
  const base = url.pathname.replace(/\/$/, '');
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const port = Number(url.port || 80);

  const dial = (): Connection => {
    const conn: Connection = {
      socket: undefined as unknown as Socket,
      parser: createAnswerParser({
        head: (head) => conn.answer?.onHead(head),
        body: (view) => conn.answer?.onBody(view) ?? false,
        end: (trailers) => conn.answer?.onEnd(trailers),
      }),
      current: Buffer.allocUnsafeSlow(READ_BYTES),
      free: [],
      answer: undefined,
      pending: undefined,
      stopped: false,
    };
    const socket = connect({
      host: url.hostname,
      port,
      noDelay: true,
      onread: {
        buffer: () => nextBuffer(conn),
        callback: (nread: number, buf: Buffer) => onRead(conn, buf, nread),
      },
    } as NetConnectOpts);
    (conn as { socket: Socket }).socket = socket;
    open++;
    socket.on('error', () => undefined);
    socket.on('close', () => {
      open--;
      const at = idle.indexOf(conn);
      if (at !== -1) idle.splice(at, 1);
      conn.answer?.onClose();
    });
    socket.on('end', () => socket.destroy());
    return conn;
  };

  const release = (conn: Connection, keepAlive: boolean) => {
    conn.answer = undefined;
    if (!keepAlive || conn.socket.destroyed || idle.length >= MAX_IDLE) {
      conn.socket.destroy();
      return;
    }
    idle.push(conn);
  };

  return {
    open(command, params, signal, lifetime = signal) {
      if (signal.aborted) return Promise.reject(contentError('timeout'));
      const path = `${base}/api/v0/${command}?${new URLSearchParams(params).toString()}`;
      const request = `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 0\r\n${extra}\r\n`;
      const attempt = (reused: boolean): Promise<StreamBody> => {
        let conn = reused ? idle.pop() : undefined;
        // one the node closed a moment ago (its close not yet reported) is skipped
        while (conn?.socket.destroyed) conn = idle.pop();
        if (conn === undefined) {
          conn = dial();
          reused = false;
        }
        return new Promise<StreamBody>((resolve, reject) => {
          const answer = new Answer(conn!, signal, lifetime, (keepAlive) => release(conn!, keepAlive));
          answer.settle = (outcome) => {
            answer.settle = () => undefined;
            if (outcome.kind === 'body') resolve(outcome.body);
            // a kept-alive connection the node closed as it was taken: once more on a new one
            else if (outcome.kind === 'retry' && reused) attempt(false).then(resolve, reject);
            else reject(outcome.error);
          };
          conn!.answer = answer;
          conn!.socket.write(request);
          if (conn!.stopped && conn!.pending === undefined) {
            conn!.stopped = false;
            conn!.socket.resume();
          }
        });
      };
      return attempt(idle.length > 0);
    },
    get full() {
      return idle.length === 0 && open >= maxConnections;
    },
    close() {
      for (const conn of idle.splice(0)) conn.socket.destroy();
    },
  };
}

/** The buffer the next read lands in: the current one unless a chunk still refers to it. */
function nextBuffer(conn: Connection): Buffer {
  const held = conn.answer?.held;
  if (held === undefined || !held.has(conn.current.buffer)) return conn.current;
  conn.current = conn.free.pop() ?? Buffer.allocUnsafeSlow(READ_BYTES);
  return conn.current;
}

/** A read arrived: parse it; false stops reading (the answer paused, or holds too many buffers). */
function onRead(conn: Connection, buf: Buffer, nread: number): boolean {
  const answer = conn.answer;
  if (answer === undefined) {
    // bytes on an idle connection: nothing is expected, so it cannot be trusted any longer
    conn.socket.destroy();
    return false;
  }
  return feed(conn, answer, buf, 0, nread);
}

function feed(conn: Connection, answer: Answer, buf: Buffer, at: number, end: number): boolean {
  let next: number;
  try {
    next = conn.parser.feed(buf, at, end);
  } catch (err) {
    answer.fail(err instanceof Error ? err : new Error(String(err)));
    return false;
  }
  if (next < end && conn.answer === answer && !answer.done) {
    // paused in the middle of the read: the rest waits, its buffer held
    conn.pending = { buf, at: next, end };
    answer.hold(buf);
    conn.stopped = true;
    return false;
  }
  if (next < end) {
    // bytes past the answer's end: not HTTP as this client speaks it
    conn.socket.destroy();
    return false;
  }
  if (answer.done || answer.paused || (answer.held?.size ?? 0) >= MAX_HELD) {
    conn.stopped = !answer.done;
    return answer.done;
  }
  return true;
}

type Outcome = { kind: 'body'; body: StreamBody } | { kind: 'retry' | 'error'; error: Error };

/** One request's answer on a connection: the promise's settling, then the body's events. */
class Answer extends EventEmitter implements StreamBody {
  settle: (outcome: Outcome) => void = () => undefined;
  /** Read buffers chunks of this answer refer to, with how many. */
  held: Map<ArrayBufferLike, number> | undefined = new Map();
  /** Not flowing: nothing is read on. */
  paused = true;
  /** Paused by `pause()` (a `data` listener then does not start the flow). */
  private explicit = false;
  private keepAlive = true;
  done = false;
  readableEnded = false;
  destroyed = false;
  trailers: Readonly<Record<string, string>> = {};
  headers: Readonly<Record<string, string>> = {};
  private status = 0;
  private answered = false;
  private errorText = '';
  private readonly onAbort: () => void;

  constructor(
    private readonly conn: Connection,
    private readonly signal: AbortSignal,
    private readonly lifetime: AbortSignal,
    private readonly letGo: (keepAlive: boolean) => void,
  ) {
    super();
    this.onAbort = () => this.fail(contentError('timeout'), 'aborted');
    signal.addEventListener('abort', this.onAbort, { once: true });
    // a data listener starts the flow, as on a Readable
    this.on('newListener', (event) => {
      // (a pause right after the listener was added wins, as on a Readable)
      if (event === 'data' && !this.explicit) queueMicrotask(() => !this.explicit && this.resume());
    });
  }

  /** The head: a 200 resolves the open, the body waiting (paused) for a listener; another status's body is read for its message. */
  onHead(head: AnswerHead): boolean {
    this.answered = true;
    this.status = head.status;
    this.headers = head.headers;
    this.keepAlive = !/\bclose\b/i.test(head.headers.connection ?? '');
    if (head.status !== 200) return true;
    this.signal.removeEventListener('abort', this.onAbort);
    if (this.lifetime.aborted) {
      this.fail(new Error('aborted'));
      return false;
    }
    this.lifetime.addEventListener('abort', this.onAbort, { once: true });
    this.settle({ kind: 'body', body: this });
    return false;
  }

  onBody(view: Buffer): boolean {
    if (this.status !== 200) {
      if (this.errorText.length < MAX_ERROR_BODY) this.errorText += view.toString('utf8');
      return true;
    }
    this.hold(view);
    this.emit('data', view);
    return !this.paused && !this.destroyed;
  }

  onEnd(trailers: Readonly<Record<string, string>>) {
    this.done = true;
    this.trailers = trailers;
    if (this.status !== 200) {
      this.signal.removeEventListener('abort', this.onAbort);
      this.settle({ kind: 'error', error: contentError('answer', this.status, this.errorText) });
    } else {
      this.lifetime.removeEventListener('abort', this.onAbort);
      this.readableEnded = true;
      this.emit('end');
    }
    this.detach();
    this.letGo(this.keepAlive);
    if (this.status === 200) this.emit('close');
  }

  onClose() {
    if (this.done) return;
    if (this.conn.parser.close() && this.done) return;
    this.fail(contentError('unreachable'), 'closed');
  }

  /** Stops the answer: before its head, the open rejects (or retries once on a fresh connection). */
  fail(error: Error, how: 'aborted' | 'closed' | 'error' = 'error') {
    if (this.done) return;
    this.done = true;
    this.signal.removeEventListener('abort', this.onAbort);
    this.lifetime.removeEventListener('abort', this.onAbort);
    this.detach();
    this.conn.socket.destroy();
    if (!this.answered || this.status !== 200) {
      this.settle(
        !this.answered && how === 'closed'
          ? { kind: 'retry', error }
          : { kind: 'error', error: how === 'aborted' ? contentError('timeout') : error },
      );
      return;
    }
    this.destroyed = true;
    // as a Readable would, but never an unhandled one: the answer may not have a consumer yet
    if (how !== 'closed' && this.listenerCount('error') > 0) this.emit('error', error);
    this.emit('close');
  }

  hold(view: Uint8Array) {
    if (this.held === undefined) return;
    this.held.set(view.buffer, (this.held.get(view.buffer) ?? 0) + 1);
  }

  release(chunk: Uint8Array) {
    const held = this.held;
    if (held === undefined) return;
    const n = (held.get(chunk.buffer) ?? 0) - 1;
    if (n > 0) {
      held.set(chunk.buffer, n);
      return;
    }
    if (!held.delete(chunk.buffer)) return;
    if (chunk.buffer !== this.conn.current.buffer && this.conn.free.length < MAX_HELD) {
      this.conn.free.push(Buffer.from(chunk.buffer as ArrayBuffer));
    }
    this.wake();
  }

  /** The connection is done with this answer: buffers still referred to are left to their holders. */
  private detach() {
    const conn = this.conn;
    // the next read must not land where a chunk of this answer may still be on its way out
    if (this.held?.has(conn.current.buffer)) conn.current = conn.free.pop() ?? Buffer.allocUnsafeSlow(READ_BYTES);
    this.held = undefined;
    conn.pending = undefined;
    if (conn.stopped) {
      conn.stopped = false;
      if (!conn.socket.destroyed) conn.socket.resume();
    }
  }

  pause() {
    this.paused = true;
    this.explicit = true;
    return this;
  }

  resume() {
    this.paused = false;
    this.explicit = false;
    this.wake();
    return this;
  }

  isPaused() {
    return this.paused;
  }

  destroy(error?: Error) {
    if (!this.done) this.fail(error ?? new Error('destroyed'), error ? 'error' : 'closed');
    return this;
  }

  /** Goes on reading when it may: the rest of a paused read first, then the socket. */
  private wake() {
    const conn = this.conn;
    if (this.paused || this.done || conn.answer !== this || !conn.stopped) return;
    const pending = conn.pending;
    if (pending !== undefined) {
      conn.pending = undefined;
      const go = feed(conn, this, pending.buf, pending.at, pending.end);
      // the held mark the pause put on the buffer
      this.release(pending.buf.subarray(pending.at, pending.at));
      if (!go || conn.pending !== undefined) return;
    }
    if (this.done || this.paused || (this.held?.size ?? 0) >= MAX_HELD) return;
    conn.stopped = false;
    conn.socket.resume();
  }
}
