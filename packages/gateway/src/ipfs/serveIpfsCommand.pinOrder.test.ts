import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlQuery } from '../store/createSqlKeyStore.js';
import { createIpfsRoute } from './createIpfsRoute.js';
import { DEFAULT_IPFS_ALLOW } from './ipfsCommands.js';
import { createSqlPinStore } from './pins/createSqlPinStore.js';
import type { PinStore } from './pins/PinStore.js';
import { type IpfsRouteHarness, startIpfsRouteHarness } from './startIpfsRouteHarness.js';

/** A real store whose `add` waits for `open()` before writing; `called` resolves when it is asked. */
function gatedStore(inner: PinStore) {
  let open!: () => void;
  let gate = new Promise<void>((r) => {
    open = r;
  });
  let calledResolve!: () => void;
  let called = new Promise<void>((r) => {
    calledResolve = r;
  });
  const store: PinStore = {
    ...inner,
    async add(key, pins) {
      calledResolve();
      await gate;
      await inner.add(key, pins);
    },
  };
  return {
    store,
    get called() {
      return called;
    },
    open: () => open(),
    close() {
      gate = new Promise<void>((r) => {
        open = r;
      });
      called = new Promise<void>((r) => {
        calledResolve = r;
      });
    },
  };
}

/** A raw exchange that reports what the client has seen so far. */
function watch(base: string, path: string, body?: { data: Buffer; contentType: string }) {
  const url = new URL(base);
  const seen = { status: 0, bytes: Buffer.alloc(0), ended: false };
  const done = new Promise<typeof seen>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path,
        headers: body ? { 'content-type': body.contentType } : {},
        agent: false,
      },
      (res) => {
        seen.status = res.statusCode ?? 0;
        res.on('data', (c: Buffer) => {
          seen.bytes = Buffer.concat([seen.bytes, c]);
        });
        res.on('end', () => {
          seen.ended = true;
          resolve(seen);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body?.data);
  });
  return { seen, done };
}

