import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import * as dagPb from '@ipld/dag-pb';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import type { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IpfsTestGateway, startIpfsTestGateway } from '../ipfs/startIpfsTestGateway.js';
import { admin } from '../test-support/testKeys.js';

// Issue 20, item 8 (served bytes): one 10-credit `cat` of a "10 GB" file built from one repeated
// leaf streamed 1.8 GB and slowed another key. Answers of content are now charged per MiB,
// bounded per request and per day by the key's plan, and paced per key. A real gateway with its
// embedded node, keys on plans of their own, kubo-rpc-client and raw HTTP.

const MiB = 1024 * 1024;
const LEAF = 256 * 1024;
const plan = (served: Record<string, number>, credits: { creditsPerSecond?: number; creditsPerDay?: number } = {}) => ({
  creditsPerSecond: credits.creditsPerSecond ?? 1_000_000,
  creditsPerDay: credits.creditsPerDay ?? 100_000_000,
  ipfsServedBytesPerRequest: 1024 * MiB,
  ipfsServedBytesPerDay: 1024 * MiB,
  ipfsServedBytesPerSecond: 1024 * MiB,
  ...served,
});

let t: IpfsTestGateway;
let huge: CID;
let hugeSize: number;
let fiveMiB: CID;
let leafBytes: Buffer;

/** A UnixFS `Data` message of a file node (Type File, filesize, blocksizes), protobuf by hand. */
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

interface Key {
  key: string;
  authorization: string;
  client: KuboRPCClient;
}

async function keyOn(planName: string): Promise<Key> {
  const k = await t.createKey({ plan: planName });
  const client = create({ url: `${t.ipfsUrl}/api/v0`, headers: { authorization: k.authorization } });
  return { key: k.key, authorization: k.authorization, client };
}

