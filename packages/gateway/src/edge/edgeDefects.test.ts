import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway, postJson, startTestGateway } from '../test-support/startTestGateway.js';

/** An upstream that never answers, and records when the gateway gives up on a request. */
let slow: Server;
let slowUrl: string;
const slowRequests: Array<{ aborted: boolean }> = [];
let t: TestGateway;
let base: string;
let port: number;

beforeAll(async () => {
  slow = createServer((req, res) => {
    const entry = { aborted: false };
    slowRequests.push(entry);
    req.resume();
    res.on('close', () => {
      if (!res.writableFinished) entry.aborted = true;
    });
  });
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', () => r()));
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
  t = await startTestGateway({
    extra: {
      limits: {
        headersTimeoutMs: 1_000,
        bodyTimeoutMs: 1_000,
        ws: { maxInFlightPerConnection: 16, maxSendBufferBytes: 65_536, maxConnectionsPerKey: 4 },
      },
    },
    networks: () => [
      {
        name: 'slow-net',
        family: 'eth',
        pathPrefix: '/slow-net',
        upstreams: [{ name: 'never', http: slowUrl, timeoutMs: 30_000 }],
      },
    ],
  });
  base = t.gw.networks['eth-devnet']!.http;
  port = Number(new URL(t.gw.url).port);
});
afterAll(async () => {
  await t?.stop();
  slow?.closeAllConnections();
  slow?.close();
});

/** Sends bytes exactly as given (no client-side normalisation) and reads the whole answer. */
function raw(text: string): Promise<{ status: number; body: string; closedAt: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (c) => (data += c.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4), closedAt: Date.now() });
    });
    socket.write(text);
  });
}

