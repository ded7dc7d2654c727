import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { create } from 'kubo-rpc-client';
import { afterAll, expect, it } from 'vitest';
import { type IpfsRouteHarness, startIpfsRouteHarness } from './startIpfsRouteHarness.js';

// Restart of the node and of the pin store (PGlite in a directory, as the gateway's embedded
// database): data, the key's pins and its stored bytes (the sum of its pins) survive.
let running: IpfsRouteHarness | undefined;
const dirs: string[] = [];

afterAll(async () => {
  await running?.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const c of source) chunks.push(c);
  return Buffer.concat(chunks);
}

it('add + pin survive a restart; so do the key’s pins and stored bytes, and other keys still see none', {
  timeout: 120_000,
}, async () => {
  const first = await startIpfsRouteHarness();
  running = first;
  dirs.push(first.repo, first.pinsDir);
  const key = first.createKey();
  const other = first.createKey();
  const content = randomBytes(300_000);
  const client = create({ url: `${first.ipfsUrl}/api/v0`, headers: { authorization: key.authorization } });
  const { cid, size } = await client.add(content, { pin: true });
  expect(await first.route.storedBytes(key.key)).toBe(size);
  await first.stop({ keepData: true });
  running = undefined;

  // same repo and database, a stored-bytes limit below what the key already stores
  const second = await startIpfsRouteHarness({
    repo: first.repo,
    pinsDir: first.pinsDir,
    keys: [key, other],
    ipfs: { maxStoredBytesPerKey: 200_000 },
  });
  running = second;
  const again = create({ url: `${second.ipfsUrl}/api/v0`, headers: { authorization: key.authorization } });
  expect(await collect(again.cat(cid))).toEqual(content);
  const pins = [];
  for await (const p of again.pin.ls({ paths: [cid] })) pins.push(p);
  expect(pins[0]?.type).toBe('recursive');
  const theirs = [];
  for await (const p of create({
    url: `${second.ipfsUrl}/api/v0`,
    headers: { authorization: other.authorization },
  }).pin.ls())
    theirs.push(p);
  expect(theirs).toEqual([]);
  expect(await second.route.storedBytes(key.key)).toBe(size);
  const res = await fetch(`${second.ipfsUrl}/api/v0/block/put`, {
    method: 'POST',
    headers: { authorization: key.authorization },
    body: (() => {
      const form = new FormData();
      form.append('file', new Blob([randomBytes(10)]));
      return form;
    })(),
  });
  expect(res.status).toBe(413);
  const body = (await res.json()) as { Message: string };
  expect(body.Message).toBe(`storage limit reached: this API key has stored ${size} of 200000 bytes allowed`);
  expect(size).toBeGreaterThan(300_000);
});
