import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type IpfsTestGateway, startIpfsTestGateway } from '../ipfs/startIpfsTestGateway.js';
import { admin, setKeySettings } from '../test-support/testKeys.js';

// Issue 20, item 12: IPFS refusals (400, 403, 404, 413…) were recorded in usage with JSON-RPC's
// -32603 (or the JSON-RPC code of a gateway refusal); the usage store's convention for IPFS is
// Kubo's own HTTP status, negated. Two keys: each one's rows show only its own answers.

let t: IpfsTestGateway;

beforeAll(async () => {
  t = await startIpfsTestGateway({ ipfs: { maxStoredBytesPerKey: 10_000 } });
});

afterAll(async () => {
  await t?.stop();
});

async function send(path: string, authorization: string, body?: FormData): Promise<number> {
  const res = await fetch(`${t.ipfsUrl}/api/v0/${path}`, {
    method: 'POST',
    headers: { authorization },
    ...(body ? { body } : {}),
  });
  await res.arrayBuffer();
  return res.status;
}

it('each IPFS answer is recorded with its own status as the error code (-400, -403, -404, -413, -500)', async () => {
  const a = await t.createKey();
  const b = await t.createKey();
  await setKeySettings(t.gw, b.key, { allowedMethods: ['version'] });
  const file = () => {
    const form = new FormData();
    form.append('file', new Blob([randomBytes(20_000)]));
    return form;
  };
  expect(await send('version', a.authorization)).toBe(200);
  expect(await send('no/such/command', a.authorization)).toBe(404);
  expect(await send('repo/gc', a.authorization)).toBe(403); // known to Kubo, outside ipfs.allow
  const escaping = new FormData();
  escaping.append('file', new Blob([randomBytes(10)]), '../escape.txt');
  expect(await send('add', a.authorization, escaping)).toBe(400); // an unsafe file name
  expect(await send('add', a.authorization, file())).toBe(413); // over the storage quota
  expect(await send('block/stat?arg=bafkqaaa-not-a-cid', a.authorization)).toBe(500); // the node's own refusal
  expect(await send('cat?arg=x', b.authorization)).toBe(403); // the key's own method allowlist

  await t.gw.flushUsage();
  const rows = (await admin(t.gw, 'GET', `/keys/${a.key}/requests?limit=20`)) as Array<{
    method: string;
    status: number;
    errorCode: number | null;
  }>;
  const byStatus = new Map(rows.map((r) => [r.status, r.errorCode]));
  expect(byStatus.get(200)).toBeNull();
  for (const status of [400, 403, 404, 413, 500]) expect(byStatus.get(status)).toBe(-status);
  expect(rows.some((r) => r.errorCode === -32603 || r.errorCode === -32002)).toBe(false);

  const theirs = (await admin(t.gw, 'GET', `/keys/${b.key}/requests?limit=20`)) as Array<{
    method: string;
    status: number;
    errorCode: number | null;
    refusal: string | null;
  }>;
  expect(theirs).toEqual([expect.objectContaining({ method: 'cat', status: 403, errorCode: -403, refusal: 'method' })]);
});
