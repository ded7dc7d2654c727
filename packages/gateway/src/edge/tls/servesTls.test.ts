import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { create as createKubo } from 'kubo-rpc-client';
import { RpcProvider } from 'starknet';
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher, fetch as undiciFetch } from 'undici';
import { createPublicClient, http, webSocket } from 'viem';
import { foundry } from 'viem/chains';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../config/validateConfig.js';
import { basicAuth } from '../../ipfs/startIpfsTestGateway.js';
import { type RunningGateway, startGateway } from '../../main.js';
import { until } from '../../test-support/until.js';
import { createTestCertificates, type TestCertificates, type TestServerCertificate } from './createTestCertificates.js';

// HTTPS and WSS served by the gateway itself (issue 21): every route of the listener over TLS,
// with a certificate a CA made by this test signed, reached by the clients dapps use, each
// trusting that CA its own way; and the certificate replaced in place while connections stay.

let pki: TestCertificates;
let first: TestServerCertificate;
let second: TestServerCertificate;
let dir: string;
let certFile: string;
let keyFile: string;
let gw: RunningGateway;
let agent: Agent;
let key: string;
let secret: string;

/** fetch that trusts the test CA (undici's Agent `connect.ca`). */
const trusted = (url: string, init: Parameters<typeof undiciFetch>[1] = {}) =>
  undiciFetch(url, { ...init, dispatcher: agent });

/** The serial number of the certificate a new TLS connection to `url` is served. */
function servedSerial(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), ca: pki.ca, servername: 'localhost' }, () => {
      const serial = socket.getPeerCertificate().serialNumber;
      socket.end();
      resolve(serial);
    });
    socket.once('error', reject);
  });
}

/** A `ws` client that trusts the test CA; resolves once open, with a JSON-RPC call helper. */
async function openWss(url: string) {
  let served = '';
  const ws = new WebSocket(url, { ca: pki.ca });
  ws.once('upgrade', (res) => {
    served = (res.socket as import('node:tls').TLSSocket).getPeerCertificate().serialNumber;
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let id = 0;
  const call = (method: string, params: unknown[] = []) =>
    new Promise<any>((resolve) => {
      const mine = ++id;
      const onMessage = (data: WebSocket.RawData) => {
        const msg = JSON.parse(String(data));
        if (msg.id !== mine) return;
        ws.off('message', onMessage);
        resolve(msg);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: mine, method, params }));
    });
  return { ws, call, served: () => served };
}

beforeAll(async () => {
  pki = await createTestCertificates();
  first = await pki.issue('first', '1001');
  second = await pki.issue('second', '1002');
  dir = await mkdtemp(join(tmpdir(), 'nodegate-tls-gw-'));
  // the files the gateway reads (a rotation replaces their content)
  certFile = join(dir, 'cert.pem');
  keyFile = join(dir, 'key.pem');
  await copyFile(first.certFile, certFile);
  await copyFile(first.keyFile, keyFile);
  gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'data'),
      devKey: true,
      tls: { certFile, keyFile },
      metrics: { listen: '127.0.0.1:0' },
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          dev: true,
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', embedded: 'anvil' }],
        },
        {
          name: 'starknet-devnet',
          family: 'starknet',
          dev: true,
          pathPrefix: '/starknet-devnet',
          upstreams: [{ name: 'devchain', embedded: 'starknet-devchain' }],
        },
      ],
      ipfs: { pathPrefix: '/ipfs', upstream: { name: 'ipfs-node', embedded: 'ipfs-node' } },
    }),
    // the refused reloads below log errors on purpose (tlsCli.test.ts checks those lines)
    { logLevel: 'silent' },
  );
  agent = new Agent({ connect: { ca: pki.ca } });
  key = gw.devKey!.key;
  secret = gw.devKey!.secret;
});

afterAll(async () => {
  await gw?.close();
  await agent?.close();
  await rm(dir, { recursive: true, force: true });
  await pki?.remove();
});

