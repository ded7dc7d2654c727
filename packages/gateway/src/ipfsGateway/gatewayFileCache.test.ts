import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type IpfsNode, startIpfsNode } from '@nodegate/ipfs-node';
import type { KuboRPCClient } from 'kubo-rpc-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth } from '../ipfs/startIpfsTestGateway.js';
import { closeLoopbackServers, listenLoopback } from '../test-support/listenLoopback.js';
import type { GatewayView } from './admin/gatewaySchemas.js';
import { type GatewayTestbed, startGatewayTestbed } from './startGatewayTestbed.js';

// The dedicated gateways' cache of small whole files and their cold reads, on a real node behind a
// plain HTTP hop that counts what reaches the node (and can cut its answers): a warm read (GET,
// Range, HEAD) asks the node nothing; an answer the node cut, a part, or a file over the size bound
// keeps nothing; another account's restricted gateway still refuses a cached file without asking
// the node; cached bytes are still charged; a cold file costs the node one cat.

const MAX_FILE = 300_000;

let dir: string;
let node: IpfsNode;
let tb: GatewayTestbed;
let kubo: KuboRPCClient;
let kuboB: KuboRPCClient;
let gwA: GatewayView;
let gwB: GatewayView;
/** Requests that reached the node, by command (`cat`, `block/get`, …). */
const seen = new Map<string, number>();
const count = (command: string) => seen.get(command) ?? 0;
/** A CID whose `cat` the hop cuts after its first 100,000 bytes (the node failing mid-answer). */
let cutCatOf: string | undefined;
const total = () => [...seen.values()].reduce((a, b) => a + b, 0);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-filecache-'));
  node = await startIpfsNode({ repo: join(dir, 'repo'), port: 0 });
  const nodeUrl = new URL(node.apiUrl);
  const { url: hopUrl } = await listenLoopback((req, res) => {
    const command = (req.url ?? '').replace(/^\/api\/v0\//, '').split('?')[0]!;
    seen.set(command, count(command) + 1);
    const up = request(
      { hostname: nodeUrl.hostname, port: nodeUrl.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (command !== 'cat' || cutCatOf === undefined || !req.url!.includes(`arg=${cutCatOf}`)) {
          answer.pipe(res);
          return;
        }
        let sent = 0;
        answer.on('data', (chunk: Buffer) => {
          if (sent >= 100_000) return;
          res.write(chunk.subarray(0, 100_000 - sent));
          sent += chunk.byteLength;
          if (sent >= 100_000) {
            answer.destroy();
            res.destroy();
          }
        });
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  tb = await startGatewayTestbed({ upstreamUrl: hopUrl, gateways: { fileCacheMaxFileBytes: MAX_FILE } });
  kubo = tb.kubo;
  gwA = tb.dev;
  const b = await tb.admin.createAccount({ name: 'tenant b' });
  const keyB = await tb.admin.createKey({ accountId: b.id, name: 'b' });
  kuboB = tb.kuboOf(basicAuth(keyB.key, keyB.secret));
  gwB = await tb.admin.request<GatewayView>('POST', `/accounts/${b.id}/gateways`, { name: 'bee' });
}, 60_000);

afterAll(async () => {
  await tb?.stop();
  closeLoopbackServers();
  await node?.close();
  await rm(dir, { recursive: true, force: true });
});

afterEach(() => seen.clear());

/** A file of `size` random bytes, added (pinned) by `client`: a root and leaves, never one block. */
async function addFile(client: KuboRPCClient, size: number): Promise<{ cid: string; bytes: Buffer }> {
  const bytes = randomBytes(size);
  const { cid } = await client.add(bytes, { cidVersion: 1, rawLeaves: true, chunker: 'size-65536' });
  return { cid: cid.toString(), bytes };
}

/** A read through one of the dedicated gateways (path form), read whole. */
const get = (gateway: GatewayView, path: string, o: { method?: string; headers?: Record<string, string> } = {}) =>
  tb.get(`/ipfs-gateway/${gateway.name}${path}`, o);

/** A GET whose answer may be cut: the bytes that arrived, and whether it ended cleanly. */
function getMaybeCut(gateway: GatewayView, path: string): Promise<{ bytes: number; complete: boolean }> {
  return new Promise((resolve) => {
    let bytes = 0;
    const req = request(`${tb.url}/ipfs-gateway/${gateway.name}${path}`, (res) => {
      res.on('data', (c: Buffer) => {
        bytes += c.byteLength;
      });
      res.on('end', () => resolve({ bytes, complete: res.complete }));
      res.on('error', () => resolve({ bytes, complete: false }));
    });
    req.on('error', () => resolve({ bytes, complete: false }));
    req.end();
  });
}

describe('dedicated gateways: small files kept in memory', () => {
  it('answers a second read of a small file (GET, Range, HEAD) from memory: the node is asked once', async () => {
    const file = await addFile(kubo, 280_000);
    seen.clear();
    const first = await get(gwA, `/ipfs/${file.cid}`);
    expect(first.status).toBe(200);
    expect(first.body.equals(file.bytes)).toBe(true);
    expect(count('cat')).toBe(1);
    const before = total();
    const again = await get(gwA, `/ipfs/${file.cid}`);
    expect(again.status).toBe(200);
    expect(again.body.equals(file.bytes)).toBe(true);
    expect(again.headers['content-length']).toBe('280000');
    expect(again.headers.etag).toBe(`"${file.cid}"`);
    const part = await get(gwA, `/ipfs/${file.cid}`, { headers: { range: 'bytes=100000-100999' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100000-100999/280000');
    expect(part.body.equals(file.bytes.subarray(100_000, 101_000))).toBe(true);
    const head = await get(gwA, `/ipfs/${file.cid}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('280000');
    expect(head.body.length).toBe(0);
    // nothing of the three reached the node
    expect(total()).toBe(before);
  });

  it('keeps nothing of a read that was cut, of a part, or of a file over fileCacheMaxFileBytes', async () => {
    // the node's answer is cut mid-way: the client's answer stops short, nothing is kept
    const cut = await addFile(kubo, 280_000);
    cutCatOf = cut.cid;
    const stopped = await getMaybeCut(gwA, `/ipfs/${cut.cid}`);
    cutCatOf = undefined;
    expect(stopped.complete && stopped.bytes === 280_000).toBe(false);
    expect(count('cat')).toBe(1);
    expect((await get(gwA, `/ipfs/${cut.cid}`)).body.equals(cut.bytes)).toBe(true);
    expect(count('cat')).toBe(2);
    expect((await get(gwA, `/ipfs/${cut.cid}`)).body.equals(cut.bytes)).toBe(true);
    expect(count('cat')).toBe(2);

    const parted = await addFile(kubo, 280_000);
    const part = await get(gwA, `/ipfs/${parted.cid}`, { headers: { range: 'bytes=0-99999' } });
    expect(part.status).toBe(206);
    expect(part.body.equals(parted.bytes.subarray(0, 100_000))).toBe(true);
    expect((await get(gwA, `/ipfs/${parted.cid}`)).body.equals(parted.bytes)).toBe(true);
    expect(count('cat')).toBe(4);

    const large = await addFile(kubo, MAX_FILE + 1);
    for (let i = 0; i < 2; i++) expect((await get(gwA, `/ipfs/${large.cid}`)).body.equals(large.bytes)).toBe(true);
    expect(count('cat')).toBe(6);
  });

  it("another account's restricted gateway refuses a cached file (403) without asking the node; the owner's cached reads are still charged", async () => {
    const file = await addFile(kubo, 280_000);
    expect((await get(gwA, `/ipfs/${file.cid}`)).status).toBe(200);
    const mine = await addFile(kuboB, 1_000);
    const before = total();
    const refused = await get(gwB, `/ipfs/${file.cid}`);
    expect(refused.status).toBe(403);
    expect(refused.body.includes(file.bytes.subarray(0, 64))).toBe(false);
    expect(total()).toBe(before);
    // B's own content is served by B's gateway, A's gateway serves its own cached file
    expect((await get(gwB, `/ipfs/${mine.cid}`)).body.equals(mine.bytes)).toBe(true);
    const used = async () => (await tb.admin.request<GatewayView>('GET', `/gateways/${gwA.id}`)).bandwidthToday ?? 0;
    const served = await used();
    const cats = count('cat');
    expect((await get(gwA, `/ipfs/${file.cid}`)).body.equals(file.bytes)).toBe(true);
    expect(count('cat')).toBe(cats);
    expect((await used()) - served).toBeGreaterThanOrEqual(280_000);
  });
});

describe('dedicated gateways: a cold read of a root file', () => {
  it('costs the node one cat (no block/get of the root first); a directory root falls back to its node', async () => {
    const large = await addFile(kubo, MAX_FILE + 10_000);
    seen.clear();
    const read = await get(gwA, `/ipfs/${large.cid}`);
    expect(read.status).toBe(200);
    expect(read.headers['content-length']).toBe(String(MAX_FILE + 10_000));
    expect(read.headers['x-ipfs-roots']).toBe(large.cid);
    expect(read.body.equals(large.bytes)).toBe(true);
    expect([...seen]).toEqual([['cat', 1]]);

    let dir = '';
    for await (const r of kubo.addAll([{ path: 'site/a.txt', content: Buffer.from('a\n') }], { cidVersion: 1 })) {
      if (r.path === 'site') dir = r.cid.toString();
    }
    const bare = await get(gwA, `/ipfs/${dir}`);
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toMatch(new RegExp(`/ipfs/${dir}/$`));
    const listing = await get(gwA, `/ipfs/${dir}/`);
    expect(listing.status).toBe(200);
    expect(listing.body.toString()).toContain('a.txt');
  });

  it('answers If-None-Match, HEAD and a range of a cold root as a warm one would', async () => {
    const file = await addFile(kubo, MAX_FILE + 20_000);
    const tag = await get(gwA, `/ipfs/${file.cid}`, { headers: { 'if-none-match': `"${file.cid}"` } });
    expect(tag.status).toBe(304);
    expect(tag.body.length).toBe(0);
    const other = await addFile(kubo, MAX_FILE + 30_000);
    const head = await get(gwA, `/ipfs/${other.cid}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(MAX_FILE + 30_000));
    const third = await addFile(kubo, MAX_FILE + 40_000);
    const part = await get(gwA, `/ipfs/${third.cid}`, { headers: { range: 'bytes=-1000' } });
    expect(part.status).toBe(206);
    expect(part.body.equals(third.bytes.subarray(-1000))).toBe(true);
  });
});
