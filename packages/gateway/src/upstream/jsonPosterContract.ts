import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestCertificates, type TestCertificates } from '../edge/tls/createTestCertificates.js';
import type { JsonPoster, JsonPosterOptions } from './JsonPoster.js';

/** A request as the scripted server read it. */
interface SeenRequest {
  readonly head: string;
  readonly body: Buffer;
  /** The how-many-th request on its connection (1 = the first). */
  readonly onConnection: number;
}

type Script = (req: SeenRequest, socket: Socket) => void;

/** A raw HTTP/1.1 server whose answers are written byte by byte by the test. */
interface ScriptedServer {
  readonly url: string;
  script(s: Script): void;
  /** Connections accepted so far, open now, and the most open at once. */
  readonly connections: { total: number; open: number; maxOpen: number };
  closed(): Promise<void>;
  close(): Promise<void>;
}

async function startScripted(tls: { cert: string; key: string } | undefined): Promise<ScriptedServer> {
  let script: Script = (_req, socket) => answer(socket, 200, '{"jsonrpc":"2.0","id":1,"result":"0x1"}');
  const connections = { total: 0, open: 0, maxOpen: 0 };
  let onClosed: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const handle = (socket: Socket) => {
    sockets.add(socket);
    connections.total += 1;
    connections.open += 1;
    connections.maxOpen = Math.max(connections.maxOpen, connections.open);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      connections.open -= 1;
      for (const f of onClosed.splice(0)) f();
    });
    let pending = Buffer.alloc(0);
    let served = 0;
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const body = pending.subarray(end + 4, end + 4 + length);
        pending = pending.subarray(end + 4 + length);
        served += 1;
        script({ head, body, onConnection: served }, socket);
      }
    });
  };
  const server: Server = tls ? createTlsServer({ cert: tls.cert, key: tls.key }, handle) : createTcpServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `${tls ? 'https' : 'http'}://${tls ? 'localhost' : '127.0.0.1'}:${port}/rpc`,
    script: (s) => {
      script = s;
    },
    connections,
    closed: () => new Promise<void>((r) => onClosed.push(r)),
    close: async () => {
      onClosed = [];
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A whole answer with its Content-Length. */
function answer(socket: Socket, status: number, body: string, extra = ''): void {
  socket.write(
    `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BODY = '{"jsonrpc":"2.0","id":7,"method":"eth_call","params":["Zürich ✓"]}';

/**
 * The contract of a {@link JsonPoster}, run against each implementation: `make` builds one for a
 * URL with the given headers and options. Every case runs on a raw HTTP/1.1 server the test
 * scripts byte by byte (keep-alive, chunked and until-close bodies split anywhere, informational
 * heads, pauses, refusals, garbage, TLS with a test CA).
 */
export function jsonPosterContract(
  name: string,
  make: (url: URL, headers: readonly string[], options: JsonPosterOptions) => JsonPoster,
): void {
  describe(`JsonPoster contract: ${name}`, () => {
    let server: ScriptedServer;
    let poster: JsonPoster;
    const open = (options: Partial<JsonPosterOptions> = {}, url = server.url) => {
      poster = make(new URL(url), ['content-type', 'application/json', 'x-api-key', 'k-1'], {
        timeoutMs: 2_000,
        ...options,
      });
      return poster;
    };
    beforeAll(async () => {
      server = await startScripted(undefined);
    });
    afterEach(async () => {
      await poster?.close();
      server.script((_req, socket) => answer(socket, 200, '{"jsonrpc":"2.0","id":1,"result":"0x1"}'));
    });
    afterAll(async () => {
      await server.close();
    });

    it('sends the body and its headers, reads the answer, and keeps the connection for the next', async () => {
      const seen: SeenRequest[] = [];
      server.script((req, socket) => {
        seen.push(req);
        answer(socket, 200, `{"jsonrpc":"2.0","id":7,"result":"ü${req.onConnection}"}`);
      });
      const before = server.connections.total;
      const p = open();
      expect(await p.post(BODY)).toEqual({ status: 200, text: '{"jsonrpc":"2.0","id":7,"result":"ü1"}' });
      for (let i = 0; i < 4; i++) expect((await p.post(BODY)).status).toBe(200);
      // kept alive: five posts one after the other on at most two connections (undici may open a second)
      expect(server.connections.total - before).toBeLessThanOrEqual(2);
      expect(seen.some((r) => r.onConnection >= 3)).toBe(true);
      expect(seen[0]!.head).toMatch(/^POST \/rpc HTTP\/1\.1\r\n/);
      expect(seen[0]!.head).toMatch(/\r\nhost: 127\.0\.0\.1:\d+/i);
      expect(seen[0]!.head).toMatch(/\r\ncontent-type: application\/json/i);
      expect(seen[0]!.head).toMatch(/\r\nx-api-key: k-1/i);
      expect(seen[0]!.body.toString('utf8')).toBe(BODY);
    });

    it('reads a chunked body split anywhere (a character split between chunks too)', async () => {
      const text = `{"jsonrpc":"2.0","id":7,"result":"${'ß✓'.repeat(3000)}"}`;
      const bytes = Buffer.from(text);
      server.script(async (_req, socket) => {
        socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n');
        await sleep(5);
        socket.write('\r\n');
        for (let at = 0; at < bytes.length; ) {
          const size = Math.min(bytes.length - at, 1 + ((at * 7) % 5000));
          const chunk = Buffer.concat([
            Buffer.from(`${size.toString(16)};ext=1\r\n`),
            bytes.subarray(at, at + size),
            Buffer.from('\r\n'),
          ]);
          // the chunk line and its data in two writes
          socket.write(chunk.subarray(0, 3));
          await sleep(1);
          socket.write(chunk.subarray(3));
          at += size;
        }
        socket.write('0\r\nx-trailer: 1\r\n\r\n');
      });
      const p = open();
      expect(await p.post(BODY)).toEqual({ status: 200, text });
      expect(await p.post(BODY)).toEqual({ status: 200, text });
    });

    it('reads a long body in many reads, and a body that ends when the connection closes', async () => {
      const long = `"${'a'.repeat(3 * 1024 * 1024)}"`;
      server.script(async (req, socket) => {
        if (req.body.includes('long')) {
          const all = Buffer.from(`HTTP/1.1 200 OK\r\ncontent-length: ${long.length}\r\n\r\n${long}`);
          for (let at = 0; at < all.length; at += 100_000) {
            socket.write(all.subarray(at, at + 100_000));
            await sleep(1);
          }
        } else {
          socket.write('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n{"result":');
          await sleep(10);
          socket.end('"until close"}');
        }
      });
      const p = open();
      expect((await p.post('"long"')).text).toBe(long);
      const before = server.connections.total;
      expect(await p.post('"short"')).toEqual({ status: 200, text: '{"result":"until close"}' });
      expect(await p.post('"short"')).toEqual({ status: 200, text: '{"result":"until close"}' });
      // a connection that closes to end its body is not used again
      expect(server.connections.total - before).toBeGreaterThanOrEqual(1);
    });

    it('gives any status with its body, and Retry-After on a 429 or 503', async () => {
      server.script((req, socket) => {
        if (req.body.includes('busy')) answer(socket, 429, '{"error":"slow down"}', 'Retry-After: 2\r\n');
        else
          socket.write('HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/html\r\ncontent-length: 12\r\n\r\n<html></html');
      });
      const p = open();
      expect(await p.post('"busy"')).toEqual({ status: 429, text: '{"error":"slow down"}', retryAfter: '2' });
      expect(await p.post('"x"')).toEqual({ status: 502, text: '<html></html' });
    });

    it('times out an upstream that does not answer, and one that pauses mid-answer', async () => {
      server.script((req, socket) => {
        if (req.body.includes('pause')) socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"res');
      });
      const p = open({ timeoutMs: 300 });
      const started = performance.now();
      const err = await p.post('"silent"').catch((e: unknown) => e);
      expect((err as { code?: string }).code).toMatch(/TIMEOUT/);
      const took = performance.now() - started;
      expect(took).toBeGreaterThanOrEqual(290);
      expect(took).toBeLessThan(1_500);
      expect(((await p.post('"pause"').catch((e: unknown) => e)) as { code?: string }).code).toMatch(/TIMEOUT/);
      // a head that trickles in, a byte at a time within the timeout, is still due within it
      server.script(async (_req, socket) => {
        socket.write('HTTP/1.1 200 OK\r\n');
        for (let i = 0; i < 30 && !socket.destroyed; i++) {
          await sleep(100);
          if (!socket.destroyed) socket.write('x');
        }
      });
      const trickle = performance.now();
      expect(((await p.post('"trickle"').catch((e: unknown) => e)) as { code?: string }).code).toMatch(/TIMEOUT/);
      expect(performance.now() - trickle).toBeLessThan(1_500);
    });

    it('a refused connection fails with its system code; a garbage answer fails and the next post still works', async () => {
      const dead = await startScripted(undefined);
      const url = dead.url;
      await dead.close();
      const refused = open({}, url);
      expect(((await refused.post(BODY).catch((e: unknown) => e)) as { code?: string }).code).toBe('ECONNREFUSED');
      await refused.close();
      server.script((req, socket) => {
        if (req.body.includes('garbage')) socket.write('hello there\r\n\r\n');
        else answer(socket, 200, '"fine"');
      });
      const p = open();
      await expect(p.post('"garbage"')).rejects.toThrow();
      expect(await p.post('"x"')).toEqual({ status: 200, text: '"fine"' });
    });

    it('an aborted post rejects with the reason at once and its connection is closed; a post already aborted is not sent', async () => {
      const seen: string[] = [];
      server.script((req) => seen.push(req.body.toString()));
      const p = open();
      const ac = new AbortController();
      const posting = p.post('"wait"', ac.signal);
      await sleep(50);
      const closed = server.closed();
      ac.abort(new Error('client gone'));
      await expect(posting).rejects.toThrow('client gone');
      await closed;
      const gone = new AbortController();
      gone.abort(new Error('already'));
      await expect(p.post('"never"', gone.signal)).rejects.toThrow('already');
      await sleep(20);
      expect(seen).toEqual(['"wait"']);
    });

    it('after the upstream closes an idle connection, the next post opens another', async () => {
      server.script((_req, socket) => {
        answer(socket, 200, '"once"');
        setTimeout(() => socket.end(), 20);
      });
      const p = open();
      expect((await p.post(BODY)).text).toBe('"once"');
      await sleep(100);
      expect((await p.post(BODY)).text).toBe('"once"');
    });

    it('never opens more than its connections: the posts beyond them wait their turn', async () => {
      const own = await startScripted(undefined);
      try {
        own.script((_req, socket) => setTimeout(() => answer(socket, 200, '"ok"'), 20));
        const p = open({ connections: 2 }, own.url);
        const answers = await Promise.all(Array.from({ length: 12 }, () => p.post(BODY)));
        expect(answers.every((a) => a.text === '"ok"')).toBe(true);
        expect(own.connections.total).toBe(2);
        expect(own.connections.maxOpen).toBe(2);
      } finally {
        await own.close();
      }
    });

    it('close lets the posts in flight finish, refuses later ones, and may be called again', async () => {
      server.script((_req, socket) => setTimeout(() => answer(socket, 200, '"late"'), 50));
      const p = open();
      const inFlight = p.post(BODY);
      await sleep(10);
      const closing = p.close();
      expect((await inFlight).text).toBe('"late"');
      await closing;
      await p.close();
      await expect(p.post(BODY)).rejects.toThrow();
    });

    it('closes a connection the upstream keeps for less time than it would (Keep-Alive: timeout=)', async () => {
      server.script((_req, socket) => answer(socket, 200, '"hint"', 'keep-alive: timeout=2\r\n'));
      const p = open();
      await p.post(BODY);
      const closed = server.closed();
      const started = performance.now();
      await closed;
      expect(performance.now() - started).toBeLessThan(2_500);
    });

    describe('over TLS', () => {
      let certs: TestCertificates;
      let secure: ScriptedServer;
      beforeAll(async () => {
        certs = await createTestCertificates();
        const issued = await certs.issue('upstream', '01', { subjectAltName: 'DNS:localhost' });
        const { readFile } = await import('node:fs/promises');
        secure = await startScripted({ cert: issued.cert, key: await readFile(issued.keyFile, 'utf8') });
      });
      afterAll(async () => {
        await secure?.close();
        await certs?.remove();
      });

      it('posts to an https: upstream whose certificate the given CA signed, and refuses one it cannot verify', async () => {
        secure.script((req, socket) => answer(socket, 200, `{"echo":${req.body.toString()}}`));
        const p = open({ ca: certs.ca }, secure.url);
        expect(await p.post('"tls"')).toEqual({ status: 200, text: '{"echo":"tls"}' });
        expect(await p.post('"again"')).toEqual({ status: 200, text: '{"echo":"again"}' });
        await p.close();
        const untrusted = open({}, secure.url);
        await expect(untrusted.post('"tls"')).rejects.toThrow();
      });
    });
  });
}