/** A raw POST that reads the whole answer; `error` is set when the connection was reset. */
function post(
  path: string,
  authorization: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer; error?: Error; ms: number }> {
  const url = new URL(`${t.ipfsUrl}/api/v0/${path}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: { authorization } }, (res) => {
      const chunks: Buffer[] = [];
      const done = (error?: Error) =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          ms: Date.now() - started,
          ...(error ? { error } : {}),
        });
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done());
      res.on('error', done);
      res.on('aborted', () => done(new Error('aborted')));
    });
    req.on('error', (error) => resolve({ status: 0, headers: {}, body: Buffer.alloc(0), error, ms: 0 }));
    req.end();
  });
}

async function requestsOf(key: string): Promise<Array<Record<string, any>>> {
  await t.gw.flushUsage();
  return admin(t.gw, 'GET', `/keys/${key}/requests?limit=100`);
}

beforeAll(async () => {
  t = await startIpfsTestGateway({
    extra: {
      plans: {
        'ipfs-bounded': plan({ ipfsServedBytesPerRequest: 3 * MiB, ipfsServedBytesPerDay: 12 * MiB }),
        'ipfs-credits': plan({}, { creditsPerDay: 100 }),
        'ipfs-paced': plan({ ipfsServedBytesPerSecond: MiB }),
      },
    },
  });
  const dev = create({ url: `${t.ipfsUrl}/api/v0`, headers: { authorization: t.authorization } });
  // "10 GB": 40 links to one node of 1000 links to one 256 KiB leaf (each claiming Tsize 0)
  leafBytes = randomBytes(LEAF);
  const leaf = await dev.block.put(leafBytes, { format: 'raw' });
  const mid = dagPb.encode(
    dagPb.prepare({
      Data: unixfsFile(1000 * LEAF, Array(1000).fill(LEAF)),
      Links: Array.from({ length: 1000 }, () => ({ Hash: leaf, Name: '', Tsize: 0 })),
    }),
  );
  const midCid = await dev.block.put(mid, { format: 'dag-pb', version: 0 });
  hugeSize = 40 * 1000 * LEAF;
  const root = dagPb.encode(
    dagPb.prepare({
      Data: unixfsFile(hugeSize, Array(40).fill(1000 * LEAF)),
      Links: Array.from({ length: 40 }, () => ({ Hash: midCid, Name: '', Tsize: 0 })),
    }),
  );
  huge = await dev.block.put(root, { format: 'dag-pb', version: 0, pin: true });
  fiveMiB = (await dev.add(randomBytes(5 * MiB), { rawLeaves: true })).cid;
});

afterAll(async () => {
  await t?.stop();
});

describe('one answer is bounded by the key’s plan', () => {
  it('cat of the "10 GB" file is refused before it streams; a part of it within the bound is served', async () => {
    const a = await keyOn('ipfs-bounded');
    const readAll = async () => {
      for await (const _ of a.client.cat(huge)) {
        // the refusal comes before any byte
      }
    };
    await expect(readAll()).rejects.toThrow(
      /^answer too large: this API key may be served 3145728 bytes per request; read it in parts/,
    );
    const refused = await post(`cat?arg=${huge}`, a.authorization);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ Code: 1, Type: 'error' });
    const part = await post(`cat?arg=${huge}&offset=${LEAF}&length=${2 * MiB}`, a.authorization);
    expect(part.status).toBe(200);
    expect(part.body.byteLength).toBe(2 * MiB);
    expect(part.body.subarray(0, LEAF)).toEqual(leafBytes);
    const usage = await requestsOf(a.key);
    expect(usage.find((r) => r.method === 'cat' && r.status === 400)).toMatchObject({
      errorCode: -400,
      refusal: 'served-request',
    });
  });

  it('an answer without a declared length (dag/export) is cut at the bound: the client sees a reset', async () => {
    const a = await keyOn('ipfs-bounded');
    const cut = await post(`dag/export?arg=${fiveMiB}`, a.authorization);
    expect(cut.status).toBe(200);
    expect(cut.error).toBeDefined();
    expect(cut.body.byteLength).toBeLessThanOrEqual(3 * MiB);
    expect(cut.body.byteLength).toBeGreaterThan(2 * MiB);
    // kubo-rpc-client notices it too (it never reads trailers)
    const read = async () => {
      for await (const _ of a.client.dag.export(fiveMiB)) {
        // drain
      }
    };
    await expect(read()).rejects.toThrow();
    const usage = await requestsOf(a.key);
    expect(usage.filter((r) => r.method === 'dag/export' && r.refusal === 'served-request')).toHaveLength(2);
    // another key on a larger plan reads all of it
    const b = await keyOn('ipfs-paced');
    const whole = await post(`dag/export?arg=${fiveMiB}`, t.authorization);
    expect(whole.error).toBeUndefined();
    expect(whole.body.byteLength).toBeGreaterThan(5 * MiB);
    expect(b.key).not.toBe(a.key);
  });

  it('the day’s served bytes are bounded: past them 429 with Retry-After, another key unaffected', async () => {
    const a = await keyOn('ipfs-bounded');
    for (let i = 0; i < 4; i++) {
      const part = await post(`cat?arg=${huge}&offset=0&length=${3 * MiB}`, a.authorization);
      expect(part.status).toBe(200);
      expect(part.body.byteLength).toBe(3 * MiB);
    }
    const over = await post(`cat?arg=${huge}&offset=0&length=${MiB}`, a.authorization);
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(over.body.toString()).Message).toMatch(
      /^daily IPFS bytes-served limit reached: this API key was served 12582912 of 12582912 bytes today; it resets at \d{4}-/,
    );
    const other = await keyOn('ipfs-bounded');
    const fine = await post(`cat?arg=${huge}&offset=0&length=${MiB}`, other.authorization);
    expect(fine.status).toBe(200);
    expect((await requestsOf(a.key)).find((r) => r.status === 429)).toMatchObject({
      errorCode: -429,
      refusal: 'served-daily',
    });
  });
});

describe('served MiB cost credits', () => {
  it('each whole MiB costs ipfs.creditsPerServedMiB (10) beside the command’s 10; out of credits, the answer stops', async () => {
    const a = await keyOn('ipfs-credits');
    const small = await post(`cat?arg=${huge}&offset=0&length=${1000}`, a.authorization);
    expect(small.body.byteLength).toBe(1000);
    const two = await post(`cat?arg=${huge}&offset=0&length=${2 * MiB}`, a.authorization);
    expect(two.body.byteLength).toBe(2 * MiB);
    const usage = await requestsOf(a.key);
    expect(usage.filter((r) => r.method === 'cat').map((r) => r.credits)).toEqual([30, 10]);
    // 60 of 100 credits left: the command's 10, then 5 MiB, and the 6th MiB finds none
    const long = await post(`cat?arg=${huge}&offset=0&length=${8 * MiB}`, a.authorization);
    expect(long.status).toBe(200);
    expect(long.error).toBeDefined();
    expect(long.body.byteLength).toBeLessThan(6 * MiB);
    expect(long.body.byteLength).toBeGreaterThanOrEqual(5 * MiB);
    const after = await requestsOf(a.key);
    expect(after[0]).toMatchObject({ method: 'cat', credits: 60, errorCode: -429, refusal: 'daily' });
    // the key is out of credits: the next call is refused at admission
    expect((await post(`cat?arg=${huge}&offset=0&length=10`, a.authorization)).status).toBe(429);
  });
});

describe('answers are paced per key', () => {
  it('a key paced to 1 MiB/s takes at least ~2 s for 3 MiB; another key is not held back by it', async () => {
    const paced = await keyOn('ipfs-paced');
    const other = await keyOn('ipfs-bounded');
    const slow = post(`cat?arg=${huge}&offset=0&length=${3 * MiB}`, paced.authorization);
    await new Promise((r) => setTimeout(r, 200));
    const fast = await post(`cat?arg=${huge}&offset=${LEAF}&length=${2 * MiB}`, other.authorization);
    const done = await slow;
    expect(done.body.byteLength).toBe(3 * MiB);
    expect(done.error).toBeUndefined();
    expect(done.ms).toBeGreaterThanOrEqual(1_500);
    expect(fast.body.byteLength).toBe(2 * MiB);
    expect(fast.ms).toBeLessThan(done.ms);
  });
});
