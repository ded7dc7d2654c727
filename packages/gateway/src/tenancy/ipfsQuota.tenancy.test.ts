import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import type { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProcess } from '../embedded/startAnvil.js';
import { startIpfsNode } from '../embedded/startIpfsNode.js';
import { type IpfsTestGateway, startIpfsTestGateway } from '../ipfs/startIpfsTestGateway.js';
import { admin } from '../test-support/testKeys.js';
import { until } from '../test-support/until.js';

// Issue 20, item 8: the IPFS storage quota counts what a key really makes the node store, and a
// collection driven by the gateway's pin records removes what no key pins. A real gateway in
// front of a real node (started here, so the test can look at its repo and pins directly), two
// keys, kubo-rpc-client.

const QUOTA = 1_000_000;
let repo: string;
let node: EmbeddedProcess;
let t: IpfsTestGateway;
interface Key {
  key: string;
  authorization: string;
  client: KuboRPCClient;
}
let a: Key;
let b: Key;

/** Bytes of the node's block files. */
async function repoBytes(): Promise<number> {
  let total = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.data')) total += (await stat(path)).size;
    }
  };
  await walk(join(repo, 'blocks'));
  return total;
}

/** The node's own API, bypassing the gateway (what is really stored and pinned). */
async function onNode(command: string, query: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${node.http}/api/v0/${command}?${new URLSearchParams(query)}`, { method: 'POST' });
  return { status: res.status, text: await res.text() };
}

const storedBytes = async (key: string): Promise<number> =>
  (await admin(t.gw, 'GET', `/keys/${key}/storage`)).storedBytes as number;

async function newKey(): Promise<Key> {
  const k = await t.createKey();
  const client = create({ url: `${t.ipfsUrl}/api/v0`, headers: { authorization: k.authorization } });
  return { key: k.key, authorization: k.authorization, client };
}

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'nodegate-quota-repo-'));
  node = await startIpfsNode({ repo });
  t = await startIpfsTestGateway({
    upstreamUrl: node.http,
    // collections run when the test asks; the gateway's pin records decide what the node keeps
    ipfs: { maxStoredBytesPerKey: QUOTA, gc: { intervalMs: 0, unpinUnowned: true } },
  });
  [a, b] = [await newKey(), await newKey()];
});

afterAll(async () => {
  await t?.stop();
  await node?.stop();
  await rm(repo, { recursive: true, force: true });
});

describe('unpinned uploads count until the node collects them', () => {
  it('add?pin=false: 8 × 900 KB against a 1,000,000-byte quota stores one; the repo grows by less than the quota', async () => {
    await t.gw.collectIpfsGarbage!();
    const before = await repoBytes();
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) {
      outcomes.push(
        await a.client.add(randomBytes(900_000), { pin: false }).then(
          () => 'stored',
          (err: Error) => err.message,
        ),
      );
    }
    expect(outcomes[0]).toBe('stored');
    for (const refused of outcomes.slice(1)) expect(refused).toMatch(/^storage limit reached: this API key has stored/);
    const counted = await storedBytes(a.key);
    expect(counted).toBeGreaterThanOrEqual(900_000);
    expect(counted).toBeLessThanOrEqual(QUOTA);
    const grown = (await repoBytes()) - before;
    expect(grown).toBeGreaterThan(850_000);
    expect(grown).toBeLessThanOrEqual(counted);
    // the other key has its own budget
    await b.client.add(randomBytes(900_000), { pin: false });
    expect(await storedBytes(b.key)).toBeGreaterThanOrEqual(900_000);
    // the collection removes the unpinned blocks: the repo shrinks back and both keys count 0
    const report = await t.gw.collectIpfsGarbage!();
    expect(report.removedBlocks).toBeGreaterThan(0);
    expect(await repoBytes()).toBeLessThanOrEqual(before);
    expect(await storedBytes(a.key)).toBe(0);
    expect(await storedBytes(b.key)).toBe(0);
    await a.client.add(randomBytes(900_000), { pin: false });
    await t.gw.collectIpfsGarbage!();
  });

  it('add then pin/rm, over and over: the removed pins count until collected', async () => {
    const c = await newKey();
    const cids: CID[] = [];
    const refused = async () => {
      for (let i = 0; i < 6; i++) {
        const added = await c.client.add(randomBytes(400_000)).catch((err: Error) => err);
        if (added instanceof Error) return { after: i, message: added.message };
        cids.push(added.cid);
        await c.client.pin.rm(added.cid);
      }
      return undefined;
    };
    const first = await refused();
    expect(first?.after).toBe(2);
    expect(first?.message).toMatch(/^storage limit reached/);
    // every removed pin's blocks are still on the node: that is what is counted
    for (const cid of cids) expect((await onNode('block/stat', { arg: cid.toString() })).status).toBe(200);
    expect(await storedBytes(c.key)).toBeGreaterThanOrEqual(800_000);
    await t.gw.collectIpfsGarbage!();
    for (const cid of cids) expect((await onNode('block/stat', { arg: cid.toString() })).status).toBe(500);
    expect(await storedBytes(c.key)).toBe(0);
    await c.client.add(randomBytes(400_000));
  });

  it('concurrent uploads of one key cannot each pass the same quota check', async () => {
    const c = await newKey();
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        c.client.add(randomBytes(400_000), { pin: false }).then(
          () => 'stored',
          () => 'refused',
        ),
      ),
    );
    expect(results.filter((r) => r === 'stored').length).toBeLessThanOrEqual(2);
    expect(await storedBytes(c.key)).toBeLessThanOrEqual(QUOTA);
    await t.gw.collectIpfsGarbage!();
  });
});

describe('a pin counts the blocks the node stores for it, not what the client claims', () => {
  it('a root claiming Tsize 0 for a 300 KB leaf counts the leaf', async () => {
    const c = await newKey();
    const leaf = await c.client.block.put(randomBytes(300_000), { format: 'raw' });
    const root = dagPb.encode(dagPb.prepare({ Links: [{ Hash: leaf, Name: 'big', Tsize: 0 }] }));
    const rootCid = await c.client.block.put(root, { format: 'dag-pb', version: 0, pin: true });
    // the leaf was uploaded unpinned (counted as such until the collection), now the pin keeps it
    await t.gw.collectIpfsGarbage!();
    expect((await onNode('block/stat', { arg: leaf.toString() })).status).toBe(200);
    expect(await storedBytes(c.key)).toBe(root.byteLength + 300_000);
    // object/stat still reports the claimed cumulative size: that is not what is counted
    const stat = (await (
      await fetch(`${t.ipfsUrl}/api/v0/object/stat?arg=${rootCid}`, {
        method: 'POST',
        headers: { authorization: t.authorization },
      })
    ).json()) as { CumulativeSize: number };
    expect(stat.CumulativeSize).toBe(root.byteLength);
  });

  it('a "10 GB file" built from one repeated leaf counts the blocks stored once, and a large claimed DAG past the quota is refused', async () => {
    const c = await newKey();
    const leaf = await c.client.block.put(randomBytes(256 * 1024), { format: 'raw' });
    const mid = dagPb.encode(
      dagPb.prepare({ Links: Array.from({ length: 1000 }, (_, i) => ({ Hash: leaf, Name: `${i}`, Tsize: 0 })) }),
    );
    const midCid = await c.client.block.put(mid, { format: 'dag-pb', version: 0 });
    const root = dagPb.encode(
      dagPb.prepare({ Links: Array.from({ length: 40 }, (_, i) => ({ Hash: midCid, Name: `${i}`, Tsize: 0 })) }),
    );
    const rootCid = await c.client.block.put(root, { format: 'dag-pb', version: 0 });
    await c.client.pin.add(rootCid);
    await t.gw.collectIpfsGarbage!();
    expect(await storedBytes(c.key)).toBe(256 * 1024 + mid.byteLength + root.byteLength);
    // pinning something really larger than what is left is refused before the node pins it
    const other = await newKey();
    const big = await other.client.add(randomBytes(800_000));
    const full = await fetch(`${t.ipfsUrl}/api/v0/pin/add?arg=${big.cid}`, {
      method: 'POST',
      headers: { authorization: c.authorization },
    });
    expect(full.status).toBe(413);
    expect(((await full.json()) as { Message: string }).Message).toMatch(
      /^storage limit reached: this API key has stored \d+ of 1000000 bytes allowed; pinning this needs 800\d{3} more$/,
    );
    const pins = [];
    for await (const p of c.client.pin.ls({ type: 'recursive' })) pins.push(p.cid.toString());
    expect(pins).toEqual([rootCid.toString()]);
  });
});

describe('the collection keeps what any key pins, and only that', () => {
  it('a CID two keys pin survives one of them unpinning it', async () => {
    const c = await newKey();
    const d = await newKey();
    const { cid } = await c.client.add(randomBytes(50_000));
    await d.client.pin.add(cid);
    await c.client.pin.rm(cid);
    await t.gw.collectIpfsGarbage!();
    expect((await onNode('block/stat', { arg: cid.toString() })).status).toBe(200);
    expect(await storedBytes(d.key)).toBeGreaterThan(50_000);
    expect(await storedBytes(c.key)).toBe(0);
  });

  it('a pin the node lost is pinned again before collecting; a node pin no key owns goes after a grace run', async () => {
    const c = await newKey();
    const { cid: kept } = await c.client.add(randomBytes(60_000));
    expect((await onNode('pin/rm', { arg: kept.toString() })).status).toBe(200);
    const first = await t.gw.collectIpfsGarbage!();
    expect(first.repinned).toBe(1);
    expect((await onNode('block/stat', { arg: kept.toString() })).status).toBe(200);
    expect((await onNode('pin/ls', { arg: kept.toString(), type: 'recursive' })).status).toBe(200);

    // pinned on the node behind the gateway's back (or by an add whose record never landed)
    const form = new FormData();
    form.append('file', new Blob([randomBytes(40_000)]));
    const added = await fetch(`${node.http}/api/v0/add?pin=true`, { method: 'POST', body: form });
    const stray = ((await added.json()) as { Hash: string }).Hash;
    const grace = await t.gw.collectIpfsGarbage!();
    expect(grace.unpinned).toBe(0);
    expect((await onNode('block/stat', { arg: stray })).status).toBe(200);
    const second = await t.gw.collectIpfsGarbage!();
    expect(second.unpinned).toBe(1);
    expect((await onNode('block/stat', { arg: stray })).status).toBe(500);
    expect((await onNode('block/stat', { arg: kept.toString() })).status).toBe(200);
  });
});

describe('the scheduled collection', () => {
  let scheduled: IpfsTestGateway;
  beforeAll(async () => {
    // the default deployment: the embedded node, whose pins only the gateway makes
    scheduled = await startIpfsTestGateway({ ipfs: { maxStoredBytesPerKey: QUOTA, gc: { intervalMs: 1_500 } } });
  });
  afterAll(async () => {
    await scheduled?.stop();
  });

  it('runs every ipfs.gc.intervalMs, shows in /health, and gives the unpinned bytes back', async () => {
    const k = await scheduled.createKey();
    const client = create({ url: `${scheduled.ipfsUrl}/api/v0`, headers: { authorization: k.authorization } });
    const { cid } = await client.add(randomBytes(300_000), { pin: false });
    const counted = async () => (await admin(scheduled.gw, 'GET', `/keys/${k.key}/storage`)).storedBytes as number;
    expect(await counted()).toBeGreaterThanOrEqual(300_000);
    await until(async () => (await counted()) === 0, 'a scheduled collection', { tries: 100, everyMs: 100 });
    const health = (await (await fetch(`${scheduled.gw.url}/health`)).json()) as {
      networks: { ipfs: { gc: { intervalMs: number; lastRunAt: string; ok: boolean; removedBlocks: number } } };
    };
    expect(health.networks.ipfs.gc).toMatchObject({ intervalMs: 1_500, ok: true });
    expect(Date.parse(health.networks.ipfs.gc.lastRunAt)).toBeGreaterThan(Date.now() - 10_000);
    const stat = await fetch(`${scheduled.ipfsUrl}/api/v0/block/stat?arg=${cid}`, {
      method: 'POST',
      headers: { authorization: k.authorization },
    });
    expect(stat.status).toBe(500);
  });
});
