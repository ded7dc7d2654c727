import { createHash, randomBytes } from 'node:crypto';
import { Agent, type IncomingMessage, request } from 'node:http';
import type { NetConnectOpts } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeLoopbackServers, listenLoopback } from '../test-support/listenLoopback.js';
import { connectReusingReads } from './connectReusingReads.js';

// Real HTTP over loopback: a server answering random bytes, read by node:http through an agent
// whose connections reuse one read buffer. The reader keeps every chunk until the answer ends:
// had any chunk been a view of the reused buffer, later reads would have overwritten it and the
// digest of what was kept would differ from the digest of what was sent.

const MiB = 1024 * 1024;
const agents: Agent[] = [];
afterEach(() => {
  for (const a of agents.splice(0)) a.destroy();
  closeLoopbackServers();
});

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A server answering `body` chunked (in `piece`-sized writes) or with a Content-Length. */
async function serve(body: Buffer, mode: 'chunked' | 'length', piece = 100_000): Promise<string> {
  const { url } = await listenLoopback((_req, res) => {
    if (mode === 'length') res.writeHead(200, { 'content-length': String(body.byteLength) });
    else res.writeHead(200, { trailer: 'x-stream-error' });
    let at = 0;
    const more = () => {
      while (at < body.byteLength) {
        const next = body.subarray(at, at + piece);
        at += piece;
        if (!res.write(next)) return void res.once('drain', more);
      }
      if (mode === 'chunked') res.addTrailers({ 'x-stream-error': '' });
      res.end();
    };
    more();
  });
  return url;
}

function reusingAgent(): Agent {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agent.createConnection = (options) => connectReusingReads(options as NetConnectOpts);
  agents.push(agent);
  return agent;
}

/** GETs `url` and keeps every chunk until the end (read slowly when `slow`); the chunks and the answer. */
function getKeeping(url: string, agent: Agent, slow = false): Promise<{ chunks: Buffer[]; res: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (slow && chunks.length % 8 === 0) {
          res.pause();
          setTimeout(() => res.resume(), 2);
        }
      });
      res.on('end', () => resolve({ chunks, res }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('connectReusingReads', () => {
  it('a chunked answer of 32 MiB, every chunk kept to the end, arrives byte for byte', async () => {
    const body = randomBytes(32 * MiB);
    const url = await serve(body, 'chunked');
    const { chunks, res } = await getKeeping(url, reusingAgent());
    expect(res.statusCode).toBe(200);
    expect(res.trailers['x-stream-error']).toBe('');
    // many reads went through the one buffer
    expect(chunks.length).toBeGreaterThan(100);
    const got = Buffer.concat(chunks);
    expect(got.byteLength).toBe(body.byteLength);
    expect(sha256(got)).toBe(sha256(body));
  });

  it('answers read slowly (paused and resumed), one after another on the same kept-alive connection, stay whole', async () => {
    const first = randomBytes(8 * MiB + 17);
    const second = randomBytes(3 * MiB + 5);
    const agent = reusingAgent();
    const firstUrl = await serve(first, 'length', 65_536);
    const a = await getKeeping(firstUrl, agent, true);
    const b = await getKeeping(await serve(second, 'chunked', 7_000), agent, true);
    expect(sha256(Buffer.concat(a.chunks))).toBe(sha256(first));
    expect(sha256(Buffer.concat(b.chunks))).toBe(sha256(second));
    // and again on the first server: the kept-alive socket's buffer is reused across answers
    const c = await getKeeping(firstUrl, agent);
    expect(sha256(Buffer.concat(c.chunks))).toBe(sha256(first));
    expect(sha256(Buffer.concat(a.chunks))).toBe(sha256(first));
  });

  it('every read lands in the same buffer: the socket’s own data events are views of one memory', async () => {
    const url = await serve(randomBytes(4 * MiB), 'chunked');
    const memories = new Set<ArrayBufferLike>();
    let reads = 0;
    await new Promise<void>((resolve, reject) => {
      const req = request(url, { agent: reusingAgent() }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('socket', (socket) =>
        socket.on('data', (c: Buffer) => {
          reads++;
          memories.add(c.buffer);
        }),
      );
      req.on('error', reject);
      req.end();
    });
    expect(reads).toBeGreaterThan(10);
    expect(memories.size).toBe(1);
  });
});
