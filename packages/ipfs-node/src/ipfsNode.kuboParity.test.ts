import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { CarBufferWriter, CarReader } from '@ipld/car';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import { CID } from 'multiformats/cid';
import { extract } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IpfsNode, startIpfsNode } from './startIpfsNode.js';

// Issue 23: what nodegate's node answered differently from Kubo (interface-ipfs-core found
// them), checked on the node itself with raw HTTP and kubo-rpc-client.

/** The interface-ipfs-core fixtures, read in place from ../shared (never copied into the project). */
const FIXTURES = join(import.meta.dirname, '../../../../shared/fixtures/interface-ipfs-core-0.158.1/fixtures');

let node: IpfsNode;
let repo: string;
let api: string;
let client: KuboRPCClient;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'ipfs-node-parity-'));
  node = await startIpfsNode({ repo });
  api = `${node.apiUrl}/api/v0`;
  client = create({ url: api });
});

afterAll(async () => {
  await node?.close();
  await rm(repo, { recursive: true, force: true });
});

/** One multipart part: form field name, file name as sent (already encoded), content, type. */
type Part = [field: string, filename: string | undefined, data: string | Uint8Array, type?: string];

function form(parts: Part[]): FormData {
  const f = new FormData();
  for (const [field, filename, data, type] of parts) {
    const blob = new Blob([typeof data === 'string' ? data : Buffer.from(data)], {
      type: type ?? 'application/octet-stream',
    });
    if (filename === undefined) f.append(field, blob);
    else f.append(field, blob, filename);
  }
  return f;
}

async function post(command: string, body?: FormData): Promise<{ status: number; text: string; bytes: Buffer }> {
  const res = await fetch(`${api}/${command}`, { method: 'POST', ...(body ? { body } : {}) });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, text: bytes.toString('utf8'), bytes };
}

function lines<T = Record<string, unknown>>(text: string): T[] {
  return text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);
}

async function localRefs(): Promise<Set<string>> {
  const out = await post('refs/local');
  expect(out.status).toBe(200);
  return new Set(lines<{ Ref: string }>(out.text).map((r) => CID.parse(r.Ref).multihash.bytes.toString()));
}

async function tarEntries(tar: Uint8Array): Promise<Array<{ name: string; type: string; mode: number }>> {
  const out: Array<{ name: string; type: string; mode: number }> = [];
  const ex = extract();
  ex.on('entry', (header, stream, next) => {
    out.push({ name: header.name, type: header.type ?? '', mode: header.mode ?? 0 });
    stream.on('end', next);
    stream.resume();
  });
  await new Promise<void>((resolve, reject) => {
    ex.on('finish', resolve);
    ex.on('error', reject);
    Readable.from([Buffer.from(tar)]).pipe(ex);
  });
  return out;
}

describe('upload names (issue 23 item 1)', () => {
  it('an absolute or dotted file name is normalised as Kubo does (path.Clean("/"+name)), Name without the leading "/"', async () => {
    const out = await post(
      'add',
      form([
        ['file', '%2Ffoo%2Fbar.txt', 'bar'],
        ['file', '%2Ffoo%2F.%2F%2Fsub%2F..%2Fbaz.txt', 'baz'],
      ]),
    );
    expect(out.status).toBe(200);
    const names = lines<{ Name: string }>(out.text).map((l) => l.Name);
    expect(names).toEqual(['foo/bar.txt', 'foo/baz.txt', 'foo']);
  });

  it('kubo-rpc-client globSource (absolute names) adds a directory tree', async () => {
    const { globSource } = await import('kubo-rpc-client');
    const added = [];
    for await (const entry of client.addAll(globSource(join(FIXTURES, 'refs-test'), '**/*') as never))
      added.push(entry);
    expect(added.map((a) => a.path)).toContain('animals/land/african.txt');
    expect(added.every((a) => !a.path.startsWith('/'))).toBe(true);
  });
});

