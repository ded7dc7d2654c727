import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { CarBlockIterator, CarWriter } from '@ipld/car';
import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import { base36 } from 'multiformats/bases/base36';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { extract } from 'tar-stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { pseudoRandomChunks } from './testData.js';

/** Where the suite sends its requests. */
export interface IpfsContractTarget {
  /** Base URL; the API is under `${url}/api/v0/` (a path prefix such as `http://gw/ipfs` is kept). */
  url: string;
  /** Extra request headers, e.g. `Authorization: Basic …`. */
  headers?: Record<string, string>;
}

/** Options of {@link ipfsContractSuite}. */
export interface IpfsContractSuiteOptions {
  /**
   * Also exercise `id`, `block/rm` and `repo/gc` (outside the hosted allowlist). Default true.
   */
  adminCommands?: boolean;
  /** Size of the streamed large file; default 100 MiB. */
  largeFileBytes?: number;
}

const te = new TextEncoder();

/** Kubo's own CID vectors (reference/ipfs.md): input, add options, expected CID. */
export const cidVectors: ReadonlyArray<{
  name: string;
  content: Uint8Array;
  options: Record<string, unknown>;
  cid: string;
}> = [
  {
    name: 'hello\\n',
    content: te.encode('hello\n'),
    options: {},
    cid: 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN',
  },
  {
    name: 'hello\\n cid-version=1',
    content: te.encode('hello\n'),
    options: { cidVersion: 1 },
    cid: 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am',
  },
  {
    name: 'hello world',
    content: te.encode('hello world'),
    options: {},
    cid: 'Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD',
  },
  {
    name: 'empty file',
    content: new Uint8Array(0),
    options: {},
    cid: 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH',
  },
  {
    name: 'Hello Worlds!\\n',
    content: te.encode('Hello Worlds!\n'),
    options: {},
    cid: 'QmVr26fY1tKyspEJBniVhqxQeEjhF78XerGiqWAwraVLQH',
  },
  {
    name: 'Hello Worlds!\\n trickle',
    content: te.encode('Hello Worlds!\n'),
    options: { trickle: true },
    cid: 'QmUkUQgxXeggyaD5Ckv8ZqfW8wHBX6cYyeiyqvVZYzq5Bi',
  },
  {
    name: '1 MiB of zeros',
    content: new Uint8Array(1 << 20),
    options: {},
    cid: 'QmVkbauSDEaMP4Tkq6Epm9uW75mWm136n81YH8fGtfwdHU',
  },
];

/** Kubo's directory vectors: planets/{mars.txt, venus.txt}. */
export const directoryVectors: ReadonlyArray<{ name: string; options: Record<string, unknown>; cid: string }> = [
  { name: 'default', options: {}, cid: 'QmWSgS32xQEcXMeqd3YPJLrNBLSdsfYCep2U7CFkyrjXwY' },
  { name: 'raw-leaves', options: { rawLeaves: true }, cid: 'QmfWfQfKCY5Ukv9peBbxM5vqWM9BzmqUSXvdCgjT2wsiBT' },
  {
    name: 'cid-version=1',
    options: { cidVersion: 1 },
    cid: 'bafybeih7e5dmkyk25up5vxug4q3hrg2fxbzf23dfrac2fns5h7z4aa7ioi',
  },
];

function planets() {
  return [
    { path: 'planets/mars.txt', content: te.encode('Hello Mars!\n') },
    { path: 'planets/venus.txt', content: te.encode('Hello Venus!\n') },
  ];
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of source) chunks.push(c);
  return new Uint8Array(Buffer.concat(chunks));
}

/** Parses a JSON response body (test assertions inspect it freely). */
async function jsonOf(res: Response): Promise<any> {
  return res.json();
}

async function all<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const v of source) out.push(v);
  return out;
}

/**
 * The IPFS contract suite: registers vitest tests that check a Kubo-compatible endpoint with
 * kubo-rpc-client (and a few raw HTTP requests): every command, Kubo's CID vectors, directories,
 * a large streamed file verified by hash, pin lifecycle, dag round-trips per codec, CAR
 * import/export. Runs against the embedded node directly and through the gateway.
 *
 * @example
 * ```ts
 * ipfsContractSuite('embedded node', () => ({ url: node.apiUrl }));
 * ipfsContractSuite('through the gateway', () => ({ url: gw.ipfsUrl, headers: { authorization } }), {
 *   adminCommands: false,
 * });
 * ```
 */
