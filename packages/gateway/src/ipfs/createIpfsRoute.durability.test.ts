import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { create } from 'kubo-rpc-client';
import { afterAll, expect, it } from 'vitest';
import { type IpfsTestGateway, startIpfsTestGateway } from './startIpfsTestGateway.js';

let dataDir: string | undefined;
let running: IpfsTestGateway | undefined;

afterAll(async () => {
  await running?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const c of source) chunks.push(c);
  return Buffer.concat(chunks);
}

it('add + pin through the gateway survive a restart; so does the key’s stored-bytes count', {
  timeout: 120_000,
}, async () => {
  const first = await startIpfsTestGateway(); // embedded node, the default deployment
  running = first;
  dataDir = first.dataDir;
  const content = randomBytes(300_000);
  const client = create({ url: `${first.ipfsUrl}/api/v0`, headers: { authorization: first.authorization } });
  const { cid } = await client.add(content, { pin: true });
  await first.stop({ keepData: true });
  running = undefined;

  // same data directory, a stored-bytes limit below what the key has already uploaded
  const second = await startIpfsTestGateway({ dataDir, ipfs: { maxStoredBytesPerKey: 200_000 } });
  running = second;
  expect(second.key).toBe(first.key);
  const again = create({ url: `${second.ipfsUrl}/api/v0`, headers: { authorization: second.authorization } });
  expect(await collect(again.cat(cid))).toEqual(content);
  const pins = [];
  for await (const p of again.pin.ls({ paths: [cid] })) pins.push(p);
  expect(pins[0]?.type).toBe('recursive');
  const res = await fetch(`${second.ipfsUrl}/api/v0/block/put`, {
    method: 'POST',
    headers: { authorization: second.authorization },
    body: (() => {
      const form = new FormData();
      form.append('file', new Blob([randomBytes(10)]));
      return form;
    })(),
  });
  expect(res.status).toBe(413);
  const body = (await res.json()) as { Message: string };
  const used = Number(/has stored (\d+) of 200000/.exec(body.Message)?.[1]);
  expect(used).toBeGreaterThan(300_000);
});
