import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeLoopbackServers, listenLoopback } from '../../test-support/listenLoopback.js';
import { createStreamConnections, type StreamBody, type StreamConnections } from './createStreamConnections.js';

// The zero-copy connections against a real HTTP/1.1 server (node:http) on loopback. The reader
// copies each chunk only when it gives it back, late and out of order: had a read buffer been
// reused while a chunk still referred to it, the copy would hold the later bytes and the digest
// would differ.

const MiB = 1024 * 1024;
const pools: StreamConnections[] = [];
afterEach(() => {
  for (const p of pools.splice(0)) p.close();
  closeLoopbackServers();
});

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const sockets = new Set<Socket>();
  const { server, url: base } = await listenLoopback(handler);
  server.on('connection', (s) => sockets.add(s));
  const url = new URL(base);
  const pool = createStreamConnections(url, { 'x-upstream-auth': 'sekret' });
  pools.push(pool);
  return { server, pool, sockets, url };
}

/** Answers `body` chunked in `piece`-sized writes, honouring backpressure; `flushed` once all is written. */
function writeAll(res: ServerResponse, body: Buffer, piece: number, flushed?: () => void) {
  res.writeHead(200, { 'content-type': 'text/plain', trailer: 'X-Stream-Error' });
  let at = 0;
  const more = () => {
    while (at < body.byteLength) {
      const next = body.subarray(at, at + piece);
      at += piece;
      if (!res.write(next)) return void res.once('drain', more);
    }
    res.addTrailers({ 'X-Stream-Error': '' });
    res.end(flushed);
  };
  more();
}

/** Reads `body` to its end, giving chunks back late (after `delayMs`, in batches); copies made at give-back. */
function readLate(body: StreamBody, delayMs = 1): Promise<{ bytes: Buffer; chunks: number }> {
  return new Promise((resolve, reject) => {
    const copies: Array<Buffer | undefined> = [];
    let outstanding = 0;
    let ended = false;
    const done = () => {
      if (ended && outstanding === 0) resolve({ bytes: Buffer.concat(copies as Buffer[]), chunks: copies.length });
    };
    body.on('data', (chunk: Buffer) => {
      const i = copies.push(undefined) - 1;
      outstanding++;
      // later chunks given back first now and then
      setTimeout(
        () => {
          copies[i] = Buffer.from(chunk);
          body.release(chunk);
          outstanding--;
          done();
        },
        i % 3 === 0 ? delayMs * 2 : delayMs,
      );
    });
    body.on('end', () => {
      ended = true;
      done();
    });
    body.on('error', reject);
  });
}