describe('wrap-with-directory (issue 23 item 4)', () => {
  it('the wrapping directory is answered with Name ""', async () => {
    const out = await post('add?wrap-with-directory=true', form([['file', 'testfile.txt', 'hello']]));
    const answer = lines<{ Name: string; Hash: string }>(out.text);
    expect(answer.map((l) => l.Name)).toEqual(['testfile.txt', '']);
    const wrapper = answer[1]!.Hash;
    const ls = JSON.parse((await post(`ls?arg=${wrapper}`)).text) as {
      Objects: Array<{ Links: Array<{ Name: string }> }>;
    };
    expect(ls.Objects[0]!.Links.map((l) => l.Name)).toEqual(['testfile.txt']);
  });

  it('an unnamed file is still answered with its CID as Name', async () => {
    // kubo-rpc-client sends filename="" for bare content
    const added = await client.add(new TextEncoder().encode('no name'));
    expect(added.path).toBe(added.cid.toString());
  });
});

describe('hash functions other than sha2-256 (issue 23 item 2)', () => {
  it('repo/gc collects a sha2-512 block instead of failing, and keeps a pinned blake2b-256 one', async () => {
    const loose = lines<{ Key: string }>(
      (await post('block/put?mhtype=sha2-512', form([['file', 'b', 'loose block']]))).text,
    )[0]!.Key;
    const kept = lines<{ Key: string }>(
      (await post('block/put?mhtype=blake2b-256&pin=true', form([['file', 'b', 'pinned block']]))).text,
    )[0]!.Key;
    expect(CID.parse(loose).multihash.code).toBe(0x13);
    expect(CID.parse(kept).multihash.code).toBe(0xb220);
    const refs = await localRefs();
    expect(refs.has(CID.parse(loose).multihash.bytes.toString())).toBe(true);
    expect(refs.has(CID.parse(kept).multihash.bytes.toString())).toBe(true);

    const gc = await post('repo/gc');
    expect(gc.status).toBe(200);
    const removed = lines<{ Key: { '/': string } }>(gc.text).map((l) =>
      CID.parse(l.Key['/']).multihash.bytes.toString(),
    );
    expect(removed).toContain(CID.parse(loose).multihash.bytes.toString());
    expect(removed).not.toContain(CID.parse(kept).multihash.bytes.toString());
    expect((await post(`block/get?arg=${kept}`)).text).toBe('pinned block');
    expect((await post(`block/get?arg=${loose}`)).status).toBe(500);
  });

  it('a CAR of blake2b-256 blocks is imported, listed, pinned, served and collected', async () => {
    const car = await readFile(join(FIXTURES, 'car/lotus_devnet_genesis.car'));
    const reader = await CarReader.fromBytes(car);
    const [root] = await reader.getRoots();
    const stored: CID[] = [];
    for await (const b of reader.blocks()) if (b.cid.multihash.code === 0xb220) stored.push(b.cid);
    expect(stored.length).toBe(143);

    const imported = await post('dag/import', form([['file', 'car', car]]));
    expect(imported.status).toBe(200);
    expect(lines<{ Root: { PinErrorMsg: string } }>(imported.text)[0]!.Root.PinErrorMsg).toBe('');
    const refs = await localRefs();
    expect(stored.every((c) => refs.has(c.multihash.bytes.toString()))).toBe(true);
    const rootBlock = (await reader.get(root!))!.bytes;
    expect((await post(`block/get?arg=${root}`)).bytes.toString('hex')).toBe(Buffer.from(rootBlock).toString('hex'));

    // pinned: a collection keeps every block; unpinned: it removes them all
    expect((await post('repo/gc')).status).toBe(200);
    expect((await localRefs()).has(root!.multihash.bytes.toString())).toBe(true);
    expect((await post(`pin/rm?arg=${root}`)).status).toBe(200);
    expect((await post('repo/gc')).status).toBe(200);
    const after = await localRefs();
    expect(stored.some((c) => after.has(c.multihash.bytes.toString()))).toBe(false);
  });

  it('a CAR block that does not match its blake2b-256 CID is refused', async () => {
    const car = await readFile(join(FIXTURES, 'car/lotus_devnet_genesis.car'));
    const reader = await CarReader.fromBytes(car);
    const [root] = await reader.getRoots();
    const block = (await reader.get(root!))!;
    const forged = new Uint8Array(block.bytes);
    forged[forged.length - 1] = forged[forged.length - 1]! ^ 1;
    const buffer = new ArrayBuffer(forged.length + 256);
    const writer = CarBufferWriter.createWriter(buffer, { roots: [root!] });
    writer.write({ cid: root!, bytes: forged });
    const out = await post('dag/import', form([['file', 'car', writer.close({ resize: true })]]));
    expect(out.status).toBe(500);
    expect(JSON.parse(out.text).Message).toContain('does not match its hash');
  });

  it('add?hash=sha2-512 stores the whole DAG under sha2-512 (CIDv1), readable back; CIDv0 is refused', async () => {
    const big = Buffer.alloc(700_000, 'a');
    const [small] = lines<{ Hash: string; Size: string }>(
      (await post('add?hash=sha2-512', form([['file', 'x', 'hello world']]))).text,
    );
    const [large] = lines<{ Hash: string }>((await post('add?hash=sha2-512', form([['file', 'x', big]]))).text);
    for (const added of [small!, large!]) {
      const cid = CID.parse(added.Hash);
      expect(cid.version).toBe(1);
      expect(cid.multihash.code).toBe(0x13);
    }
    expect((await post(`cat?arg=${small!.Hash}`)).text).toBe('hello world');
    expect((await post(`cat?arg=${large!.Hash}`)).bytes.equals(big)).toBe(true);
    // every link of the chunked file's root is a sha2-512 CID too
    const links = JSON.parse((await post(`ls?arg=${large!.Hash}`)).text).Objects[0].Links as Array<{ Hash: string }>;
    expect(links.length).toBe(3);
    expect(links.every((l) => CID.parse(l.Hash).multihash.code === 0x13)).toBe(true);
    const refused = await post('add?hash=sha2-512&cid-version=0', form([['file', 'x', 'v0']]));
    expect(refused.status).toBe(500);
    expect(JSON.parse(refused.text).Message).toBe('CIDv0 only supports sha2-256');
  });
});

