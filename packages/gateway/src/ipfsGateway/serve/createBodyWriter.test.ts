import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { type IncomingMessage, request, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createServedMeter, type ServedLimits } from '../../ipfs/createServedMeter.js';
import { createMemoryLimiter } from '../../limits/createMemoryLimiter.js';
import { closeLoopbackServers, listenLoopback } from '../../test-support/listenLoopback.js';
import { createStreamConnections } from '../upstream/createStreamConnections.js';
import { AnswerStopped, createBodyWriter } from './createBodyWriter.js';

// The body writer between two real HTTP hops: an "upstream" server whose answer the writer pumps
// into a "gateway" server's answer, read by a client. The meter is the real one over the memory
// limiter.

const MiB = 1024 * 1024;
afterEach(closeLoopbackServers);

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  return (await listenLoopback(handler)).url;
}

function get(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Reads an answer to its end: its bytes, and whether it ended complete. */
function readAll(res: IncomingMessage): Promise<{ bytes: number; complete: boolean }> {
  return new Promise((resolve) => {
    let bytes = 0;
    res.on('data', (c: Buffer) => {
      bytes += c.byteLength;
    });
    res.on('end', () => resolve({ bytes, complete: res.complete }));
    res.on('error', () => resolve({ bytes, complete: false }));
    res.on('aborted', () => resolve({ bytes, complete: false }));
  });
}

/** Answers `size` bytes in pieces of `piece`, honouring backpressure; `done` once all is flushed. */
function writeBytes(res: ServerResponse, size: number, piece: number, done?: () => void): void {
  res.writeHead(200);
  let left = size;
  const bytes = Buffer.alloc(piece, 7);
  const more = () => {
    while (left > 0) {
      const n = Math.min(left, piece);
      left -= n;
      if (!res.write(bytes.subarray(0, n))) return void res.once('drain', more);
    }
    res.end(done);
  };
  more();
}

const limits = (over: Partial<ServedLimits> = {}): ServedLimits => ({
  bytesPerRequest: 1024 * MiB,
  bytesPerDay: 1024 * MiB,
  bytesPerSecond: 1024 * MiB,
  creditsPerMiB: 0,
  credits: { creditsPerSecond: 1_000_000, creditsPerDay: 1_000_000 },
  ...over,
});

/**
 * A gateway hop that pumps `upstreamUrl`'s answer through a body writer metered by `servedLimits`;
 * `outcome` settles with what `pump` did.
 */
async function gatewayHop(upstreamUrl: string, servedLimits: ServedLimits, idleMs = 2_000) {
  let settle!: (r: { error?: unknown; bytes: number }) => void;
  const outcome = new Promise<{ error?: unknown; bytes: number }>((r) => {
    settle = r;
  });
  const url = await listen(async (_req, res) => {
    const meter = createServedMeter(createMemoryLimiter(), 'k', servedLimits, new AbortController().signal);
    const body = createBodyWriter(res, meter);
    const upstream = await get(upstreamUrl);
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    try {
      await body.pump(upstream, idleMs);
      res.end();
      settle({ bytes: body.bytes });
    } catch (error) {
      res.destroy();
      settle({ error, bytes: body.bytes });
    }
  });
  return { url, outcome };
}

describe('createBodyWriter', () => {
  it('pumps a large answer whole, byte for byte in count, when nothing holds it back', async () => {
    const size = 32 * MiB + 123;
    const upstream = await listen((_req, res) => writeBytes(res, size, 256 * 1024));
    const hop = await gatewayHop(upstream, limits());
    const read = await readAll(await get(hop.url));
    expect(read).toEqual({ bytes: size, complete: true });
    expect(await hop.outcome).toEqual({ bytes: size });
  });

  it('paces to the meter: 16 MiB at 4 MiB/s take about three seconds, and the upstream is held back meanwhile', async () => {
    const size = 16 * MiB;
    let upstreamDone = 0;
    const upstream = await listen((_req, res) =>
      writeBytes(res, size, 64 * 1024, () => {
        upstreamDone = performance.now();
      }),
    );
    const hop = await gatewayHop(upstream, limits({ bytesPerSecond: 4 * MiB }));
    const started = performance.now();
    const read = await readAll(await get(hop.url));
    const took = performance.now() - started;
    expect(read).toEqual({ bytes: size, complete: true });
    expect(took).toBeGreaterThanOrEqual(2_500);
    // backpressure reached the upstream: it could not finish writing long before the client read
    // it all (what the sockets' buffers hold, a few MiB, is all it could write ahead)
    expect(upstreamDone - started).toBeGreaterThan(took / 3);
  });

  it('an upstream that closes before its end stops the answer (AnswerStopped), and the client sees it incomplete', async () => {
    const upstream = await listen((_req, res) => {
      res.writeHead(200, { 'content-length': String(4 * MiB) });
      res.write(Buffer.alloc(MiB, 2), () => res.destroy());
    });
    const hop = await gatewayHop(upstream, limits());
    const read = await readAll(await get(hop.url));
    expect(read.complete).toBe(false);
    const outcome = await hop.outcome;
    expect(outcome.error).toBeInstanceOf(AnswerStopped);
    expect(outcome.bytes).toBeLessThanOrEqual(MiB);
  });

  it('an upstream that stalls past the idle deadline stops the answer', async () => {
    const upstream = await listen((_req, res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(1024, 3)); // then nothing
    });
    const hop = await gatewayHop(upstream, limits(), 300);
    const started = performance.now();
    const read = await readAll(await get(hop.url));
    expect(read.complete).toBe(false);
    const outcome = await hop.outcome;
    expect(outcome.error).toBeInstanceOf(AnswerStopped);
    expect((outcome.error as Error).message).toMatch(/stalled/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('the day’s bandwidth reached mid-answer stops it with the meter’s refusal', async () => {
    const upstream = await listen((_req, res) => {
      res.writeHead(200);
      res.end(Buffer.alloc(2 * MiB, 4));
    });
    const hop = await gatewayHop(upstream, limits({ bytesPerDay: 512 * 1024 }));
    const read = await readAll(await get(hop.url));
    expect(read.complete).toBe(false);
    const outcome = await hop.outcome;
    expect(outcome.error).toMatchObject({ status: 429, refusal: 'served-daily' });
    expect(outcome.bytes).toBeLessThanOrEqual(512 * 1024 + 64 * 1024);
  });

  it('pumps a body read without a copy (createStreamConnections) to a slow client byte for byte, chunks given back as written', async () => {
    const data = randomBytes(12 * MiB);
    const upstream = await listen((_req, res) => {
      res.writeHead(200, { trailer: 'X-Stream-Error' });
      let at = 0;
      const more = () => {
        while (at < data.byteLength) {
          const piece = data.subarray(at, at + 100_000);
          at += piece.byteLength;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        res.addTrailers({ 'X-Stream-Error': '' });
        res.end();
      };
      more();
    });
    const streams = createStreamConnections(new URL(upstream), {});
    let settle!: (r: { error?: unknown; bytes: number }) => void;
    const outcome = new Promise<{ error?: unknown; bytes: number }>((r) => {
      settle = r;
    });
    const hop = await listen(async (_req, res) => {
      const meter = createServedMeter(createMemoryLimiter(), 'k', limits(), new AbortController().signal);
      const body = createBodyWriter(res, meter);
      const answer = await streams.open('cat', { arg: 'x' }, AbortSignal.timeout(5_000));
      res.writeHead(200);
      try {
        await body.pump(answer, 2_000);
        res.end();
        settle({ bytes: body.bytes });
      } catch (error) {
        res.destroy();
        settle({ error, bytes: body.bytes });
      }
    });
    // a client that reads slowly: the gateway's socket fills and its writes complete late
    const res = await get(hop);
    const hash = createHash('sha256');
    let n = 0;
    res.on('data', (c: Buffer) => {
      hash.update(c);
      if (++n % 2 === 0) {
        res.pause();
        setTimeout(() => res.resume(), 4);
      }
    });
    await once(res, 'end');
    streams.close();
    expect(await outcome).toEqual({ bytes: data.byteLength });
    expect(hash.digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
  });
});
