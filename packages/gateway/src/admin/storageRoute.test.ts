import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IpfsTestGateway, startIpfsTestGateway } from '../ipfs/startIpfsTestGateway.js';
import { admin } from '../test-support/testKeys.js';

let t: IpfsTestGateway;
beforeAll(async () => {
  t = await startIpfsTestGateway({ ipfs: { maxStoredBytesPerKey: 1_000_000 } });
});
afterAll(async () => {
  await t?.stop();
});

const ipfs = async (authorization: string, path: string, body?: FormData) => {
  const res = await fetch(`${t.ipfsUrl}/api/v0/${path}`, {
    method: 'POST',
    headers: { authorization },
    ...(body ? { body } : {}),
  });
  return { status: res.status, text: await res.text() };
};

describe('GET /admin/api/v1/keys/{key}/storage', () => {
  it("gives the bytes a key stores (what it makes the node store) and the quota; another key's are not counted", async () => {
    const a = await t.createKey();
    const b = await t.createKey();
    expect(await admin(t.gw, 'GET', `/keys/${a.key}/storage`)).toEqual({
      key: a.key,
      storedBytes: 0,
      maxStoredBytes: 1_000_000,
    });
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(5_000, 7)]), 'five-k.bin');
    const added = await ipfs(a.authorization, 'add', form);
    expect(added.status).toBe(200);
    const { Hash, Size } = JSON.parse(added.text.trim().split('\n').at(-1)!) as { Hash: string; Size: string };
    const stored = await admin(t.gw, 'GET', `/keys/${a.key}/storage`);
    expect(stored.storedBytes).toBe(Number(Size));
    expect(stored.storedBytes).toBeGreaterThanOrEqual(5_000);
    expect((await admin(t.gw, 'GET', `/keys/${b.key}/storage`)).storedBytes).toBe(0);
    // pin/rm: the blocks stay on the node, and count, until the next collection removes them
    expect((await ipfs(a.authorization, `pin/rm?arg=${Hash}`)).status).toBe(200);
    expect((await admin(t.gw, 'GET', `/keys/${a.key}/storage`)).storedBytes).toBe(Number(Size));
    await t.gw.collectIpfsGarbage!();
    expect((await admin(t.gw, 'GET', `/keys/${a.key}/storage`)).storedBytes).toBe(0);
  });
});
