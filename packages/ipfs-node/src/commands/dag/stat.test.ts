import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IpfsNode, startIpfsNode } from '../../startIpfsNode.js';

let node: IpfsNode;
let repo: string;
let client: KuboRPCClient;

async function dagStat(query: string): Promise<{ status: number; lines: any[] }> {
  const res = await fetch(`${node.apiUrl}/api/v0/dag/stat?${query}`, { method: 'POST' });
  const text = await res.text();
  return {
    status: res.status,
    lines: text
      .trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l)),
  };
}

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'ipfs-node-dagstat-'));
  node = await startIpfsNode({ repo, host: '127.0.0.1', port: 0 });
  client = create({ url: `${node.apiUrl}/api/v0` });
});

afterAll(async () => {
  await node?.close();
  await rm(repo, { recursive: true, force: true });
});

describe('dag/stat', () => {
  it('sums the stored blocks of a file: root plus raw leaves, as block/stat sizes them', async () => {
    const { cid } = await client.add(randomBytes(600_000), { rawLeaves: true, chunker: 'size-262144', pin: false });
    const root = dagPb.decode(await client.block.get(cid));
    let expected = (await client.block.stat(cid)).size;
    for (const link of root.Links) expected += (await client.block.stat(link.Hash)).size;
    const { status, lines } = await dagStat(`arg=${cid}&progress=false`);
    expect(status).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0].TotalSize).toBe(expected);
    expect(lines[0].UniqueBlocks).toBe(1 + root.Links.length);
    expect(lines[0].DagStats).toEqual([{ Cid: { '/': cid.toString() }, Size: expected, NumBlocks: 4 }]);
  });

  it('never believes a link’s Tsize: a root that claims 0 for a large leaf counts the leaf’s real size', async () => {
    const leaf = await client.block.put(randomBytes(200_000), { format: 'raw' });
    const claims = dagPb.encode(dagPb.prepare({ Links: [{ Hash: leaf, Name: 'a', Tsize: 0 }] }));
    const root = await client.block.put(claims, { format: 'dag-pb', version: 0 });
    const { lines } = await dagStat(`arg=${root}&progress=false`);
    expect(lines[0].TotalSize).toBe(claims.byteLength + 200_000);
    // and a root that links the same leaf many times stores it once: counted once
    const many = dagPb.encode(
      dagPb.prepare({ Links: Array.from({ length: 50 }, (_, i) => ({ Hash: leaf, Name: `l${i}`, Tsize: 1 })) }),
    );
    const repeated = await client.block.put(many, { format: 'dag-pb', version: 0 });
    const again = await dagStat(`arg=${repeated}&progress=false`);
    expect(again.lines[0].TotalSize).toBe(many.byteLength + 200_000);
    expect(again.lines[0].UniqueBlocks).toBe(2);
  });

  it('several roots: TotalSize counts shared blocks once, SharedSize the rest; progress lines come first', async () => {
    const leaves = await Promise.all(
      Array.from({ length: 300 }, () => client.block.put(randomBytes(100), { format: 'raw' })),
    );
    const node1 = dagPb.encode(dagPb.prepare({ Links: leaves.map((l, i) => ({ Hash: l, Name: `f${i}` })) }));
    const a = await client.block.put(node1, { format: 'dag-pb', version: 0 });
    const node2 = dagPb.encode(dagPb.prepare({ Data: new Uint8Array([8, 1]), Links: [{ Hash: a, Name: 'sub' }] }));
    const b = await client.block.put(node2, { format: 'dag-pb', version: 0 });
    const { lines } = await dagStat(`arg=${a}&arg=${b}`);
    expect(lines.length).toBeGreaterThan(1);
    const last = lines.at(-1);
    const sizeA = node1.byteLength + 300 * 100;
    expect(last.TotalSize).toBe(sizeA + node2.byteLength);
    expect(last.SharedSize).toBe(sizeA);
    expect(last.DagStats.map((s: { Size: number }) => s.Size)).toEqual([sizeA, sizeA + node2.byteLength]);
    for (const line of lines.slice(0, -1)) expect(line.TotalSize).toBeLessThanOrEqual(last.TotalSize);
  });

  it('a missing block fails the walk; a path inside a block is refused', async () => {
    const absent = CID.createV1(0x55, (await client.block.put(randomBytes(10), { format: 'raw' })).multihash);
    for await (const removed of client.block.rm(absent)) expect(removed.error).toBeUndefined();
    const missing = await dagStat(`arg=${absent}&progress=false`);
    expect(missing.status).toBe(500);
    expect(missing.lines[0].Message).toMatch(/not found/);
    const cbor = await client.dag.put({ a: { b: 1 } });
    const inside = await dagStat(`arg=/ipfs/${cbor}/a&progress=false`);
    expect(inside.status).toBe(500);
    expect(inside.lines[0].Message).toBe('cannot return size for anything other than a DAG with a root CID');
  });
});
