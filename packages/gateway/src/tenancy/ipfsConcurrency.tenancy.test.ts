import { randomBytes } from 'node:crypto';
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import * as dagPb from '@ipld/dag-pb';
import type { KuboRPCClient } from 'kubo-rpc-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayView } from '../ipfsGateway/admin/gatewaySchemas.js';
import { type GatewayTestbed, startGatewayTestbed } from '../ipfsGateway/startGatewayTestbed.js';
import { basicAuth } from '../ipfs/startIpfsTestGateway.js';
import { varint } from '../ipfsGateway/serve/carFraming.js';

// One key's (or one account's) streams hold at most its own slots: on the IPFS API per key (the
// same cap as its JSON-RPC calls, limits.maxConcurrentPerKey) and on the dedicated gateways per
// account (ipfs.gateways.maxConcurrentPerAccount). Here both caps are 2 with nobody allowed to
// wait: a third concurrent answer of the same key or account is a 429, another key's or account's
// is served meanwhile, and a slot is given back when its client goes away.

const LEAF = 256 * 1024;
let tb: GatewayTestbed;
let keyB: { key: string; authorization: string; client: KuboRPCClient };
let gwB: GatewayView;
/** A "1 GiB" file of one repeated leaf, pinned by the development key: an answer that lasts. */
let endless: string;
let smallA: string;
let smallB: string;

beforeAll(async () => {
  tb = await startGatewayTestbed({
    extra: { limits: { maxConcurrentPerKey: 2, maxQueuedPerKey: 0 } },
    gateways: { maxConcurrentPerAccount: 2, maxQueuedPerAccount: 0 },
  });
  const leaf = await tb.kubo.block.put(randomBytes(LEAF), { format: 'raw' });
  const data = Uint8Array.from([
    0x08,
    0x02,
    0x18,
    ...varint(4096 * LEAF),
    ...Array(4096)
      .fill([0x20, ...varint(LEAF)])
      .flat(),
  ]);
  const root = dagPb.encode(
    dagPb.prepare({ Data: data, Links: Array.from({ length: 4096 }, () => ({ Hash: leaf, Tsize: LEAF })) }),
  );
  endless = (await tb.kubo.block.put(root, { format: 'dag-pb', version: 1, pin: true })).toString();
  smallA = (await tb.kubo.add(`A ${randomBytes(8).toString('hex')}`, { cidVersion: 1 })).cid.toString();
  const b = await tb.admin.createAccount({ name: 'tenant b' });
  const created = await tb.admin.createKey({ accountId: b.id, name: 'b' });
  const authorization = basicAuth(created.key, created.secret);
  keyB = { key: created.key, authorization, client: tb.kuboOf(authorization) };
  smallB = (await keyB.client.add(`B ${randomBytes(8).toString('hex')}`, { cidVersion: 1 })).cid.toString();
  gwB = await tb.admin.request<GatewayView>('POST', `/accounts/${b.id}/gateways`, { name: 'bee' });
}, 60_000);

afterAll(async () => {
  await tb?.stop();
});

/** Opens an answer and stops reading it once its head came: it holds its slot until `close`. */
function hold(
  url: string,
  init: { method: string; authorization?: string },
): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = request(
      url,
      { method: init.method, headers: init.authorization ? { authorization: init.authorization } : {} },
      (res: IncomingMessage) => {
        res.pause();
        resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
      },
    );
    req.on('error', () => undefined);
    req.once('error', reject);
    req.end();
  });
}

/** A whole answer. */
function fetchAll(url: string, init: { method: string; authorization?: string }) {
  return new Promise<{ status: number; body: string; retryAfter: string | undefined }>((resolve, reject) => {
    const req = request(
      url,
      { method: init.method, headers: init.authorization ? { authorization: init.authorization } : {} },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers['retry-after'] as string | undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Retries `read` until it is no 429 (a slot given back on a close arrives a moment later), at most 3 s. */
async function untilServed<T extends { status: number }>(read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const r = await read();
    if (r.status !== 429 || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('concurrency slots: one key, one account, never the others', () => {
  it("IPFS API: a key's third concurrent answer is 429 while another key is served; a closed answer gives its slot back", async () => {
    const api = (command: string) => `${tb.t.ipfsUrl}/api/v0/${command}`;
    const a = { method: 'POST', authorization: tb.t.authorization };
    const held = [await hold(api(`cat?arg=${endless}`), a), await hold(api(`cat?arg=${endless}`), a)];
    expect(held.map((h) => h.status)).toEqual([200, 200]);
    const third = await fetchAll(api(`cat?arg=${smallA}`), a);
    expect(third.status).toBe(429);
    expect(third.retryAfter).toBe('1');
    expect(JSON.parse(third.body).Message).toMatch(
      /too many concurrent requests for this API key: at most 2 in flight/,
    );
    // the other key is not held by the first one's slots
    const other = await fetchAll(api(`cat?arg=${smallB}`), { method: 'POST', authorization: keyB.authorization });
    expect(other.status).toBe(200);
    expect(other.body).toMatch(/^B /);
    for (const h of held) h.close();
    const after = await untilServed(() => fetchAll(api(`cat?arg=${smallA}`), a));
    expect(after.status).toBe(200);
    expect(after.body).toMatch(/^A /);
  });

  it("dedicated gateways: an account's third concurrent read is 429 while another account's gateway serves; a closed read gives its slot back", async () => {
    const onA = (cid: string) => `${tb.url}/ipfs-gateway/${tb.dev.name}/ipfs/${cid}`;
    const held = [await hold(onA(endless), { method: 'GET' }), await hold(onA(endless), { method: 'GET' })];
    expect(held.map((h) => h.status)).toEqual([200, 200]);
    const third = await fetchAll(onA(smallA), { method: 'GET' });
    expect(third.status).toBe(429);
    expect(third.retryAfter).toBe('1');
    expect(third.body).toMatch(/too many concurrent requests for this account's gateways: at most 2 in flight/);
    const other = await fetchAll(`${tb.url}/ipfs-gateway/${gwB.name}/ipfs/${smallB}`, { method: 'GET' });
    expect(other.status).toBe(200);
    expect(other.body).toMatch(/^B /);
    // the account's API key is not held by its gateways' reads (slots of their own)
    const api = await fetchAll(`${tb.t.ipfsUrl}/api/v0/cat?arg=${smallA}`, {
      method: 'POST',
      authorization: tb.t.authorization,
    });
    expect(api.status).toBe(200);
    for (const h of held) h.close();
    const after = await untilServed(() => fetchAll(onA(smallA), { method: 'GET' }));
    expect(after.status).toBe(200);
    expect(after.body).toMatch(/^A /);
  });
});
