import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import * as dagPb from '@ipld/dag-pb';
import { create } from 'kubo-rpc-client';
import type { CID } from 'multiformats/cid';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type IpfsTestGateway, startIpfsTestGateway } from '../ipfs/startIpfsTestGateway.js';

// Issue 20, item 8: "one cat of that file streamed 1.8 GB and slowed another key". A key streaming
// a huge answer is paced to its plan's bytes per second, so another key's small reads keep their
// latency. Timing-sensitive: run alone (serial).

const MiB = 1024 * 1024;
const LEAF = 256 * 1024;
const PACE = 8 * MiB;

let t: IpfsTestGateway;
let huge: CID;

/** UnixFS `Data` of a file node, protobuf by hand (Type File, filesize, blocksizes). */
function unixfsFile(filesize: number, blocksizes: number[]): Uint8Array {
  const out: number[] = [0x08, 2];
  const varint = (n: number) => {
    let v = n;
    while (v >= 0x80) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
  };
  out.push(0x18);
  varint(filesize);
  for (const b of blocksizes) {
    out.push(0x20);
    varint(b);
  }
  return Uint8Array.from(out);
}

async function timedCat(authorization: string, offset: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${t.ipfsUrl}/api/v0/cat?arg=${huge}&offset=${offset}&length=${64 * 1024}`, {
    method: 'POST',
    headers: { authorization },
  });
  expect((await res.arrayBuffer()).byteLength).toBe(64 * 1024);
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

beforeAll(async () => {
  t = await startIpfsTestGateway({
    extra: {
      plans: {
        heavy: {
          creditsPerSecond: 1_000_000,
          creditsPerDay: 100_000_000,
          ipfsServedBytesPerRequest: 20 * 1024 * MiB,
          ipfsServedBytesPerDay: 20 * 1024 * MiB,
          ipfsServedBytesPerSecond: PACE,
        },
      },
    },
  });
  const dev = create({ url: `${t.ipfsUrl}/api/v0`, headers: { authorization: t.authorization } });
  const leaf = await dev.block.put(randomBytes(LEAF), { format: 'raw' });
  const mid = dagPb.encode(
    dagPb.prepare({
      Data: unixfsFile(1000 * LEAF, Array(1000).fill(LEAF)),
      Links: Array.from({ length: 1000 }, () => ({ Hash: leaf, Name: '', Tsize: 0 })),
    }),
  );
  const midCid = await dev.block.put(mid, { format: 'dag-pb', version: 0 });
  const root = dagPb.encode(
    dagPb.prepare({
      Data: unixfsFile(40 * 1000 * LEAF, Array(40).fill(1000 * LEAF)),
      Links: Array.from({ length: 40 }, () => ({ Hash: midCid, Name: '', Tsize: 0 })),
    }),
  );
  huge = await dev.block.put(root, { format: 'dag-pb', version: 0, pin: true });
});

afterAll(async () => {
  await t?.stop();
});

it('a key streaming the "10 GB" file is paced to its plan; another key’s small reads keep their latency', {
  timeout: 120_000,
}, async () => {
  const heavy = await t.createKey({ plan: 'heavy' });
  const light = await t.createKey({ plan: 'heavy' });
  // warm up, then the other key's latency alone
  for (let i = 0; i < 5; i++) await timedCat(light.authorization, i * LEAF);
  const alone: number[] = [];
  for (let i = 0; i < 30; i++) alone.push(await timedCat(light.authorization, i * LEAF));

  // the heavy key streams the whole file (10 GB) in the background
  let received = 0;
  const started = performance.now();
  const stream = request(
    new URL(`${t.ipfsUrl}/api/v0/cat?arg=${huge}`),
    { method: 'POST', headers: { authorization: heavy.authorization } },
    (res) => {
      expect(res.statusCode).toBe(200);
      res.on('data', (c: Buffer) => {
        received += c.byteLength;
      });
      res.on('error', () => undefined);
    },
  );
  stream.on('error', () => undefined);
  stream.end();
  await new Promise((r) => setTimeout(r, 500));
  const during: number[] = [];
  for (let i = 0; i < 30; i++) during.push(await timedCat(light.authorization, i * LEAF));
  const elapsed = (performance.now() - started) / 1000;
  stream.destroy();

  // paced: at most its bytes per second reached the client (the limiter's one-second sliding
  // window lets a second's worth through at once at the start)
  expect(received).toBeLessThanOrEqual(PACE * (elapsed + 1.5));
  expect(received).toBeGreaterThan(PACE * 0.3);
  // and the other key’s median latency stays within a small factor of what it was alone
  expect(median(during)).toBeLessThanOrEqual(Math.max(3 * median(alone), median(alone) + 25));
});
