import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../admin/adminClient.js';
import { type IpfsTestGateway, startIpfsTestGateway } from '../ipfs/startIpfsTestGateway.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

// An IPFS upstream that has a file's root block but never answers for its leaf (a Kubo node
// looking for a block nobody provides): the gateway answers 504 when the root cannot be found in
// time, and cuts a CAR whose next block does not come, instead of holding the connection.

const TIMEOUT_MS = 600;
let upstream: Server;
let t: IpfsTestGateway;
let root: CID;
let missing: CID;
const hanging = new Set<import('node:http').ServerResponse>();

beforeAll(async () => {
  const leaf = new TextEncoder().encode('a leaf the node never finds');
  missing = CID.create(1, 0x55, await sha256.digest(leaf));
  // a UnixFS file node: Type=File (2), filesize, one blocksize, linking to the missing leaf
  const unixfs = Uint8Array.from([0x08, 0x02, 0x18, leaf.length, 0x20, leaf.length]);
  const block = dagPb.encode(dagPb.prepare({ Data: unixfs, Links: [{ Hash: missing, Tsize: leaf.length }] }));
  root = CID.create(1, dagPb.code, await sha256.digest(block));
  upstream = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/v0/version') return res.end(JSON.stringify({ Version: '0.0.0-fault' }));
    if (url.pathname === '/api/v0/block/get' && url.searchParams.get('arg') === root.toString()) {
      return res.end(Buffer.from(block));
    }
    // anything else: never answered (the socket is closed when the test ends)
    hanging.add(res);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const port = (upstream.address() as AddressInfo).port;
  t = await startIpfsTestGateway({
    upstreamUrl: `http://127.0.0.1:${port}`,
    ipfs: { gateways: { timeoutMs: TIMEOUT_MS } },
  });
  const admin = adminClient(t.gw.url, await readFile(join(t.dataDir, 'admin-token'), 'utf8'));
  const [account] = await admin.listAccounts();
  await admin.request('POST', `/accounts/${account!.id}/gateways`, { name: 'anything', mode: 'open' });
}, 60_000);

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await t?.stop();
  await new Promise((r) => upstream.close(r));
});

/** GET through the gateway: status, how long the answer took, and whether it ended cleanly. */
function get(path: string): Promise<{ status: number; ms: number; complete: boolean; body: Buffer }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const req = request(`${t.gw.url}${path}`, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          ms: Date.now() - started,
          complete: res.complete,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', () =>
        resolve({ status: res.statusCode!, ms: Date.now() - started, complete: false, body: Buffer.concat(chunks) }),
      );
    });
    req.end();
  });
}

describe('deadlines: a slow or missing block never holds a connection past them', () => {
  it('content the node cannot find within ipfs.gateways.timeoutMs: 504 with Retry-After, at the deadline', async () => {
    const a = await get(`/ipfs-gateway/anything/ipfs/${missing}`);
    expect(a.status).toBe(504);
    expect(a.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(a.ms).toBeLessThan(TIMEOUT_MS + 2_000);
    expect(a.body.toString()).toContain('not found within');
  });

  it('a CAR whose next block does not come is cut after the deadline (incomplete), not held open', async () => {
    const a = await get(`/ipfs-gateway/anything/ipfs/${root}?format=car`);
    expect(a.status).toBe(200);
    expect(a.complete).toBe(false);
    expect(a.ms).toBeLessThan(TIMEOUT_MS + 2_000);
  });

  it('a file whose bytes do not come is cut after the deadline too', async () => {
    const a = await get(`/ipfs-gateway/anything/ipfs/${root}`);
    // the root is there, its first bytes (sniffing) or its stream are not: 504 before the status, or a cut after it
    expect(a.status === 504 || !a.complete).toBe(true);
    expect(a.ms).toBeLessThan(2 * TIMEOUT_MS + 2_000);
  });
});