export function ipfsContractSuite(
  name: string,
  getTarget: () => IpfsContractTarget,
  options: IpfsContractSuiteOptions = {},
): void {
  const admin = options.adminCommands ?? true;
  const largeBytes = options.largeFileBytes ?? 100 * 1024 * 1024;

  describe(`IPFS contract: ${name}`, () => {
    let client: KuboRPCClient;
    let target: IpfsContractTarget;
    const endpoint = (command: string, query: Record<string, string | string[]> = {}) => {
      const base = target.url.endsWith('/') ? target.url : `${target.url}/`;
      const u = new URL(`api/v0/${command}`, base);
      for (const [k, v] of Object.entries(query)) for (const x of [v].flat()) u.searchParams.append(k, x);
      return u.toString();
    };
    const post = (command: string, query: Record<string, string | string[]> = {}, init: RequestInit = {}) =>
      fetch(endpoint(command, query), {
        ...init,
        method: init.method ?? 'POST',
        headers: { ...target.headers, ...(init.headers as Record<string, string> | undefined) },
      });
    const addBytes = async (bytes: Uint8Array, opts: Record<string, unknown> = {}) =>
      (await client.add(bytes, opts as never)).cid;

    beforeAll(() => {
      target = getTarget();
      const base = target.url.endsWith('/') ? target.url : `${target.url}/`;
      client = create({ url: new URL('api/v0', base), ...(target.headers ? { headers: target.headers } : {}) });
    });

    describe('CID vectors (identical to Kubo)', () => {
      for (const v of cidVectors) {
        it(`add ${v.name} → ${v.cid}`, async () => {
          const cid = await addBytes(v.content, v.options);
          expect(cid.toString()).toBe(v.cid);
          expect(await collect(client.cat(cid))).toEqual(v.content);
        });
      }
      for (const v of directoryVectors) {
        it(`add directory planets/ (${v.name}) → ${v.cid}`, async () => {
          const results = await all(client.addAll(planets(), v.options as never));
          expect(results.map((r) => r.path)).toEqual(['planets/mars.txt', 'planets/venus.txt', 'planets']);
          expect(results.at(-1)!.cid.toString()).toBe(v.cid);
        });
      }
    });

    describe('add', () => {
      it('answers NDJSON with X-Chunked-Output, one {Name,Hash,Size} line per entry', async () => {
        const form = new FormData();
        form.append('file', new Blob(['Hello Mars!\n']), encodeURIComponent('planets/mars.txt'));
        form.append('file', new Blob(['Hello Venus!\n']), encodeURIComponent('planets/venus.txt'));
        const res = await post('add', { 'cid-version': '0' }, { body: form });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-chunked-output')).toBe('1');
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const text = await res.text();
        const lines = text
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(lines).toEqual([
          { Name: 'planets/mars.txt', Hash: 'QmPrrHqJzto9m7SyiRzarwkqPcCSsKR2EB1AyqJfe8L8tN', Size: '20' },
          { Name: 'planets/venus.txt', Hash: 'QmU5kp3BH3B8tnWUU2Pikdb2maksBNkb92FHRr56hyghh4', Size: '21' },
          { Name: 'planets', Hash: 'QmWSgS32xQEcXMeqd3YPJLrNBLSdsfYCep2U7CFkyrjXwY', Size: '146' },
        ]);
      });

      it('wrap-with-directory wraps files in a directory that lists them', async () => {
        const results = await all(
          client.addAll([{ path: 'a.txt', content: te.encode('hello\n') }], { wrapWithDirectory: true }),
        );
        expect(results.map((r) => r.cid.toString())).toEqual([
          'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN',
          'QmRL7MpyuT5GhpLr8asWP6hgWpCkhKm8ENYa4TykfAcj7E',
        ]);
        const listed = await all(client.ls(results[1]!.cid));
        expect(listed.map((l) => l.name)).toEqual(['a.txt']);
      });

      it('chunker size-N and raw-leaves shape the DAG', async () => {
        const data = randomBytes(10_000);
        const cid = await addBytes(data, { chunker: 'size-1000', rawLeaves: true });
        const links = await all(client.ls(cid));
        expect(links).toHaveLength(10);
        expect(links.every((l) => l.cid.code === raw.code)).toBe(true);
        expect(await collect(client.cat(cid))).toEqual(new Uint8Array(data));
      });

      it('only-hash computes the CID without storing blocks', async () => {
        const data = randomBytes(3000);
        const cid = await addBytes(data, { onlyHash: true });
        const res = await post('block/stat', { arg: cid.toString() });
        expect(res.status).toBe(500);
        expect(await addBytes(data)).toEqual(cid);
      });

      it('reports progress with {Name,Bytes}', async () => {
        const seen: number[] = [];
        await client.add(randomBytes(600_000), { progress: (bytes: number) => seen.push(bytes) });
        expect(seen.length).toBeGreaterThan(0);
        expect(seen.at(-1)).toBe(600_000);
      });

      it('cid-base writes CIDv1 in that base, upgrading CIDv0', async () => {
        const v0 = CID.parse('QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN');
        const form = () => {
          const f = new FormData();
          f.append('file', new Blob(['hello\n']));
          return f;
        };
        const b32 = await jsonOf(await post('add', { 'cid-base': 'base32' }, { body: form() }));
        expect(b32.Hash).toBe(v0.toV1().toString());
        const b36 = await jsonOf(await post('add', { 'cid-base': 'base36', 'cid-version': '1' }, { body: form() }));
        expect(b36.Hash).toBe(
          CID.parse('bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am').toString(base36),
        );
        const kept = await jsonOf(await post('add', { 'cid-base': 'base58btc' }, { body: form() }));
        expect(kept.Hash).toBe(v0.toString());
      });

      it('pins by default and not with pin=false', async () => {
        const pinned = await addBytes(randomBytes(100));
        const unpinned = await addBytes(randomBytes(100), { pin: false });
        const pins = await all(client.pin.ls({ paths: [pinned] }));
        expect(pins[0]?.type).toBe('recursive');
        const res = await post('pin/ls', { arg: unpinned.toString() });
        expect(res.status).toBe(500);
        expect((await jsonOf(res)).Message).toBe(`path '${unpinned}' is not pinned`);
      });
    });

    describe('cat', () => {
      it('honours offset and length', async () => {
        const data = randomBytes(700_000);
        const cid = await addBytes(data, { chunker: 'size-65536' });
        expect(await collect(client.cat(cid, { offset: 100_000, length: 300_000 }))).toEqual(
          new Uint8Array(data.subarray(100_000, 400_000)),
        );
        expect(await collect(client.cat(cid, { offset: 650_000 }))).toEqual(new Uint8Array(data.subarray(650_000)));
      });

      it('concatenates several paths and resolves paths inside directories', async () => {
        const dir = (await all(client.addAll(planets()))).at(-1)!.cid;
        const res = await post('cat', { arg: [`/ipfs/${dir}/mars.txt`, `${dir}/venus.txt`] });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-stream-output')).toBe('1');
        expect(res.headers.get('x-content-length')).toBe('25');
        expect(await res.text()).toBe('Hello Mars!\nHello Venus!\n');
      });

      it('fails with a Kubo JSON error for a directory or a missing block', async () => {
        const dir = (await all(client.addAll(planets()))).at(-1)!.cid;
        const res = await post('cat', { arg: dir.toString() });
        expect(res.status).toBe(500);
        expect(await jsonOf(res)).toEqual({ Message: 'this dag node is a directory', Code: 0, Type: 'error' });
        const missing = CID.createV1(raw.code, await sha256.digest(randomBytes(32)));
        const res2 = await post('cat', { arg: missing.toString() });
        expect(res2.status).toBe(500);
        expect((await jsonOf(res2)).Type).toBe('error');
      });
    });

    describe(`a ${Math.round(largeBytes / 1024 / 1024)} MiB file`, () => {
      it('streams in and out, verified by hash', { timeout: 180_000 }, async () => {
        const inHash = createHash('sha256');
        async function* source() {
          for (const chunk of pseudoRandomChunks(largeBytes, `large-${name}`)) {
            inHash.update(chunk);
            yield chunk;
          }
        }
        const { cid, size } = await client.add(source(), { pin: false });
        expect(size).toBeGreaterThan(largeBytes);
        const outHash = createHash('sha256');
        let length = 0;
        for await (const chunk of client.cat(cid)) {
          outHash.update(chunk);
          length += chunk.byteLength;
        }
        expect(length).toBe(largeBytes);
        expect(outHash.digest('hex')).toBe(inHash.digest('hex'));
      });
    });

    describe('get and ls', () => {
      it('get returns a tar archive of a directory', async () => {
        const dir = (await all(client.addAll(planets()))).at(-1)!.cid;
        const tar = await collect(client.get(dir));
        const entries: Record<string, string> = {};
        const ex = extract();
        ex.on('entry', (header, stream, next) => {
          const chunks: Buffer[] = [];
          stream.on('data', (c: unknown) => chunks.push(c as Buffer));
          stream.on('end', () => {
            // names as Kubo writes them: a directory without a trailing "/"
            entries[`${header.type}:${header.name}`] = Buffer.concat(chunks).toString();
            next();
          });
        });
        await new Promise<void>((resolve, reject) => {
          ex.on('finish', resolve);
          ex.on('error', reject);
          Readable.from([Buffer.from(tar)]).pipe(ex);
        });
        expect(entries).toEqual({
          [`directory:${dir}`]: '',
          [`file:${dir}/mars.txt`]: 'Hello Mars!\n',
          [`file:${dir}/venus.txt`]: 'Hello Venus!\n',
        });
      });

      it('ls lists names, CIDs, sizes and types', async () => {
        const added = await all(
          client.addAll([
            { path: 'root/sub/deep.txt', content: te.encode('deep') },
            { path: 'root/top.txt', content: te.encode('top!!') },
          ]),
        );
        const root = added.at(-1)!.cid;
        const links = await all(client.ls(root));
        expect(links.map((l) => [l.name, l.type, l.size])).toEqual([
          ['sub', 'dir', 0],
          ['top.txt', 'file', 5],
        ]);
        const res = await post('ls', { arg: root.toString() });
        const body = await jsonOf(res);
        expect(body.Objects[0].Hash).toBe(root.toString());
        expect(body.Objects[0].Links[1]).toEqual({
          Name: 'top.txt',
          Hash: added.find((a) => a.path === 'root/top.txt')!.cid.toString(),
          Size: 5,
          Type: 2,
          Target: '',
          // current Kubo's UnixFS 1.5 fields: none stored (Go's zero values)
          Mode: 0,
          ModTime: '0001-01-01T00:00:00Z',
        });
      });
    });

    describe('block', () => {
      it('put / get / stat round-trip (raw, and format=v0 for dag-pb)', async () => {
        const data = randomBytes(1234);
        const cid = await client.block.put(data);
        expect(cid.code).toBe(raw.code);
        expect(cid.equals(CID.createV1(raw.code, await sha256.digest(data)))).toBe(true);
        expect(await client.block.get(cid)).toEqual(new Uint8Array(data));
        expect(await client.block.stat(cid)).toEqual({ cid, size: 1234 });
        const pb = dagPb.encode({ Data: new Uint8Array([8, 1]), Links: [] });
        const v0 = await client.block.put(pb, { format: 'v0' } as never);
        expect(v0.version).toBe(0);
        expect(v0.toString()).toBe(CID.createV0(await sha256.digest(pb)).toString());
      });

      it('block/put answers NDJSON {Key,Size}', async () => {
        const form = new FormData();
        form.append('file', new Blob(['block one']));
        const res = await post('block/put', {}, { body: form });
        expect(res.headers.get('x-chunked-output')).toBe('1');
        const line = JSON.parse((await res.text()).trim());
        expect(line).toEqual({
          Key: CID.createV1(raw.code, await sha256.digest(te.encode('block one'))).toString(),
          Size: 9,
        });
      });

      if (admin) {
        it('block/rm removes unpinned blocks and refuses pinned ones', async () => {
          const loose = await client.block.put(randomBytes(64));
          const removed = await all(client.block.rm(loose));
          expect(removed[0]?.error).toBeUndefined();
          expect((await post('block/stat', { arg: loose.toString() })).status).toBe(500);
          const kept = await addBytes(randomBytes(64));
          const refused = await all(client.block.rm(kept));
          expect(refused[0]?.error?.message).toBe('pinned: recursive');
        });
      }
    });

    describe('dag', () => {
      it('dag-cbor round-trip with links and path resolution', async () => {
        const leaf = await client.dag.put({ hello: 'world' });
        const node = { name: 'root', child: leaf, list: [1, 2, { deep: 'value' }] };
        const cid = await client.dag.put(node, { storeCodec: 'dag-cbor' });
        expect(cid.code).toBe(dagCbor.code);
        expect(cid.equals(CID.createV1(dagCbor.code, await sha256.digest(dagCbor.encode(node))))).toBe(true);
        expect((await client.dag.get(cid)).value).toEqual(node);
        const res = await post('dag/get', { arg: `${cid}/list/2` });
        expect(await res.text()).toBe('{"deep":"value"}');
        expect(await client.dag.resolve(`/ipfs/${cid}/child/hello`)).toEqual({ cid: leaf, remainderPath: 'hello' });
        const viaLink = await post('dag/get', { arg: `${cid}/child/hello` });
        expect(await viaLink.text()).toBe('"world"');
      });

      it('dag-json round-trip', async () => {
        const value = { a: 1, b: [true, null, 'x'], bytes: new Uint8Array([1, 2, 3]) };
        const cid = await client.dag.put(value, { storeCodec: 'dag-json' });
        expect(cid.code).toBe(dagJson.code);
        expect(cid.equals(CID.createV1(dagJson.code, await sha256.digest(dagJson.encode(value))))).toBe(true);
        const res = await post('dag/get', { arg: cid.toString() });
        expect(dagJson.decode(new Uint8Array(await res.arrayBuffer()))).toEqual(value);
        const asCbor = await post('dag/get', { arg: cid.toString(), 'output-codec': 'dag-cbor' });
        expect(dagCbor.decode(new Uint8Array(await asCbor.arrayBuffer()))).toEqual(value);
      });

      it('dag-pb round-trip (dag-json input, dag-pb store)', async () => {
        const child = await addBytes(te.encode('pb child'));
        const input = dagJson.encode({ Data: new Uint8Array([8, 1]), Links: [{ Hash: child, Name: 'c', Tsize: 16 }] });
        const cid = await client.dag.put(input, { storeCodec: 'dag-pb', inputCodec: 'dag-json' });
        expect(cid.code).toBe(dagPb.code);
        const block = await client.block.get(cid);
        const node = dagPb.decode(block);
        expect(node.Links[0]?.Hash.equals(child)).toBe(true);
        const res = await post('dag/get', { arg: cid.toString() });
        const json = dagJson.decode(new Uint8Array(await res.arrayBuffer())) as { Links: Array<{ Name: string }> };
        expect(json.Links[0]?.Name).toBe('c');
        expect(await client.dag.resolve(`${cid}/c`)).toEqual({ cid: child, remainderPath: '' });
      });

      it('raw round-trip', async () => {
        const bytes = randomBytes(100);
        const form = new FormData();
        form.append('file', new Blob([bytes]));
        const res = await post('dag/put', { 'store-codec': 'raw', 'input-codec': 'raw' }, { body: form });
        const line = JSON.parse((await res.text()).trim()) as { Cid: { '/': string } };
        const cid = CID.parse(line.Cid['/']);
        expect(cid.equals(CID.createV1(raw.code, await sha256.digest(bytes)))).toBe(true);
        const got = await post('dag/get', { arg: cid.toString(), 'output-codec': 'raw' });
        expect(new Uint8Array(await got.arrayBuffer())).toEqual(new Uint8Array(bytes));
      });

      it('CAR export and import round-trip', async () => {
        const added = await all(
          client.addAll([
            { path: 'car/one.txt', content: randomBytes(300_000) },
            { path: 'car/two.txt', content: te.encode('two') },
          ]),
        );
        const root = added.at(-1)!.cid;
        const car = await collect(client.dag.export(root));
        const it = await CarBlockIterator.fromBytes(car);
        expect((await it.getRoots()).map(String)).toEqual([root.toString()]);
        const blocks = await all(it);
        expect(blocks.length).toBeGreaterThan(3);
        for (const b of blocks) {
          expect(b.cid.multihash.bytes).toEqual((await sha256.digest(b.bytes)).bytes);
        }
        // a CAR made here, imported, then read back
        const fresh = dagCbor.encode({ made: 'locally', n: randomBytes(8).toString('hex') });
        const freshCid = CID.createV1(dagCbor.code, await sha256.digest(fresh));
        const { writer, out } = CarWriter.create([freshCid]);
        const carBytes = collect(out);
        await writer.put({ cid: freshCid, bytes: fresh });
        await writer.close();
        const imported = await all(client.dag.import([await carBytes]));
        expect(imported).toEqual([{ root: { cid: freshCid, pinErrorMsg: '' } }]);
        expect(await client.block.get(freshCid)).toEqual(fresh);
        const pins = await all(client.pin.ls({ paths: [freshCid] }));
        expect(pins[0]?.type).toBe('recursive');
        const reExported = await collect(client.dag.export(freshCid));
        expect(reExported).toEqual(await carBytes);
      });
    });

    describe('pins', () => {
      it('lifecycle: add, ls (direct, recursive, indirect, stream), update, rm', async () => {
        const dir = await all(
          client.addAll([{ path: `p${randomBytes(4).toString('hex')}/f.txt`, content: randomBytes(50) }], {
            pin: false,
          }),
        );
        const fileCid = dir[0]!.cid;
        const root = dir[1]!.cid;
        expect(await client.pin.add(root)).toEqual(root);
        const byPath = await all(client.pin.ls({ paths: [fileCid] }));
        expect(byPath[0]?.type).toBe(`indirect through ${root}`);
        const res = await post('pin/ls', { type: 'recursive', stream: 'true' });
        expect(res.headers.get('x-chunked-output')).toBe('1');
        const lines = (await res.text())
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { Cid: string; Type: string });
        expect(lines).toContainEqual({ Cid: root.toString(), Type: 'recursive' });
        const listed = await post('pin/ls', { type: 'indirect' });
        expect((await jsonOf(listed)).Keys[fileCid.toString()]).toEqual({ Type: 'indirect', Name: '' });
        const other = await addBytes(randomBytes(40), { pin: false });
        await client.pin.add(other, { recursive: false });
        expect((await all(client.pin.ls({ paths: [other] })))[0]?.type).toBe('direct');
        const moved = await addBytes(randomBytes(40), { pin: false });
        expect((await client.pin.update(root, moved)).map(String)).toEqual([root.toString(), moved.toString()]);
        expect((await post('pin/ls', { arg: root.toString() })).status).toBe(500);
        expect(await client.pin.rm(moved)).toEqual(moved);
        const again = await post('pin/rm', { arg: moved.toString() });
        expect(again.status).toBe(500);
        expect((await jsonOf(again)).Message).toBe('not pinned or pinned indirectly');
        await client.pin.rm(other, { recursive: false });
      });

      it('pin/add of a DAG with a missing block fails', async () => {
        const missing = CID.createV1(raw.code, await sha256.digest(randomBytes(16)));
        const parent = await client.dag.put({ link: missing });
        const res = await post('pin/add', { arg: parent.toString() });
        expect(res.status).toBe(500);
        expect((await jsonOf(res)).Message).toContain(missing.toString());
      });

      if (admin) {
        it('repo/gc removes only unpinned blocks', async () => {
          const kept = await addBytes(randomBytes(2000), { chunker: 'size-500' });
          const dropped = await addBytes(randomBytes(2000), { chunker: 'size-500', pin: false });
          const removed = (await all(client.repo.gc())).map((r) => r.cid?.multihash.bytes.toString());
          expect(removed).toContain(dropped.multihash.bytes.toString());
          expect(removed).not.toContain(kept.multihash.bytes.toString());
          expect((await collect(client.cat(kept))).byteLength).toBe(2000);
          expect((await post('cat', { arg: dropped.toString() })).status).toBe(500);
        });
      }
    });

    describe('node and wire', () => {
      it('version', async () => {
        const v = await client.version();
        expect(typeof v.version).toBe('string');
        const res = await post('version');
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(Object.keys(await jsonOf(res))).toEqual(expect.arrayContaining(['Version', 'Commit', 'Repo', 'System']));
      });

      if (admin) {
        it('id', async () => {
          const id = await client.id();
          expect(id.id.toString()).toMatch(/^12D3KooW/);
        });
      }

      it('405 with Allow for GET, 404 for an unknown command', async () => {
        const get = await post('version', {}, { method: 'GET' });
        expect(get.status).toBe(405);
        expect(get.headers.get('allow')).toBe('OPTIONS, POST');
        await get.body?.cancel();
        const unknown = await post('no/such/command');
        expect(unknown.status).toBe(404);
        await unknown.body?.cancel();
      });

      it('400 for a missing argument', async () => {
        const res = await post('cat');
        expect(res.status).toBe(400);
        expect(await res.text()).toContain('argument "ipfs-path" is required');
      });
    });
  });
}