function multipart(data: Buffer | string) {
  const boundary = `b${randomBytes(8).toString('hex')}`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    data: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(data),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

const settle = () => new Promise((r) => setTimeout(r, 150));

/**
 * Starts a command with the store's `add` held, and checks the client has neither the end nor
 * the whole answer until the write is let through; then that it completes and was recorded.
 */
async function expectRecordedBeforeAnswer(
  gated: ReturnType<typeof gatedStore>,
  base: string,
  path: string,
  body?: { data: Buffer; contentType: string },
) {
  gated.close();
  const { seen, done } = watch(base, path, body);
  await Promise.race([gated.called, done.then(() => Promise.reject(new Error(`${path} answered unrecorded`)))]);
  await settle();
  const before = { ended: seen.ended, bytes: seen.bytes.byteLength };
  gated.open();
  const after = await done;
  expect(after.status, after.bytes.toString()).toBe(200);
  expect(before.ended, `${path}: ended before its pins were recorded`).toBe(false);
  expect(before.bytes, `${path}: whole answer seen before its pins were recorded`).toBeLessThan(after.bytes.byteLength);
  return after.bytes.toString();
}

describe('a pin is recorded before the client has the whole answer or its end', () => {
  describe('an upstream that frames its answers with Content-Length', () => {
    let fake: Server;
    let gateway: Server;
    let db: PGlite;
    let base: string;
    let gated: ReturnType<typeof gatedStore>;
    const blockCid = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
    const dagCid = 'bafyreib7ubpfqyxcsiy6fjb6asnjtwfcc4xwjxvxn2oyu3pk6eahpqgbsu';

    beforeAll(async () => {
      fake = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const command = (req.url ?? '').split('?')[0];
          const value =
            command === '/api/v0/block/put'
              ? { Key: blockCid, Size: 5 }
              : command === '/api/v0/dag/put'
                ? { Cid: { '/': dagCid } }
                : { Key: blockCid, Size: 5 };
          const text = `${JSON.stringify(value)}\n`;
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
          res.end(text);
        });
      });
      await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
      const upstreamUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
      db = new PGlite();
      const pins = await createSqlPinStore(((sql: string, params?: unknown[]) => db.query(sql, params)) as SqlQuery);
      gated = gatedStore(pins);
      const route = createIpfsRoute({
        settings: {
          hosts: [],
          pathPrefix: '/ipfs',
          upstream: { name: 'fake', http: upstreamUrl, timeoutMs: 10_000 },
          allow: DEFAULT_IPFS_ALLOW,
          maxRequestBytes: 1 << 20,
          maxStoredBytesPerKey: 1 << 20,
          resetOnStreamError: false,
          creditsPerServedMiB: 10,
          gc: { intervalMs: 0, timeoutMs: 60_000, unpinUnowned: true },
        },
        upstreamUrl,
        pins: gated.store,
      });
      gateway = createServer((req, res) => route.serve('k', req, res, (req.url ?? '/').slice('/ipfs'.length)));
      await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      gated?.open();
      gateway?.closeAllConnections();
      fake?.closeAllConnections();
      await Promise.all([new Promise((r) => gateway?.close(r)), new Promise((r) => fake?.close(r))]);
      await db?.close();
    });

    it('block/put and dag/put with pin=true', async () => {
      const bput = await expectRecordedBeforeAnswer(gated, base, '/ipfs/api/v0/block/put?pin=true', multipart('hello'));
      expect(JSON.parse(bput)).toEqual({ Key: blockCid, Size: 5 });
      const dput = await expectRecordedBeforeAnswer(gated, base, '/ipfs/api/v0/dag/put?pin=true', multipart('{}'));
      expect(JSON.parse(dput)).toEqual({ Cid: { '/': dagCid } });
      expect((await gated.store.list('k')).map((p) => p.cid).sort()).toEqual([blockCid, dagCid].sort());
    });
  });

  describe('the embedded node', () => {
    let h: IpfsRouteHarness;
    let gateway: Server;
    let base: string;
    let gated: ReturnType<typeof gatedStore>;

    beforeAll(async () => {
      h = await startIpfsRouteHarness();
      gated = gatedStore(h.pins);
      const route = createIpfsRoute({
        settings: {
          hosts: [],
          pathPrefix: '/ipfs',
          upstream: { name: 'node', http: h.node.http, timeoutMs: 60_000 },
          allow: DEFAULT_IPFS_ALLOW,
          maxRequestBytes: 1 << 24,
          maxStoredBytesPerKey: 1 << 24,
          resetOnStreamError: false,
          creditsPerServedMiB: 10,
          gc: { intervalMs: 0, timeoutMs: 60_000, unpinUnowned: true },
        },
        upstreamUrl: h.node.http,
        pins: gated.store,
      });
      gateway = createServer((req, res) => route.serve('k', req, res, (req.url ?? '/').slice('/ipfs'.length)));
      await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      gated?.open();
      gateway?.closeAllConnections();
      await new Promise((r) => gateway?.close(r));
      await h?.stop();
    });

    it('add, dag/put, block/put, dag/import, pin/add and object/put', async () => {
      const owned = async () => (await h.pins.list('k')).map((p) => p.cid);
      const add = await expectRecordedBeforeAnswer(gated, base, '/ipfs/api/v0/add', multipart(randomBytes(40)));
      const added = (JSON.parse(add.trim().split('\n').at(-1)!) as { Hash: string }).Hash;
      expect(await owned()).toContain(added);

      const dput = await expectRecordedBeforeAnswer(
        gated,
        base,
        '/ipfs/api/v0/dag/put?pin=true',
        multipart(JSON.stringify({ n: randomBytes(4).toString('hex') })),
      );
      expect(await owned()).toContain((JSON.parse(dput) as { Cid: { '/': string } }).Cid['/']);

      const bput = await expectRecordedBeforeAnswer(
        gated,
        base,
        '/ipfs/api/v0/block/put?pin=true',
        multipart(randomBytes(30)),
      );
      expect(await owned()).toContain((JSON.parse(bput) as { Key: string }).Key);

      // a loose block (not pinned, nothing recorded), then a CAR of it imported, then pinned by pin/add
      const loose = (
        JSON.parse((await watch(base, '/ipfs/api/v0/block/put', multipart(randomBytes(24))).done).bytes.toString()) as {
          Key: string;
        }
      ).Key;
      const car = await watch(h.node.http, `/api/v0/dag/export?arg=${loose}`).done;
      const imported = await expectRecordedBeforeAnswer(gated, base, '/ipfs/api/v0/dag/import', multipart(car.bytes));
      expect(imported).toContain(loose);
      expect(await owned()).toContain(loose);

      const other = (
        JSON.parse((await watch(base, '/ipfs/api/v0/block/put', multipart(randomBytes(24))).done).bytes.toString()) as {
          Key: string;
        }
      ).Key;
      await expectRecordedBeforeAnswer(gated, base, `/ipfs/api/v0/pin/add?arg=${other}`);
      expect(await owned()).toContain(other);

      const oput = await expectRecordedBeforeAnswer(
        gated,
        base,
        '/ipfs/api/v0/object/put?pin=true',
        multipart(JSON.stringify({ Data: `o ${randomBytes(4).toString('hex')}`, Links: [] })),
      );
      expect(await owned()).toContain((JSON.parse(oput) as { Hash: string }).Hash);
    });
  });
});
