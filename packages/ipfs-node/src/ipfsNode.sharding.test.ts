import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IpfsNode, startIpfsNode } from './startIpfsNode.js';

// Kubo's sharding vectors (test/sharness/t0260-sharding.sh): testdata/file1..file2000, each "<i>\n".
const UNSHARDED = 'QmavrTrQG4VhoJmantURAYuw3bowq3E2WcvP36NRQDAC1N';
const SHARDED = 'QmSCJD1KYLhVVHqBK3YyXuoEqHt7vggyJhzoFYbT8v1XYL'; // threshold 1 B: always a HAMT
const SHARDED_V1 = 'bafybeibiemewfzzdyhq2l74wrd6qj2oz42usjlktgnlqv4yfawgouaqn4u';
const FILE100 = 'QmZ3RfWk1u5LEGYLHA633B5TNJy3Du27K6Fny9wcxpowGS';

function testdata() {
  const te = new TextEncoder();
  return Array.from({ length: 2000 }, (_, i) => ({ path: `testdata/file${i + 1}`, content: te.encode(`${i + 1}\n`) }));
}

async function addDir(client: KuboRPCClient, options: Record<string, unknown> = {}): Promise<string> {
  let root = '';
  for await (const entry of client.addAll(testdata(), options)) root = entry.cid.toString();
  return root;
}

describe('directory sharding (HAMT) with Kubo vectors', () => {
  let plain: IpfsNode;
  let sharding: IpfsNode;
  let plainClient: KuboRPCClient;
  let shardingClient: KuboRPCClient;
  const dirs: string[] = [];

  beforeAll(async () => {
    dirs.push(
      await mkdtemp(join(tmpdir(), 'ipfs-node-unsharded-')),
      await mkdtemp(join(tmpdir(), 'ipfs-node-sharded-')),
    );
    plain = await startIpfsNode({ repo: dirs[0]! });
    sharding = await startIpfsNode({ repo: dirs[1]!, shardingThresholdBytes: 1 });
    plainClient = create({ url: `${plain.apiUrl}/api/v0` });
    shardingClient = create({ url: `${sharding.apiUrl}/api/v0` });
  });

  afterAll(async () => {
    await plain?.close();
    await sharding?.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('2000 files under the default threshold: a plain directory', { timeout: 60_000 }, async () => {
    expect(await addDir(plainClient)).toBe(UNSHARDED);
  });

  it('with a 1-byte threshold: the HAMT Kubo builds, readable by path', { timeout: 60_000 }, async () => {
    expect(await addDir(shardingClient)).toBe(SHARDED);
    expect(await shardingClient.dag.resolve(`/ipfs/${SHARDED}/file100`)).toMatchObject({ remainderPath: '' });
    expect((await shardingClient.dag.resolve(`/ipfs/${SHARDED}/file100`)).cid.toString()).toBe(FILE100);
    const chunks: Uint8Array[] = [];
    for await (const c of shardingClient.cat(`/ipfs/${SHARDED}/file100`)) chunks.push(c);
    expect(Buffer.concat(chunks).toString()).toBe('100\n');
  });

  it('ls of the sharded and the plain directory list the same entries', { timeout: 60_000 }, async () => {
    const list = async (client: KuboRPCClient, cid: string) => {
      const out: string[] = [];
      for await (const l of client.ls(cid)) out.push(`${l.name} ${l.cid} ${l.size} ${l.type}`);
      return out.sort();
    };
    const sharded = await list(shardingClient, SHARDED);
    expect(sharded).toHaveLength(2000);
    expect(sharded).toEqual(await list(plainClient, UNSHARDED));
  });

  it('CIDv1 with raw leaves', { timeout: 60_000 }, async () => {
    expect(await addDir(shardingClient, { cidVersion: 1 })).toBe(SHARDED_V1);
  });
});