describe('createStreamConnections', () => {
  it('streams 16 MiB whole though chunks are given back late and out of order, with the trailers and the configured headers', async () => {
    const data = randomBytes(16 * MiB);
    let seen: IncomingMessage | undefined;
    const { pool } = await listen((req, res) => {
      seen = req;
      writeAll(res, data, 100_000);
    });
    const body = await pool.open('cat', { arg: 'bafy', length: '5' }, AbortSignal.timeout(5_000));
    const read = await readLate(body);
    expect(read.bytes.byteLength).toBe(data.byteLength);
    expect(sha256(read.bytes)).toBe(sha256(data));
    expect(read.chunks).toBeGreaterThan(200);
    expect(body.trailers).toEqual({ 'x-stream-error': '' });
    expect(body.readableEnded).toBe(true);
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/api/v0/cat?arg=bafy&length=5');
    expect(seen?.headers['x-upstream-auth']).toBe('sekret');
  });

  it('keeps the connection alive across answers, and opens a new one when the node closed the idle one', async () => {
    const data = randomBytes(MiB + 3);
    const { server, pool, sockets } = await listen((_req, res) => writeAll(res, data, 65_536));
    for (let i = 0; i < 3; i++) {
      const read = await readLate(await pool.open('cat', { arg: String(i) }, AbortSignal.timeout(5_000)), 0);
      expect(sha256(read.bytes)).toBe(sha256(data));
    }
    expect(sockets.size).toBe(1);
    // the node closes its idle connections (as Kubo and node:http do after a while)
    server.closeIdleConnections();
    await new Promise((r) => setTimeout(r, 50));
    const again = await readLate(await pool.open('cat', { arg: 'x' }, AbortSignal.timeout(5_000)), 0);
    expect(sha256(again.bytes)).toBe(sha256(data));
    expect(sockets.size).toBe(2);
  });

  it('holds the node back while chunks are not given back: reading stops, then goes on', async () => {
    const data = randomBytes(32 * MiB);
    let flushedAt = 0;
    const { pool } = await listen((_req, res) =>
      writeAll(res, data, 65_536, () => {
        flushedAt = performance.now();
      }),
    );
    const body = await pool.open('cat', { arg: 'big' }, AbortSignal.timeout(10_000));
    const kept: Buffer[] = [];
    body.on('data', (c: Buffer) => kept.push(c));
    await new Promise((r) => setTimeout(r, 300));
    // four read buffers and what the sockets hold: far from 32 MiB
    const heldBytes = kept.reduce((n, c) => n + c.byteLength, 0);
    expect(heldBytes).toBeLessThanOrEqual(4 * 64 * 1024);
    expect(flushedAt).toBe(0);
    const copies: Buffer[] = [];
    const ended = once(body, 'end');
    const giveBack = (c: Buffer) => {
      copies.push(Buffer.from(c));
      body.release(c);
    };
    body.removeAllListeners('data');
    body.on('data', giveBack);
    for (const c of kept.splice(0)) giveBack(c);
    await ended;
    expect(sha256(Buffer.concat(copies))).toBe(sha256(data));
  });

  it('maps the node’s failures: its error answer, the deadline, an unreachable node, a cut answer', async () => {
    const { pool } = await listen((req, res) => {
      if (req.url?.includes('missing')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ Message: 'block was not found locally (offline)', Code: 0, Type: 'error' }));
      } else if (req.url?.includes('slow')) {
        // never answers
      } else {
        res.writeHead(200, { 'content-length': String(4 * MiB) });
        res.write(Buffer.alloc(MiB, 1), () => res.destroy());
      }
    });
    await expect(pool.open('cat', { arg: 'missing' }, AbortSignal.timeout(5_000))).rejects.toMatchObject({
      httpStatus: 404,
    });
    // the connection that carried the error answer is reused
    await expect(pool.open('cat', { arg: 'slow' }, AbortSignal.timeout(200))).rejects.toMatchObject({
      httpStatus: 504,
    });
    const cut = await pool.open('cat', { arg: 'cut' }, AbortSignal.timeout(5_000));
    const outcome = await new Promise<string>((resolve) => {
      cut.on('data', (c: Buffer) => cut.release(c));
      cut.on('end', () => resolve('end'));
      cut.on('close', () => resolve(cut.readableEnded ? 'end' : 'closed before its end'));
    });
    expect(outcome).toBe('closed before its end');
    const nowhere = createStreamConnections(new URL('http://127.0.0.1:1'), {});
    await expect(nowhere.open('cat', { arg: 'x' }, AbortSignal.timeout(2_000))).rejects.toMatchObject({
      httpStatus: 502,
    });
  });

  it('a lifetime that ends mid-answer destroys the body with an error', async () => {
    const { pool } = await listen((_req, res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(1024, 3)); // then nothing
    });
    const lifetime = new AbortController();
    const body = await pool.open('cat', { arg: 'x' }, AbortSignal.timeout(2_000), lifetime.signal);
    const errored = once(body, 'error');
    body.on('data', (c: Buffer) => body.release(c));
    lifetime.abort();
    const [error] = await errored;
    expect(error).toBeInstanceOf(Error);
    expect(body.destroyed).toBe(true);
  });

  it('is full at its connection bound, and no longer once a connection is let go', async () => {
    const { url } = await listen((_req, res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(1024, 5)); // and keeps the answer open
    });
    const pool = createStreamConnections(url, {}, { maxConnections: 2 });
    pools.push(pool);
    const a = await pool.open('cat', { arg: 'a' }, AbortSignal.timeout(2_000));
    expect(pool.full).toBe(false);
    const b = await pool.open('cat', { arg: 'b' }, AbortSignal.timeout(2_000));
    expect(pool.full).toBe(true);
    const closed = once(a, 'close');
    a.destroy();
    await closed;
    await new Promise((r) => setTimeout(r, 20));
    expect(pool.full).toBe(false);
    b.destroy();
  });

  it('answers for two readers (two accounts) never share bytes: concurrent, late-released, and after one is cut', async () => {
    const forA = randomBytes(6 * MiB);
    const forB = randomBytes(6 * MiB + 1);
    const { pool } = await listen((req, res) => writeAll(res, req.url?.includes('arg=a') ? forA : forB, 40_000));
    const [a, b] = await Promise.all([
      pool.open('cat', { arg: 'a' }, AbortSignal.timeout(5_000)),
      pool.open('cat', { arg: 'b' }, AbortSignal.timeout(5_000)),
    ]);
    const [readA, readB] = await Promise.all([readLate(a, 2), readLate(b, 1)]);
    expect(sha256(readA.bytes)).toBe(sha256(forA));
    expect(sha256(readB.bytes)).toBe(sha256(forB));
    // A's reader leaves mid-answer; B's next answer, on whatever connection, holds none of A's bytes
    const cut = await pool.open('cat', { arg: 'a' }, AbortSignal.timeout(5_000));
    await new Promise<void>((resolve) =>
      cut.on('data', (c: Buffer) => {
        cut.destroy();
        resolve();
        void c;
      }),
    );
    const after = await readLate(await pool.open('cat', { arg: 'b' }, AbortSignal.timeout(5_000)), 0);
    expect(sha256(after.bytes)).toBe(sha256(forB));
  });
});
