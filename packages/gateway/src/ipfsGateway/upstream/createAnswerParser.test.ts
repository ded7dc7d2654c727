import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type AnswerHead, createAnswerParser } from './createAnswerParser.js';

// The answer reader fed real HTTP/1.1 bytes split at every point (and at random points for the
// large ones): the body must come out whole, as views, with the head and trailers.

interface Read {
  heads: AnswerHead[];
  body: Buffer;
  ends: Array<Record<string, string>>;
  views: number;
}

/** Feeds `wire` in the pieces `cuts` makes; pauses at every `pauseEvery`-th view and resumes. */
function read(wire: Buffer, cuts: number[], pauseEvery = 0): Read {
  const out: Read = { heads: [], body: Buffer.alloc(0), ends: [], views: 0 };
  const parts: Buffer[] = [];
  const parser = createAnswerParser({
    head: (h) => {
      out.heads.push(h);
      return undefined;
    },
    body: (v) => {
      out.views++;
      parts.push(Buffer.from(v));
      return pauseEvery === 0 || out.views % pauseEvery !== 0;
    },
    end: (t) => out.ends.push(t),
  });
  const points = [0, ...cuts.filter((c) => c > 0 && c < wire.byteLength).sort((a, b) => a - b), wire.byteLength];
  for (let i = 0; i + 1 < points.length; i++) {
    // each piece in its own buffer, as reads bring them
    const piece = Buffer.from(wire.subarray(points[i], points[i + 1]));
    let at = 0;
    while (at < piece.byteLength) {
      const next = parser.feed(piece, at, piece.byteLength);
      if (next === at) break;
      at = next;
    }
  }
  out.body = Buffer.concat(parts);
  return out;
}

function chunked(body: Buffer, sizes: number[], trailers = ''): Buffer {
  const parts: Buffer[] = [
    Buffer.from(
      'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nTrailer: X-Stream-Error\r\n\r\n',
    ),
  ];
  let at = 0;
  let i = 0;
  while (at < body.byteLength) {
    const n = Math.min(sizes[i++ % sizes.length]!, body.byteLength - at);
    parts.push(
      Buffer.from(`${n.toString(16)}${i % 3 === 0 ? ';ext=1' : ''}\r\n`),
      body.subarray(at, at + n),
      Buffer.from('\r\n'),
    );
    at += n;
  }
  parts.push(Buffer.from(`0\r\n${trailers}\r\n`));
  return Buffer.concat(parts);
}

describe('createAnswerParser', () => {
  it('reads a chunked answer with a trailer split at every byte', () => {
    const body = Buffer.from('hello, chunked world: 0123456789');
    const wire = chunked(body, [5, 11, 3], 'X-Stream-Error: boom\r\n');
    for (let cut = 1; cut < wire.byteLength; cut++) {
      const r = read(wire, [cut]);
      expect(r.heads).toEqual([{ status: 200, headers: expect.objectContaining({ 'content-type': 'text/plain' }) }]);
      expect(r.body.toString()).toBe(body.toString());
      expect(r.ends).toEqual([{ 'x-stream-error': 'boom' }]);
    }
    // one byte at a time
    const r = read(
      wire,
      Array.from({ length: wire.byteLength }, (_, i) => i),
    );
    expect(r.body.equals(body)).toBe(true);
    expect(r.ends).toEqual([{ 'x-stream-error': 'boom' }]);
  });

  it('reads 4 MiB chunked at random cuts, pausing now and then, byte for byte', () => {
    const body = randomBytes(4 * 1024 * 1024);
    const wire = chunked(body, [262_144, 65_536, 1_000, 100_000]);
    const cuts = Array.from({ length: 300 }, () => Math.floor(Math.random() * wire.byteLength));
    const r = read(wire, cuts, 7);
    expect(r.body.equals(body)).toBe(true);
    expect(r.ends).toEqual([{}]);
  });

  it('reads a Content-Length answer, an empty one and then the next answer on the same connection', () => {
    const a = Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nX-A: 1\r\nx-a: 2\r\n\r\nnot found');
    const b = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    const c = Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc');
    const r = read(Buffer.concat([a, b, c]), [5, 50, 70, 90]);
    expect(r.heads.map((h) => h.status)).toEqual([404, 200, 200]);
    expect(r.heads[0]!.headers['x-a']).toBe('1, 2');
    expect(r.body.toString()).toBe('not foundabc');
    expect(r.ends).toHaveLength(3);
  });

  it('a body delimited by the close ends on close; a cut chunked one is reported incomplete', () => {
    const events = { head: () => undefined, body: () => true, end: () => undefined };
    const untilClose = createAnswerParser(events);
    const wire = Buffer.from('HTTP/1.1 200 OK\r\n\r\nsome bytes');
    untilClose.feed(wire, 0, wire.byteLength);
    expect(untilClose.close()).toBe(true);
    const cut = createAnswerParser(events);
    const whole = chunked(Buffer.from('0123456789'), [4]);
    const half = whole.subarray(0, whole.byteLength - 8);
    cut.feed(half, 0, half.byteLength);
    expect(cut.inBody).toBe(true);
    expect(cut.close()).toBe(false);
  });

  it('refuses what is not HTTP/1.1', () => {
    const events = { head: () => undefined, body: () => true, end: () => undefined };
    for (const wire of [
      'SSH-2.0-OpenSSH\r\n\r\n',
      'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXX',
      'HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n',
    ]) {
      const b = Buffer.from(wire);
      expect(() => createAnswerParser(events).feed(b, 0, b.byteLength), wire).toThrow(/not HTTP\/1\.1/);
    }
    const endless = Buffer.from(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70_000)}`);
    expect(() => createAnswerParser(events).feed(endless, 0, endless.byteLength)).toThrow(/64 KiB/);
  });
});
