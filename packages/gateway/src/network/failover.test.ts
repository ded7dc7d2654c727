import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { type RunningGateway, startGateway } from '../main.js';
import { rpc } from '../test-support/startTestGateway.js';

/** Small scriptable upstreams that fail the way real ones do. */
function faultServer(
  behaviour: 'html-502' | 'slow' | 'rate-limited' | 'drop' | 'not-json',
): Promise<{ url: string; hits: () => number; server: Server }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    req.resume();
    req.on('end', () => {
      switch (behaviour) {
        case 'html-502':
          res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad Gateway</body></html>');
          return;
        case 'slow':
          setTimeout(() => res.writeHead(200).end('{"jsonrpc":"2.0","id":1,"result":"0x1"}'), 3_000).unref();
          return;
        case 'rate-limited':
          res.writeHead(429, { 'retry-after': '1' }).end('too many requests');
          return;
        case 'drop':
          req.socket.destroy();
          return;
        case 'not-json':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":');
          return;
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits, server }),
    ),
  );
}

let anvil: EmbeddedProcess;
let dataDir: string;
const servers: Server[] = [];
beforeAll(async () => {
  anvil = await startAnvil();
  dataDir = await mkdtemp(join(tmpdir(), 'nodegate-failover-'));
});
afterAll(async () => {
  for (const s of servers) s.close();
  await anvil?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function gatewayWith(
  upstreams: Array<{ name: string; http: string; timeoutMs?: number }>,
  dev = false,
): Promise<{ gw: RunningGateway; url: string }> {
  const dir = await mkdtemp(join(dataDir, 'gw-'));
  const gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: dir,
      devKey: true,
      // the policies alone: no response cache (and no head tracker traffic) in the counts
      cache: { enabled: false },
      networks: [{ name: 'mainnet', family: 'eth', dev, pathPrefix: '/mainnet', upstreams }],
    }),
  );
  return { gw, url: `${gw.networks.mainnet!.http}/v3/${gw.devKey!.key}` };
}

describe('upstream failures', () => {
  for (const behaviour of ['html-502', 'rate-limited', 'drop', 'not-json'] as const) {
    it(`fails over from an upstream that answers "${behaviour}" to the next one`, async () => {
      const bad = await faultServer(behaviour);
      servers.push(bad.server);
      const { gw, url } = await gatewayWith([
        { name: 'flaky', http: bad.url },
        { name: 'anvil', http: anvil.http },
      ]);
      try {
        const r = await rpc(url, 'eth_chainId');
        expect(r.result).toBe('0x7a69');
        expect(bad.hits()).toBeGreaterThan(0);
      } finally {
        await gw.close();
      }
    });
  }

  it('answers a clear -32603 without the upstream URL when every upstream fails, and keeps serving', async () => {
    const bad = await faultServer('html-502');
    const slow = await faultServer('slow');
    servers.push(bad.server, slow.server);
    const { gw, url } = await gatewayWith([
      { name: 'a', http: bad.url },
      { name: 'b', http: slow.url, timeoutMs: 300 },
      { name: 'c', http: 'http://127.0.0.1:9' },
    ]);
    try {
      const started = Date.now();
      const r = await rpc(url, 'eth_chainId');
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(r.error.code).toBe(-32603);
      expect(r.error.message).toMatch(/upstream unavailable for network mainnet/);
      for (const u of [bad.url, slow.url, '127.0.0.1:9']) expect(JSON.stringify(r)).not.toContain(u);
      const health = await fetch(`${gw.url}/health`);
      expect(health.status).toBe(503);
      expect(((await health.json()) as any).networks.mainnet.healthy).toBe(false);
    } finally {
      await gw.close();
    }
  });

  it('a timeout becomes an error, not a hang', async () => {
    const slow = await faultServer('slow');
    servers.push(slow.server);
    const { gw, url } = await gatewayWith([{ name: 'slow', http: slow.url, timeoutMs: 200 }]);
    try {
      const r = await rpc(url, 'eth_blockNumber');
      expect(r.error.code).toBe(-32603);
      expect(r.error.message).toMatch(/did not answer within 200 ms/);
    } finally {
      await gw.close();
    }
  });

  it('does not retry a write elsewhere once an upstream may have received it', async () => {
    const bad = await faultServer('html-502');
    const second = await faultServer('html-502');
    servers.push(bad.server, second.server);
    const { gw, url } = await gatewayWith([
      { name: 'a', http: bad.url },
      { name: 'b', http: second.url },
    ]);
    try {
      // the background health probes reach them too: count from here
      const before = bad.hits() + second.hits();
      const r = await rpc(url, 'eth_sendRawTransaction', ['0x02f8']);
      expect(r.error.code).toBe(-32603);
      expect(bad.hits() + second.hits() - before).toBe(1);
    } finally {
      await gw.close();
    }
  });

  it('upstream JSON-RPC errors go back to the client unchanged, without failover', async () => {
    const { gw, url } = await gatewayWith([{ name: 'anvil', http: anvil.http }]);
    try {
      const r = await rpc(url, 'eth_sendRawTransaction', ['0xdeadbeef']);
      const direct = await rpc(anvil.http, 'eth_sendRawTransaction', ['0xdeadbeef']);
      expect(r.error).toEqual(direct.error);
    } finally {
      await gw.close();
    }
  });

  it('production networks refuse dev-chain methods before any upstream call', async () => {
    const counting = await faultServer('html-502');
    servers.push(counting.server);
    const { gw, url } = await gatewayWith([{ name: 'c', http: counting.url }]);
    try {
      const before = counting.hits();
      for (const m of ['anvil_mine', 'evm_snapshot', 'eth_sendTransaction']) {
        const r = await rpc(url, m, []);
        expect(r.error.code).toBe(-32601);
        expect(r.error.message).toMatch(/only available on dev networks/);
      }
      expect(counting.hits() - before).toBe(0);
    } finally {
      await gw.close();
    }
  });
});
