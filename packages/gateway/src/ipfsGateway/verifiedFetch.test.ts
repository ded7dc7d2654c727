import { randomBytes } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fallbackRouter } from '@helia/fallback-router';
import { withHTTP } from '@helia/http';
import { createVerifiedFetch, type VerifiedFetch } from '@helia/verified-fetch';
import { CarBlockIterator } from '@ipld/car';
import { createHeliaLight } from 'helia';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayTestbed, startGatewayTestbed } from './startGatewayTestbed.js';

// @helia/verified-fetch, the light client that trusts no gateway, reading through a dedicated
// gateway's trustless answers (raw blocks at <name>.ipfs.localhost/ipfs/<cid>?format=raw): files,
// directories and CARs added through /api/v0 with kubo-rpc-client come back verified. The client is
// HTTP only (no libp2p: nothing leaves this machine); *.localhost is resolved to 127.0.0.1 here as
// browsers do. A gateway that answered a wrong block would fail it: the last test proves that with
// a proxy that flips one byte.

let tb: GatewayTestbed;
let previous: Dispatcher;
const FILE = randomBytes(700_000); // three leaves and a root
let fileCid: string;
let dirCid: string;
let proxy: Server;
let proxied = 0;

/**
 * A verified fetch whose only source is `gatewayUrl` (a trustless gateway): Helia over HTTP with no
 * delegated routing, the gateway its one provider for every CID (a router of its own: Helia waits
 * for ever when only fallback routers are given).
 */
async function verifiedFetchVia(gatewayUrl: string): Promise<{ fetch: VerifiedFetch; stop(): Promise<void> }> {
  const light = withHTTP(createHeliaLight({}), {
    delegatedRouters: [],
    recursiveGateways: [],
    allowInsecure: true,
    allowLocal: true,
  });
  const provider = fallbackRouter({ gateways: [gatewayUrl] });
  const find = provider.findProviders?.bind(provider);
  if (find === undefined) throw new Error('the fallback router finds no providers');
  light.addRouter({ name: 'the dedicated gateway', findProviders: find });
  const helia = await light.start();
  const fetch = await createVerifiedFetch(helia);
  return {
    fetch,
    stop: async () => {
      await helia.stop();
    },
  };
}

beforeAll(async () => {
  // *.localhost is this machine (browsers resolve it so; Node's resolver does not)
  previous = getGlobalDispatcher();
  setGlobalDispatcher(
    new Agent({
      connect: {
        lookup: (host, options, cb) =>
          host.endsWith('.localhost') ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : dnsLookup(host, options, cb),
      },
    }),
  );
  tb = await startGatewayTestbed();
  fileCid = (await tb.kubo.add(FILE, { cidVersion: 1, rawLeaves: true })).cid.toString();
  for await (const r of tb.kubo.addAll(
    [
      { path: 'box/hello.txt', content: Buffer.from('hello from a directory\n') },
      { path: 'box/sub/deep.json', content: Buffer.from('{"deep":true}\n') },
    ],
    { cidVersion: 1, rawLeaves: true },
  )) {
    if (r.path === 'box') dirCid = r.cid.toString();
  }
  // a proxy in front of the gateway that flips one byte of every raw block it passes on
  proxy = createServer((req, res) => {
    proxied++;
    const up = request(
      {
        host: '127.0.0.1',
        port: tb.port,
        path: req.url,
        headers: { ...req.headers, host: `dev.ipfs.localhost:${tb.port}` },
      },
      (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          const body = Buffer.concat(chunks);
          if (r.statusCode === 200 && body.length > 0) body[0] = body[0]! ^ 0xff;
          res.writeHead(r.statusCode ?? 502, r.headers).end(body);
        });
      },
    );
    up.end();
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
}, 120_000);

afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await tb?.stop();
  setGlobalDispatcher(previous);
});

describe('@helia/verified-fetch through a dedicated gateway (trustless)', () => {
  it('fetches and verifies a file of several blocks, a directory path and a CAR', async () => {
    const vf = await verifiedFetchVia(`http://dev.ipfs.localhost:${tb.port}`);
    try {
      const file = await vf.fetch(`ipfs://${fileCid}`);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(FILE)).toBe(true);

      const hello = await vf.fetch(`ipfs://${dirCid}/hello.txt`);
      expect(hello.status).toBe(200);
      expect(await hello.text()).toBe('hello from a directory\n');
      const deep = await vf.fetch(`ipfs://${dirCid}/sub/deep.json`);
      expect(await deep.json()).toEqual({ deep: true });

      const car = await vf.fetch(`ipfs://${dirCid}`, { headers: { accept: 'application/vnd.ipld.car' } });
      expect(car.status).toBe(200);
      expect(car.headers.get('content-type')).toContain('application/vnd.ipld.car');
      const blocks: string[] = [];
      const it = await CarBlockIterator.fromBytes(new Uint8Array(await car.arrayBuffer()));
      for await (const b of it) blocks.push(b.cid.toString());
      const refs: string[] = [];
      for await (const r of tb.kubo.refs(dirCid, { recursive: true, unique: true })) refs.push(r.ref);
      expect(new Set(blocks)).toEqual(new Set([dirCid, ...refs]));
    } finally {
      await vf.stop();
    }
  });

  it('a gateway answering a wrong block fails it (the client verifies every block)', async () => {
    const port = (proxy.address() as AddressInfo).port;
    const vf = await verifiedFetchVia(`http://127.0.0.1:${port}`);
    try {
      const answer = await vf
        .fetch(`ipfs://${fileCid}`, { signal: AbortSignal.timeout(5_000) })
        .then(async (r) => ({ ok: r.ok, body: Buffer.from(await r.arrayBuffer()) }))
        .catch(() => undefined);
      expect(answer === undefined || !answer.ok || !answer.body.equals(FILE)).toBe(true);
      expect(answer?.body.equals(FILE)).not.toBe(true);
      // it did ask the corrupting gateway (a client that never asked would prove nothing)
      expect(proxied).toBeGreaterThan(0);
    } finally {
      await vf.stop();
    }
  });
});
