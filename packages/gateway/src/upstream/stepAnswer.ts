import { type Connection, Phase } from './JsonConnection.js';
import { JsonPostError } from './JsonPostError.js';
import { readAnswerHead } from './readAnswerHead.js';

/** The most an answer's head (or a chunk-size or trailer line) may take. */
const MAX_HEAD_BYTES = 64 * 1024;
/** The longest body a string can hold (V8's limit, in bytes of one-byte text): a longer one is refused. */
const MAX_BODY_BYTES = 512 * 1024 * 1024 - 64;
const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** What {@link stepAnswer} hands a whole answer to, and the idle time its poster allows. */
export interface AnswerHooks {
  /** The answer is whole, its body `text`. */
  complete(conn: Connection, text: string): void;
  /** The answer is whole, its body in `conn.parts`. */
  finish(conn: Connection): void;
  readonly keepAliveMs: number;
}

/**
 * One step of parsing a connection's answer from `buf[at, end)`: its head (`readAnswerHead`),
 * then its body as the head frames it; an answer whole goes to `hooks.complete` (a body in one
 * read as a string straight from `buf`) or `hooks.finish` (a body gathered in copied parts).
 * Returns where the bytes not used yet start; throws `NG_BAD_ANSWER`.
 *
 * @example
 * while (at < end && conn.request === request) at = stepAnswer(conn, buf, at, end, hooks);
 */
export function stepAnswer(conn: Connection, buf: Buffer, at: number, end: number, hooks: AnswerHooks): number {
  switch (conn.phase) {
    case Phase.Head: {
      const found = lineEnd(conn, buf, at, end, HEAD_END);
      if (found === -1) return end;
      const head = readAnswerHead(conn.partial);
      conn.partial = '';
      if (head.status === 101) throw new JsonPostError('NG_BAD_ANSWER', 'the upstream switched protocols');
      if (head.status < 200) return found; // informational: the real head follows
      conn.head = head;
      if (head.keepAliveS !== undefined) conn.keepAliveMs = Math.min(hooks.keepAliveMs, head.keepAliveS * 1000 - 1000);
      if (head.status === 204 || head.status === 304 || head.framing === 'none' || head.length === 0) {
        hooks.complete(conn, '');
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
          hooks.complete(conn, buf.toString('utf8', found, until));
          return until;
        }
      }
      return found;
    }
    case Phase.Length: {
      const next = consume(conn, buf, at, end);
      if (conn.left === 0) hooks.finish(conn);
      return next;
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
      const next = consume(conn, buf, at, end);
      if (conn.left === 0) {
        conn.phase = Phase.ChunkEnd;
        conn.left = 2;
      }
      return next;
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
      if (line === '') hooks.finish(conn);
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
}

/**
 * Gathers text up to `marker` into `conn.partial`; returns where the bytes after the marker
 * start, or -1 when it has not come yet (every byte kept). Bounded by `MAX_HEAD_BYTES`.
 */
function lineEnd(conn: Connection, buf: Buffer, at: number, end: number, marker: Buffer): number {
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
}

/** Up to `conn.left` body bytes of `buf[at, end)` kept; returns where the rest starts. */
function consume(conn: Connection, buf: Buffer, at: number, end: number): number {
  const take = Math.min(conn.left, end - at);
  keep(conn, buf, at, at + take);
  conn.left -= take;
  return at + take;
}

/** Body bytes out of a buffer that will be read into again: copied. */
function keep(conn: Connection, buf: Buffer, from: number, until: number): void {
  if (until <= from) return;
  conn.parts.push(Buffer.from(buf.subarray(from, until)));
  conn.partsBytes += until - from;
}

const tooLong = () => new JsonPostError('NG_BAD_ANSWER', 'the upstream answer is longer than 512 MiB');
const headTooLong = () => new JsonPostError('NG_BAD_ANSWER', "the upstream answer's head is longer than 64 KiB");