describe('a gateway with tls', () => {
  it('hands out https:// and wss:// URLs everywhere (handle, dashboard config)', async () => {
    expect(gw.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(gw.networks['eth-devnet']).toEqual({
      family: 'eth',
      http: `${gw.url}/eth-devnet`,
      ws: `${gw.url.replace('https://', 'wss://')}/eth-devnet`,
    });
    expect(gw.ipfs).toBe(`${gw.url}/ipfs`);
    expect(gw.admin.url).toBe(`${gw.url}/admin/api/v1`);
    expect(gw.dashboard.url).toBe(`${gw.url}/dashboard`);
    expect(gw.dashboard.signInUrl).toMatch(/^https:\/\//);
    expect(gw.metrics?.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(gw.tls?.certificate().serialNumber).toBe('1001');
    const config = (await (await trusted(`${gw.url}/dashboard/config.json`)).json()) as any;
    expect(config.networks['starknet-devnet'].http).toBe(`${gw.url}/starknet-devnet`);
    expect(config.networks['starknet-devnet'].ws).toBe(`${gw.url.replace('https://', 'wss://')}/starknet-devnet`);
    expect(config.ipfs).toBe(`${gw.url}/ipfs`);
    expect(config.adminUrl).toBe(`${gw.url}/admin/api/v1`);
  });

  it('speaks TLS only: plain HTTP is not answered, and a client that does not trust the CA is refused', async () => {
    await expect(fetch(`${gw.url}/health`)).rejects.toThrow();
    const plain = await fetch(`${gw.url.replace('https://', 'http://')}/health`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(plain).not.toBe(200);
    const ws = new WebSocket(`${gw.networks['eth-devnet']!.ws}/ws/v3/${key}`);
    const err = await new Promise<Error>((resolve) => ws.once('error', resolve));
    expect(err.message).toMatch(/certificate/i);
  });

  it('serves /health, the dashboard, the admin API and the metrics listener over HTTPS', async () => {
    const health = await trusted(`${gw.url}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as any).status).toBeDefined();
    const dashboard = await trusted(`${gw.url}/dashboard`);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain('<html');
    const plans = await trusted(`${gw.admin.url}/plans`, { headers: { authorization: `Bearer ${gw.admin.token}` } });
    expect(plans.status).toBe(200);
    expect(Array.isArray(await plans.json())).toBe(true);
    const metrics = await trusted(gw.metrics!.url);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('nodegate_');
  });

  it('viem over HTTPS (a fetchOptions dispatcher that trusts the CA)', async () => {
    const client = createPublicClient({
      chain: foundry,
      transport: http(`${gw.networks['eth-devnet']!.http}/v3/${key}`, {
        fetchOptions: { dispatcher: agent } as unknown as RequestInit,
      }),
    });
    expect(await client.getChainId()).toBe(31337);
    const accounts = (await client.request({ method: 'eth_accounts' } as any)) as `0x${string}`[];
    expect(await client.getBalance({ address: accounts[0]! })).toBeGreaterThan(0n);
  });

  it('starknet.js over HTTPS (a baseFetch that trusts the CA)', async () => {
    const provider = new RpcProvider({
      nodeUrl: `${gw.networks['starknet-devnet']!.http}/v3/${key}`,
      baseFetch: ((url: string, init: RequestInit) => trusted(url, init as any)) as any,
    });
    expect(await provider.getChainId()).toBe('0x534e5f5345504f4c4941'); // SN_SEPOLIA
    expect(typeof (await provider.getBlockNumber())).toBe('number');
  });

  it('ws over WSS (its `ca` option): calls and a subscription', async () => {
    const c = await openWss(`${gw.networks['eth-devnet']!.ws}/ws/v3/${key}`);
    try {
      expect(c.served()).toBe('1001');
      expect((await c.call('eth_chainId')).result).toBe('0x7a69');
      const sub = (await c.call('eth_subscribe', ['newHeads'])).result as string;
      const heads: any[] = [];
      c.ws.on('message', (d) => {
        const msg = JSON.parse(String(d));
        if (msg.params?.subscription === sub) heads.push(msg.params.result);
      });
      await trusted(`${gw.networks['eth-devnet']!.http}/v3/${key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] }),
      });
      await until(async () => heads.length > 0, 'a newHeads notification over WSS');
      expect(heads[0].number).toMatch(/^0x[0-9a-f]+$/);
    } finally {
      c.ws.close();
    }
  });

  describe('clients that trust a CA process-wide (undici’s global dispatcher, as NODE_EXTRA_CA_CERTS does)', () => {
    let previous: Dispatcher;
    beforeAll(() => {
      previous = getGlobalDispatcher();
      setGlobalDispatcher(agent);
    });
    afterAll(() => {
      setGlobalDispatcher(previous);
    });

    it('viem’s webSocket transport over WSS (Node’s WebSocket): a call and a newHeads subscription', async () => {
      const client = createPublicClient({
        chain: foundry,
        transport: webSocket(`${gw.networks['eth-devnet']!.ws}/ws/v3/${key}`),
      });
      expect(await client.getChainId()).toBe(31337);
      const before = await client.getBlockNumber();
      const seen: bigint[] = [];
      // a webSocket transport watches by eth_subscribe("newHeads"), not by polling
      const unwatch = client.watchBlockNumber({ onBlockNumber: (n) => seen.push(n) });
      try {
        await until(async () => {
          await client.request({ method: 'evm_mine', params: [] } as any);
          return seen.some((n) => n > before);
        }, 'a block over the WSS subscription');
      } finally {
        unwatch();
        await (await client.transport.getRpcClient()).close();
      }
    });

    it('kubo-rpc-client over HTTPS: add, cat, pin ls', async () => {
      const ipfs = createKubo({ url: `${gw.ipfs}/api/v0`, headers: { authorization: basicAuth(key, secret) } });
      const { cid } = await ipfs.add('served over TLS');
      const chunks: Uint8Array[] = [];
      for await (const c of ipfs.cat(cid)) chunks.push(c);
      expect(Buffer.concat(chunks).toString()).toBe('served over TLS');
      const pins: string[] = [];
      for await (const p of ipfs.pin.ls({ paths: [cid] })) pins.push(p.cid.toString());
      expect(pins).toEqual([cid.toString()]);
    });
  });

  it('reload: new connections get the new certificate on every listener, an open WebSocket keeps working; a bad pair keeps the old', async () => {
    const open = await openWss(`${gw.networks['eth-devnet']!.ws}/ws/v3/${key}`);
    try {
      expect(open.served()).toBe('1001');
      expect(await servedSerial(gw.url)).toBe('1001');
      expect(await servedSerial(gw.metrics!.url)).toBe('1001');
      await copyFile(second.certFile, certFile);
      await copyFile(second.keyFile, keyFile);
      const reloaded = await gw.tls!.reload();
      expect(reloaded).toMatchObject({ ok: true, certificate: { serialNumber: '1002' } });
      expect(await servedSerial(gw.url)).toBe('1002');
      expect(await servedSerial(gw.metrics!.url)).toBe('1002');
      // the connection opened before the reload is still served, with its certificate
      expect(open.ws.readyState).toBe(WebSocket.OPEN);
      expect((await open.call('eth_chainId')).result).toBe('0x7a69');
      const fresh = await openWss(`${gw.networks['eth-devnet']!.ws}/ws/v3/${key}`);
      expect(fresh.served()).toBe('1002');
      fresh.ws.close();

      // a certificate whose key is not in the key file: refused, the previous one stays
      await copyFile(first.certFile, certFile);
      const refused = await gw.tls!.reload();
      if (refused.ok) throw new Error('a certificate without its key was loaded');
      expect(refused.error).toContain('tls.keyFile');
      expect(refused.certificate.serialNumber).toBe('1002');
      expect(gw.tls!.certificate().serialNumber).toBe('1002');
      expect(await servedSerial(gw.url)).toBe('1002');
      await writeFile(certFile, 'garbage');
      expect((await gw.tls!.reload()).ok).toBe(false);
      expect(await servedSerial(gw.url)).toBe('1002');
      expect((await trusted(`${gw.url}/health`)).status).toBe(200);
      expect((await open.call('eth_chainId')).result).toBe('0x7a69');
    } finally {
      open.ws.close();
    }
  });
});
