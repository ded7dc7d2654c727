import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { type IpfsNode, startIpfsNode } from '@nodegate/ipfs-node';
import { CID } from 'multiformats/cid';
import { sha256, sha512 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpfsUpstream } from '../../ipfs/IpfsUpstream.js';
import { createBlockCache } from './createBlockCache.js';
import { fetchBlock } from './fetchBlock.js';

const RAW = 0x55;
const cidOf = async (bytes: Uint8Array, code = RAW) => CID.createV1(code, await sha256.digest(bytes));
const block = (n: number, fill: number) => new Uint8Array(n).fill(fill);

describe('createBlockCache', () => {
  it('keeps a block whose bytes match its sha2-256 CID, under any CID of the same multihash', async () => {
    const cache = createBlockCache({ maxBytes: 1024, maxBlockBytes: 512 });
    const bytes = block(100, 1);
    const cid = await cidOf(bytes);
    expect(cache.get(cid)).toBeUndefined();
    cache.set(cid, bytes);
    expect(cache.get(cid)).toBe(bytes);
    // the same multihash under another codec (a CIDv1 dag-pb) names the same bytes
    expect(cache.get(CID.createV1(dagPb.code, cid.multihash))).toBe(bytes);
    expect(cache.bytes).toBe(100);
  });

  it('keeps nothing that does not match its CID, is too large, or is not sha2-256', async () => {
    const cache = createBlockCache({ maxBytes: 1024, maxBlockBytes: 512 });
    const bytes = block(100, 2);
    cache.set(await cidOf(block(100, 3)), bytes); // another block's CID
    const big = block(600, 4);
    cache.set(await cidOf(big), big);
    const other = block(50, 5);
    cache.set(CID.createV1(RAW, await sha512.digest(other)), other);
    expect(cache.bytes).toBe(0);
    expect(cache.get(await cidOf(block(100, 3)))).toBeUndefined();
  });

  it('stays within maxBytes, the least recently read first out', async () => {
    const cache = createBlockCache({ maxBytes: 300, maxBlockBytes: 300 });
    const blocks = [block(100, 10), block(100, 11), block(100, 12), block(100, 13)];
    const cids = await Promise.all(blocks.map((b) => cidOf(b)));
    for (let i = 0; i < 3; i++) cache.set(cids[i]!, blocks[i]!);
    cache.get(cids[0]!); // read: the second is now the least recent
    cache.set(cids[3]!, blocks[3]!);
    expect(cache.bytes).toBe(300);
    expect(cache.get(cids[1]!)).toBeUndefined();
    for (const i of [0, 2, 3]) expect(cache.get(cids[i]!)).toBe(blocks[i]);
  });
});

describe('fetchBlock with a block cache, against the IPFS node', () => {
  let dir: string;
  let node: IpfsNode;
  let hop: Server;
  let hopUrl: string;
  const agent = new Agent({ keepAlive: true });
  /** block/get calls that reached the node through the counting hop. */
  let blockGets = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nodegate-blockcache-'));
    node = await startIpfsNode({ repo: join(dir, 'repo'), port: 0 });
    const nodeUrl = new URL(node.apiUrl);
    // a plain HTTP hop in front of the real node that counts the block reads it passes on
    hop = createServer((req, res) => {
      if (req.url?.startsWith('/api/v0/block/get')) blockGets += 1;
      const up = request(
        { hostname: nodeUrl.hostname, port: nodeUrl.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(up);
    });
    hop.listen(0, '127.0.0.1');
    await once(hop, 'listening');
    hopUrl = `http://127.0.0.1:${(hop.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    agent.destroy();
    hop?.closeAllConnections();
    hop?.close();
    await node?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function put(bytes: Uint8Array): Promise<CID> {
    const form = new FormData();
    form.append('file', new Blob([bytes]));
    const res = await fetch(`${node.apiUrl}/api/v0/block/put?cid-codec=raw`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    return CID.parse(((await res.json()) as { Key: string }).Key);
  }

  it('asks the node once for a small block read twice, and every time for a large one', async () => {
    const upstream: IpfsUpstream = {
      url: new URL(hopUrl),
      agent,
      headers: {},
      idleTimeoutMs: 10_000,
      blocks: createBlockCache({ maxBytes: 1 << 20, maxBlockBytes: 64 * 1024 }),
    };
    const small = block(2_000, 21);
    const large = block(100 * 1024, 22);
    const [smallCid, largeCid] = [await put(small), await put(large)];
    const signal = AbortSignal.timeout(10_000);
    blockGets = 0;
    expect(Buffer.from(await fetchBlock(upstream, smallCid, signal)).equals(small)).toBe(true);
    expect(Buffer.from(await fetchBlock(upstream, smallCid, signal)).equals(small)).toBe(true);
    expect(blockGets).toBe(1);
    expect(Buffer.from(await fetchBlock(upstream, largeCid, signal)).equals(large)).toBe(true);
    expect(Buffer.from(await fetchBlock(upstream, largeCid, signal)).equals(large)).toBe(true);
    expect(blockGets).toBe(3);
    // without a cache every read reaches the node
    const bare: IpfsUpstream = { url: new URL(hopUrl), agent, headers: {}, idleTimeoutMs: 10_000 };
    await fetchBlock(bare, smallCid, signal);
    expect(blockGets).toBe(4);
  });
});
