import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'kubo-rpc-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIpfsNode } from './startIpfsNode.js';
import { pseudoRandomChunks } from './testing/testData.js';

async function sha256Of(source: AsyncIterable<Uint8Array>): Promise<string> {
  const h = createHash('sha256');
  for await (const c of source) h.update(c);
  return h.digest('hex');
}

function sha256OfChunks(chunks: Iterable<Uint8Array>): string {
  const h = createHash('sha256');
  for (const c of chunks) h.update(c);
  return h.digest('hex');
}

/** Sends the start of a multipart add, then drops the connection half-way through the file. */
function interruptedAdd(api: string, sendBytes: number): Promise<void> {
  return new Promise((resolve) => {
    const boundary = 'interrupted-boundary';
    const req = request(`${api}/api/v0/add`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const chunks = pseudoRandomChunks(sendBytes, 'interrupted');
    const pump = () => {
      for (let next = chunks.next(); !next.done; next = chunks.next()) {
        if (!req.write(next.value)) {
          req.once('drain', pump);
          return;
        }
      }
      // give the node time to import what it received, then cut the connection mid-file
      setTimeout(() => req.destroy(), 300);
    };
    pump();
  });
}

describe('repo durability', () => {
  let repo: string;

  beforeAll(async () => {
    repo = await mkdtemp(join(tmpdir(), 'ipfs-node-durable-'));
  });

  afterAll(async () => {
    await rm(repo, { recursive: true, force: true });
  });

  it('data and pins survive a restart; gc keeps pinned data', async () => {
    const size = 5 * 1024 * 1024 + 123;
    const expected = sha256OfChunks(pseudoRandomChunks(size, 'durable'));
    let node = await startIpfsNode({ repo });
    let client = create({ url: `${node.apiUrl}/api/v0` });
    const { cid } = await client.add(pseudoRandomChunks(size, 'durable'));
    const loose = await client.add(new TextEncoder().encode('not pinned'), { pin: false });
    await node.close();

    node = await startIpfsNode({ repo });
    client = create({ url: `${node.apiUrl}/api/v0` });
    const pins = [];
    for await (const p of client.pin.ls({ paths: [cid] })) pins.push(p);
    expect(pins.map((p) => p.type)).toEqual(['recursive']);
    expect(await sha256Of(client.cat(cid))).toBe(expected);
    const removed = [];
    for await (const r of client.repo.gc()) removed.push(r.cid?.multihash.bytes.toString());
    expect(removed).toContain(loose.cid.multihash.bytes.toString());
    await node.close();

    node = await startIpfsNode({ repo });
    client = create({ url: `${node.apiUrl}/api/v0` });
    expect(await sha256Of(client.cat(cid))).toBe(expected);
    await node.close();
  });

  it('repo/gc removes temporary files left by a write a crash interrupted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ipfs-node-stale-tmp-'));
    const node = await startIpfsNode({ repo: dir });
    try {
      const client = create({ url: `${node.apiUrl}/api/v0` });
      await client.add(new TextEncoder().encode('kept'));
      const shard = join(dir, 'blocks', 'XY');
      await mkdir(shard, { recursive: true });
      const stale = join(shard, '.CIQSTALEBLOCK.data.tmp');
      await writeFile(stale, 'half a block');
      for await (const _ of client.repo.gc()) {
        // drain
      }
      await expect(stat(stale)).rejects.toThrow();
    } finally {
      await node.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a second node cannot open a repo in use', async () => {
    const node = await startIpfsNode({ repo });
    await expect(startIpfsNode({ repo })).rejects.toThrow(/locked by process/);
    await node.close();
  });

  it('repo/gc waits for an add in progress and keeps its blocks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ipfs-node-gc-during-add-'));
    const node = await startIpfsNode({ repo: dir });
    const client = create({ url: `${node.apiUrl}/api/v0` });
    try {
      const size = 12 * 1024 * 1024;
      const chunks = [...pseudoRandomChunks(size, 'gc-during-add')];
      const boundary = 'gc-during-add';
      let release: () => void = () => undefined;
      let started: () => void = () => undefined;
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      const added = new Promise<string>((resolve, reject) => {
        // progress lines show the add is running (and holds its side of the GC lock)
        const req = request(
          `${node.apiUrl}/api/v0/add?progress=true`,
          { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => {
              text += c.toString();
              started();
            });
            res.on('end', () => {
              const last = JSON.parse(text.trim().split('\n').at(-1)!) as { Hash: string };
              resolve(last.Hash);
            });
          },
        );
        req.on('error', reject);
        req.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        );
        for (const c of chunks.slice(0, 6)) req.write(c);
        release = () => {
          for (const c of chunks.slice(6)) req.write(c);
          req.end(`\r\n--${boundary}--\r\n`);
        };
      });
      await running;
      let gcDone = false;
      const gc = (async () => {
        const removed = [];
        for await (const r of client.repo.gc()) removed.push(r);
        gcDone = true;
        return removed;
      })();
      await new Promise((r) => setTimeout(r, 300));
      expect(gcDone).toBe(false);
      release();
      const cid = await added;
      expect(await gc).toEqual([]);
      expect(await sha256Of(client.cat(cid))).toBe(sha256OfChunks(chunks));
    } finally {
      await node.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an interrupted add leaves no pin and a consistent repo', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ipfs-node-interrupted-'));
    const node = await startIpfsNode({ repo: dir });
    const client = create({ url: `${node.apiUrl}/api/v0` });
    try {
      await interruptedAdd(node.apiUrl, 8 * 1024 * 1024);
      // the node is still serving and nothing got pinned
      const pins = [];
      for await (const p of client.pin.ls()) pins.push(p);
      expect(pins).toEqual([]);
      // the partial blocks are unpinned: gc may remove them, and a full add still works
      for await (const _ of client.repo.gc()) {
        // drain
      }
      const size = 8 * 1024 * 1024;
      const { cid } = await client.add(pseudoRandomChunks(size, 'interrupted'));
      expect(await sha256Of(client.cat(cid))).toBe(sha256OfChunks(pseudoRandomChunks(size, 'interrupted')));
    } finally {
      await node.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