describe('dag/put canonical encoding (issue 23 item 3)', () => {
  it('store-codec=dag-json stores the canonical encoding (Kubo CID of the interface-ipfs-core case)', async () => {
    const added = await client.add({ content: 'foo\n', path: 'file1' });
    const h2 = (await client.add({ content: 'bar\n', path: 'file2' })).cid;
    const h3 = (await client.add({ content: 'baz\n', path: 'file3' })).cid;
    const object = `{"hello":"world","cats":[{"/":"${added.cid}"},{"water":{"/":"${h2}"}}],"magic":{"/":"${h3}"},"sub":{"dict":"ionary","beep":[0,"bop"]}}`;
    const out = await post('dag/put?store-codec=dag-json&input-codec=dag-json', form([['file', 'o', object]]));
    expect(lines<{ Cid: { '/': string } }>(out.text)[0]!.Cid['/']).toBe(
      'baguqeera6gviseelmbzn2ugoddo5vulxlshqs3kw5ymgsb6w4cabnoh4ldpa',
    );
  });
});

describe('get (issue 23 item 5)', () => {
  let dir: string;
  beforeAll(async () => {
    const out = await post(
      'add',
      form([
        ['file', 'g%2Fsub%2Fone.txt', 'first'],
        ['file', 'g%2Ftwo.txt', 'second'],
      ]),
    );
    dir = lines<{ Name: string; Hash: string }>(out.text).find((l) => l.Name === 'g')!.Hash;
  });

  it('directory entries of the tar have no trailing "/"', async () => {
    const tar = await post(`get?arg=${dir}`);
    const entries = await tarEntries(tar.bytes);
    expect(entries.map((e) => `${e.type}:${e.name}`)).toEqual([
      `directory:${dir}`,
      `directory:${dir}/sub`,
      `file:${dir}/sub/one.txt`,
      `file:${dir}/two.txt`,
    ]);
  });

  it('compress=true on a directory without archive is refused', async () => {
    const out = await post(`get?arg=${dir}&compress=true`);
    expect(out.status).toBe(500);
    expect(JSON.parse(out.text).Message).toBe('file is not regular');
    const archived = await post(`get?arg=${dir}&compress=true&archive=true`);
    expect(archived.status).toBe(200);
    expect((await tarEntries(gunzipSync(archived.bytes))).length).toBe(4);
  });

  it('compression-level outside 1-9 with compress is refused', async () => {
    for (const level of [10, 0, -1]) {
      const out = await post(`get?arg=${dir}&compress=true&archive=true&compression-level=${level}`);
      expect(out.status).toBe(500);
      expect(JSON.parse(out.text).Message).toBe('compression level must be between 1 and 9');
    }
    expect((await post(`get?arg=${dir}&archive=true&compression-level=10`)).status).toBe(200);
  });
});