const CHAIN_ID = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
const post = (path: string, body = CHAIN_ID, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${extra}\r\n${body}`;

describe('edge defects (regressions)', () => {
  it('6: bad percent-encoding in the path is a JSON-RPC 400 that never echoes the URL', async () => {
    const r = await raw(post(`/eth-devnet/v3/${t.key}%E0%A4%A`));
    expect(r.status).toBe(400);
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(r.body).not.toContain(t.key);
    expect(r.body).not.toContain('%E0');
  });

  it('6: Node-level refusals (bad request line, headers too large) answer in the JSON-RPC shape', async () => {
    const bad = await raw('GARBAGE\r\n\r\n');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe(-32600);
    const huge = await raw(post(`/eth-devnet/v3/${t.key}`, CHAIN_ID, `X-Big: ${'a'.repeat(20_000)}\r\n`));
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body).error.message).toMatch(/headers too large/);
  });

  it('6: a WebSocket upgrade on such a path gets an HTTP 400, not a dropped socket', async () => {
    const r = await raw(
      `GET /eth-devnet/ws/v3/%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.code).toBe(-32600);
  });

  it('paths with dot segments or encoded slashes are refused, not normalised behind the checks', async () => {
    for (const path of [`/eth-devnet/x/../v3/${t.key}`, `/eth-devnet/v3%2F${t.key}`, `//eth-devnet/v3/${t.key}`]) {
      const r = await raw(post(path));
      expect(r.status, path).toBe(400);
      expect(r.body).not.toContain(t.key);
    }
  });

  it('7: numeric ids come back exactly as sent', async () => {
    for (const id of ['1e400', '123456789012345678901234567890', '1.0', '-0']) {
      const r = await postJson(`${base}/v3/${t.key}`, `{"jsonrpc":"2.0","id":${id},"method":"eth_chainId"}`);
      expect(r.text).toBe(`{"jsonrpc":"2.0","id":${id},"result":"0x7a69"}`);
    }
    const batch = await postJson(
      `${base}/v3/${t.key}`,
      '[{"jsonrpc":"2.0","id":1e400,"method":"eth_chainId"},{"jsonrpc":"2.0","id":99999999999999999999,"method":"eth_chainId"}]',
    );
    expect(batch.text).toContain('"id":1e400');
    expect(batch.text).toContain('"id":99999999999999999999');
  });

  it("5: params nested 5,000 levels deep are the request's error, never the upstream's", async () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const r = await postJson(`${base}/v3/${t.key}`, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":${deep}}`);
    expect(r.json.error.code).toBe(-32600);
    expect(r.json.error.message).toMatch(/nested deeper/);
    const health = (await (await fetch(`${t.gw.url}/health`)).json()) as any;
    expect(health.networks['eth-devnet'].upstreams[0]).toMatchObject({ healthy: true, consecutiveFailures: 0 });
  });

  it('8: a client that goes away aborts its request upstream', async () => {
    const before = slowRequests.length;
    const controller = new AbortController();
    const pending = fetch(`${t.gw.networks['slow-net']!.http}/v3/${t.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: CHAIN_ID,
      signal: controller.signal,
    }).catch(() => undefined);
    for (let i = 0; i < 100 && slowRequests.length === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(slowRequests.length).toBe(before + 1);
    controller.abort();
    await pending;
    for (let i = 0; i < 100 && !slowRequests[before]!.aborted; i++) await new Promise((r) => setTimeout(r, 20));
    expect(slowRequests[before]!.aborted).toBe(true);
  });

  it('9: clients that trickle their headers or body are cut off at the configured timeouts', async () => {
    const started = Date.now();
    const trickle = (head: string) =>
      new Promise<number>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => {});
        socket.write(head);
        const timer = setInterval(() => socket.write('a'), 200);
        socket.on('close', () => {
          clearInterval(timer);
          resolve(Date.now() - started);
        });
      });
    const headers = Array.from({ length: 50 }, () =>
      trickle(`POST /eth-devnet/v3/${t.key} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `),
    );
    const bodies = Array.from({ length: 10 }, () =>
      trickle(
        `POST /eth-devnet/v3/${t.key} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
      ),
    );
    const closedAfter = await Promise.all([...headers, ...bodies]);
    // 1 s timeouts, checked every second: every connection is gone within a few seconds, not a minute
    for (const ms of closedAfter) expect(ms).toBeLessThan(4_000);
  });

  it('4: a WebSocket client that pipelines without waiting is closed (1008) at the in-flight cap', async () => {
    const ws = new WebSocket(`${t.gw.networks['eth-devnet']!.ws}/ws/v3/${t.key}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    for (let i = 0; i < 10_000 && ws.readyState === ws.OPEN; i++) ws.send(CHAIN_ID);
    const { code, reason } = await closed;
    expect(code).toBe(1008);
    expect(reason).toMatch(/too many requests in flight: at most 16/);
  });

  it('4: a WebSocket client that never reads is dropped once its send buffer is full; its slot is freed', async () => {
    const wsUrl = `${t.gw.networks['eth-devnet']!.ws}/ws/v3/${t.key}`;
    const clients: WebSocket[] = [];
    for (let i = 0; i < 4; i++) {
      const ws = new WebSocket(wsUrl);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      clients.push(ws);
    }
    // the per-key connection cap (4) refuses a fifth with 429
    const fifth = await new Promise<number>((resolve) => {
      const ws = new WebSocket(wsUrl);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => {});
    });
    expect(fifth).toBe(429);
    // one client stops reading and asks for large answers until the gateway drops it
    const reader = clients[0]!;
    (reader as unknown as { _socket: { pause(): void } })._socket.pause();
    // ~100 KB answers: the kernel's socket buffers fill within a few MB, then the gateway's own
    const big = JSON.stringify(
      Array.from({ length: 100 }, (_, id) => ({
        jsonrpc: '2.0',
        id,
        method: 'eth_getBlockByNumber',
        params: ['0x0', true],
      })),
    );
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 8; i++) reader.send(big);
      await new Promise((r) => setTimeout(r, 10));
      // the slot is free again once the gateway dropped the reader
      const again = await new Promise<boolean>((resolve) => {
        const ws = new WebSocket(wsUrl);
        ws.on('open', () => {
          clients.push(ws);
          resolve(true);
        });
        ws.on('unexpected-response', () => resolve(false));
        ws.on('error', () => resolve(false));
      });
      if (again) break;
    }
    expect(clients.length).toBe(5);
    for (const c of clients) c.terminate();
  });
});
