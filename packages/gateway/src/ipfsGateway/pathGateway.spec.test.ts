import { createHash, randomBytes } from 'node:crypto';
import { CarBlockIterator } from '@ipld/car';
import { base36 } from 'multiformats/bases/base36';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayTestbed, type RawAnswer, startGatewayTestbed } from './startGatewayTestbed.js';

// The path, trustless and subdomain gateway specs (specs.ipfs.tech/http-gateways), table-driven,
// against a real gateway and its embedded IPFS node, content added through /api/v0 with
// kubo-rpc-client. Kubo's documented behaviour is the reference for each status and header.

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const BIG = randomBytes(1024 * 1024 + 12_345); // five 256 KiB leaves and a short one
const INDEX = '<!DOCTYPE html><html><body><h1>nodegate site</h1><script src="app.js"></script></body></html>';

let tb: GatewayTestbed;
let root: string;
/** CID of each added path below the root (`img/logo.png`, …). */
const cids = new Map<string, string>();
let v0: string;
let cbor: CID;
const base = '/ipfs-gateway/dev';

beforeAll(async () => {
  tb = await startGatewayTestbed();
  const entries = [
    { path: 'site/index.html', content: Buffer.from(INDEX) },
    { path: 'site/app.js', content: Buffer.from('document.title = "ok";\n') },
    { path: 'site/img/logo.png', content: PNG },
    { path: 'site/readme', content: Buffer.from('plain words, no extension\n') },
    { path: 'site/data.bin', content: BIG },
    { path: 'site/notes/<img src=x onerror=alert(1)>.txt', content: Buffer.from('escaped?\n') },
    { path: 'site/notes/тест.txt', content: Buffer.from('utf-8 name\n') },
  ];
  for await (const r of tb.kubo.addAll(entries, { cidVersion: 1, rawLeaves: true })) {
    cids.set(r.path.replace(/^site\/?/, ''), r.cid.toString());
  }
  root = cids.get('')!;
  v0 = (await tb.kubo.add('a CIDv0 file\n', { cidVersion: 0 })).cid.toString();
  cbor = await tb.kubo.dag.put(
    { hello: 'world', file: CID.parse(cids.get('app.js')!) },
    { storeCodec: 'dag-cbor', pin: true },
  );
}, 120_000);

afterAll(async () => {
  await tb?.stop();
});

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  tb.get(`${base}${path}`, { headers, method });

interface Case {
  readonly name: string;
  readonly path: () => string;
  readonly headers?: Record<string, string>;
  readonly method?: string;
  readonly status: number;
  readonly expect?: (a: RawAnswer) => void;
}

const cases: Case[] = [
  {
    name: 'a file: type by extension, length, ETag, immutable caching, X-Ipfs-Path and X-Ipfs-Roots',
    path: () => `/ipfs/${root}/app.js`,
    status: 200,
    expect: (a) => {
      expect(a.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(a.headers['content-length']).toBe(String('document.title = "ok";\n'.length));
      expect(a.headers.etag).toBe(`"${cids.get('app.js')}"`);
      expect(a.headers['cache-control']).toBe('public, max-age=29030400, immutable');
      expect(a.headers['x-ipfs-path']).toBe(`/ipfs/${root}/app.js`);
      expect(a.headers['x-ipfs-roots']).toBe(`${root},${cids.get('app.js')}`);
      expect(a.headers['accept-ranges']).toBe('bytes');
      expect(a.headers['access-control-allow-origin']).toBe('*');
    },
  },
  {
    name: 'a file without extension: sniffed as text',
    path: () => `/ipfs/${root}/readme`,
    status: 200,
    expect: (a) => expect(a.headers['content-type']).toBe('text/plain; charset=utf-8'),
  },
  {
    name: 'an image: by extension',
    path: () => `/ipfs/${root}/img/logo.png`,
    status: 200,
    expect: (a) => {
      expect(a.headers['content-type']).toBe('image/png');
      expect(a.body.equals(PNG)).toBe(true);
    },
  },
  {
    name: 'a file of many blocks: streamed whole, its bytes exact',
    path: () => `/ipfs/${root}/data.bin`,
    status: 200,
    expect: (a) => {
      expect(a.headers['content-length']).toBe(String(BIG.length));
      expect(a.headers['content-type']).toBe('application/octet-stream');
      expect(a.body.equals(BIG)).toBe(true);
    },
  },
  {
    name: 'a directory with index.html: the page, not a listing',
    path: () => `/ipfs/${root}/`,
    status: 200,
    expect: (a) => {
      expect(a.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(a.body.toString()).toBe(INDEX);
    },
  },
  {
    name: 'a directory without its trailing slash: 301, query kept',
    path: () => `/ipfs/${root}?x=1`,
    status: 301,
    expect: (a) => expect(a.headers.location).toBe(`${base}/ipfs/${root}/?x=1`),
  },
  {
    name: 'a directory without index.html: a generated listing, names escaped',
    path: () => `/ipfs/${root}/notes/`,
    status: 200,
    expect: (a) => {
      const html = a.body.toString();
      expect(a.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(a.headers.etag).toMatch(/^"DirIndex-.+_CID-bafy/);
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;.txt');
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('href="%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E.txt"');
      expect(html).toContain('тест.txt');
      expect(html).toContain('href="%D1%82%D0%B5%D1%81%D1%82.txt"');
    },
  },
  {
    name: 'a path the DAG does not hold: 404 naming what exists',
    path: () => `/ipfs/${root}/img/nope.png`,
    status: 404,
    expect: (a) => expect(a.body.toString()).toContain(`no link named "nope.png" under /ipfs/${root}/img`),
  },
  { name: 'not a CID: 400', path: () => '/ipfs/not-a-cid', status: 400 },
  { name: 'IPNS: 501 (immutable content only)', path: () => '/ipns/example.com', status: 501 },
  { name: 'no CID: 404', path: () => '/ipfs/', status: 404 },
  { name: 'a method other than GET and HEAD: 405', path: () => `/ipfs/${root}/app.js`, method: 'POST', status: 405 },
  {
    name: 'Accept naming only a format not served (tar): 406',
    path: () => `/ipfs/${root}/`,
    headers: { accept: 'application/x-tar' },
    status: 406,
  },
  { name: 'format=tar: 400', path: () => `/ipfs/${root}/?format=tar`, status: 400 },
  {
    name: 'Range: one range, 206 with Content-Range, the exact bytes across a block boundary',
    path: () => `/ipfs/${root}/data.bin`,
    headers: { range: 'bytes=262100-262299' },
    status: 206,
    expect: (a) => {
      expect(a.headers['content-range']).toBe(`bytes 262100-262299/${BIG.length}`);
      expect(a.headers['content-length']).toBe('200');
      expect(a.body.equals(BIG.subarray(262100, 262300))).toBe(true);
    },
  },
  {
    name: 'Range: a suffix',
    path: () => `/ipfs/${root}/data.bin`,
    headers: { range: 'bytes=-10' },
    status: 206,
    expect: (a) => expect(a.body.equals(BIG.subarray(BIG.length - 10))).toBe(true),
  },
  {
    name: 'Range: past the end, 416',
    path: () => `/ipfs/${root}/data.bin`,
    headers: { range: `bytes=${BIG.length}-` },
    status: 416,
    expect: (a) => expect(a.headers['content-range']).toBe(`bytes */${BIG.length}`),
  },
  {
    name: 'If-None-Match with the ETag: 304 without a body',
    path: () => `/ipfs/${root}/app.js`,
    headers: { 'if-none-match': 'W/"x", "PLACEHOLDER"' },
    status: 304,
    expect: (a) => expect(a.body.length).toBe(0),
  },
  {
    name: '?filename= (non-ASCII): inline, both forms',
    path: () => `/ipfs/${root}/readme?filename=${encodeURIComponent('testтест.txt')}`,
    status: 200,
    expect: (a) =>
      expect(a.headers['content-disposition']).toBe(
        `inline; filename="test____.txt"; filename*=UTF-8''test%D1%82%D0%B5%D1%81%D1%82.txt`,
      ),
  },
  {
    name: '?download=true: attachment',
    path: () => `/ipfs/${root}/app.js?download=true`,
    status: 200,
    expect: (a) => expect(a.headers['content-disposition']).toBe('attachment; filename="app.js"'),
  },
  {
    name: 'HEAD: the headers, no body',
    path: () => `/ipfs/${root}/data.bin`,
    method: 'HEAD',
    status: 200,
    expect: (a) => {
      expect(a.headers['content-length']).toBe(String(BIG.length));
      expect(a.body.length).toBe(0);
    },
  },
  {
    name: '?format=raw: one block, an attachment, nosniff, its bytes hashing to the CID',
    path: () => `/ipfs/${cids.get('app.js')}?format=raw`,
    status: 200,
    expect: (a) => {
      expect(a.headers['content-type']).toBe('application/vnd.ipld.raw');
      expect(a.headers['content-disposition']).toBe(`attachment; filename="${cids.get('app.js')}.bin"`);
      expect(a.headers['x-content-type-options']).toBe('nosniff');
      expect(a.headers.etag).toBe(`"${cids.get('app.js')}.raw"`);
      expect(createHash('sha256').update(a.body).digest('hex')).toBe(
        Buffer.from(CID.parse(cids.get('app.js')!).multihash.digest).toString('hex'),
      );
    },
  },
  {
    name: 'Accept: application/vnd.ipld.raw: the block, with Content-Location naming the format',
    path: () => `/ipfs/${root}`,
    headers: { accept: 'application/vnd.ipld.raw' },
    status: 200,
    expect: (a) => {
      expect(a.headers['content-type']).toBe('application/vnd.ipld.raw');
      expect(a.headers['content-location']).toBe(`${base}/ipfs/${root}?format=raw`);
    },
  },
  {
    name: 'the trustless probe bafkqaaa as a raw block: 200, empty',
    path: () => '/ipfs/bafkqaaa?format=raw',
    status: 200,
    expect: (a) => expect(a.body.length).toBe(0),
  },
  {
    name: 'a CAR of version 2: 400 (version 1 only)',
    path: () => `/ipfs/${root}?format=car&car-version=2`,
    status: 400,
  },
  {
    name: 'Accept a CAR of version 2 only: 406',
    path: () => `/ipfs/${root}`,
    headers: { accept: 'application/vnd.ipld.car; version=2' },
    status: 406,
  },
  { name: 'dag-scope not block, entity or all: 400', path: () => `/ipfs/${root}?format=car&dag-scope=x`, status: 400 },
  {
    name: 'entity-bytes wholly past the file: 400',
    path: () => `/ipfs/${root}/data.bin?format=car&entity-bytes=${BIG.length + 10}:*`,
    status: 400,
  },
  {
    name: '?format=dag-json of a DAG-CBOR node: converted',
    path: () => `/ipfs/${cbor}?format=dag-json`,
    status: 200,
    expect: (a) => {
      expect(a.headers['content-type']).toBe('application/vnd.ipld.dag-json');
      expect(JSON.parse(a.body.toString())).toEqual({ file: { '/': cids.get('app.js') }, hello: 'world' });
    },
  },
  {
    name: 'a DAG-CBOR node, deserialized: its own bytes as application/vnd.ipld.dag-cbor',
    path: () => `/ipfs/${cbor}`,
    status: 200,
    expect: (a) => {
      expect(a.headers['content-type']).toBe('application/vnd.ipld.dag-cbor');
      expect(createHash('sha256').update(a.body).digest('hex')).toBe(
        Buffer.from(cbor.multihash.digest).toString('hex'),
      );
    },
  },
  {
    name: 'a path through a DAG-CBOR link',
    path: () => `/ipfs/${cbor}/file`,
    status: 200,
    expect: (a) => expect(a.body.toString()).toBe('document.title = "ok";\n'),
  },
  {
    name: 'Service-Worker: script on a root without its slash: 400',
    path: () => `/ipfs/${root}`,
    headers: { 'service-worker': 'script' },
    status: 400,
  },
];

describe('path and trustless gateway spec, table-driven', () => {
  for (const c of cases) {
    it(c.name, async () => {
      let headers = c.headers ?? {};
      if (headers['if-none-match'])
        headers = { 'if-none-match': headers['if-none-match'].replace('PLACEHOLDER', cids.get('app.js')!) };
      const a = await get(c.path(), headers, c.method);
      expect(a.status, a.body.toString().slice(0, 300)).toBe(c.status);
      c.expect?.(a);
    });
  }
});

/** The blocks of a CAR, each checked against its CID (sha2-256) as it is read. */
async function readCar(body: Buffer): Promise<{ roots: string[]; blocks: string[] }> {
  const it = await CarBlockIterator.fromBytes(body);
  const roots = (await it.getRoots()).map(String);
  const blocks: string[] = [];
  for await (const { cid, bytes } of it) {
    const digest = await sha256.digest(bytes);
    expect(Buffer.from(digest.digest).equals(Buffer.from(cid.multihash.digest)), `block ${cid} hashes to its CID`).toBe(
      true,
    );
    blocks.push(cid.toString());
  }
  return { roots, blocks };
}

describe('CAR answers, read back block by block', () => {
  it('dag-scope=all of the site: every block of the DAG once, verified, the root first', async () => {
    const a = await get(`/ipfs/${root}?format=car`);
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/vnd.ipld.car; version=1; order=dfs; dups=n');
    expect(a.headers['content-disposition']).toBe(`attachment; filename="${root}.car"`);
    expect(a.headers.etag).toMatch(/^W\/"/);
    const { roots, blocks } = await readCar(a.body);
    expect(roots).toEqual([root]);
    expect(blocks[0]).toBe(root);
    const refs: string[] = [];
    for await (const r of tb.kubo.refs(root, { recursive: true, unique: true })) refs.push(r.ref);
    expect(new Set(blocks)).toEqual(new Set([root, ...refs]));
    expect(blocks.length).toBe(new Set(blocks).size);
  });

  it('dag-scope=block with a path: the blocks that verify the path, then the terminal block', async () => {
    const a = await get(`/ipfs/${root}/img/logo.png?format=car&dag-scope=block`);
    const { blocks } = await readCar(a.body);
    expect(blocks).toEqual([root, cids.get('img'), cids.get('img/logo.png')]);
  });

  it('dag-scope=entity of a file: all its blocks; of a directory: its own node only', async () => {
    const file = await readCar((await get(`/ipfs/${root}/data.bin?format=car&dag-scope=entity`)).body);
    const leaves: string[] = [];
    for await (const r of tb.kubo.refs(cids.get('data.bin')!, { recursive: true })) leaves.push(r.ref);
    expect(file.blocks).toEqual([root, cids.get('data.bin'), ...leaves]);
    const dir = await readCar((await get(`/ipfs/${root}/notes?format=car&dag-scope=entity`)).body);
    expect(dir.blocks).toEqual([root, cids.get('notes')]);
  });

  it('entity-bytes: only the blocks a byte range needs (first bytes, last bytes, a middle range)', async () => {
    const leaves: string[] = [];
    for await (const r of tb.kubo.refs(cids.get('data.bin')!, { recursive: false })) leaves.push(r.ref);
    expect(leaves.length).toBe(5);
    const part = async (range: string) =>
      (await readCar((await get(`/ipfs/${root}/data.bin?format=car&entity-bytes=${range}`)).body)).blocks.slice(2);
    expect(await part('0:99')).toEqual([leaves[0]]);
    expect(await part('-100:*')).toEqual([leaves[4]]);
    expect(await part('262144:524288')).toEqual([leaves[1], leaves[2]]);
  });

  it('car-dups=y sends a repeated block every time; the default sends it once', async () => {
    const same = Buffer.from('the same leaf twice\n');
    let twice = '';
    for await (const r of tb.kubo.addAll(
      [
        { path: 'dup/a.txt', content: same },
        { path: 'dup/b.txt', content: same },
      ],
      { cidVersion: 1, rawLeaves: true },
    )) {
      if (r.path === 'dup') twice = r.cid.toString();
    }
    const dups = await get(`/ipfs/${twice}?format=car&car-dups=y`);
    expect(dups.headers['content-type']).toContain('dups=y');
    expect((await readCar(dups.body)).blocks.length).toBe(3);
    expect((await readCar((await get(`/ipfs/${twice}?format=car`)).body)).blocks.length).toBe(2);
  });

  it('the trustless probe bafkqaaa as a CAR: its root named, no identity block sent', async () => {
    const { roots, blocks } = await readCar((await get('/ipfs/bafkqaaa?format=car')).body);
    expect(roots).toEqual(['bafkqaaa']);
    expect(blocks).toEqual([]);
  });
});

describe('subdomain gateway (host forms on *.ipfs.localhost)', () => {
  const host = () => `dev.ipfs.localhost:${tb.port}`;

  it('a path request on the host form: 301 to its CIDv1 base32 subdomain, path and query kept', async () => {
    const v1 = CID.parse(v0).toV1().toString();
    const a = await tb.get(`/ipfs/${v0}/a/b?x=1`, { host: host() });
    expect(a.status).toBe(301);
    expect(a.headers.location).toBe(`http://${v1}.ipfs.dev.ipfs.localhost:${tb.port}/a/b?x=1`);
  });

  it('trustless answers on the host form are served as they are (no redirect)', async () => {
    const a = await tb.get(`/ipfs/${root}?format=raw`, { host: host() });
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/vnd.ipld.raw');
  });

  it('the subdomain form serves the root at / (its index.html) and paths below it', async () => {
    const sub = `${root}.ipfs.dev.ipfs.localhost:${tb.port}`;
    const index = await tb.get('/', { host: sub });
    expect(index.status).toBe(200);
    expect(index.body.toString()).toBe(INDEX);
    const logo = await tb.get('/img/logo.png', { host: sub });
    expect(logo.headers['content-type']).toBe('image/png');
    const notes = await tb.get('/notes', { host: sub });
    expect(notes.status).toBe(301);
    expect(notes.headers.location).toBe('/notes/');
  });

  it('a subdomain label that is not the canonical CIDv1 base32 (base36 here): 301 to the canonical one', async () => {
    const b36 = CID.parse(root).toString(base36);
    const a = await tb.get('/app.js', { host: `${b36}.ipfs.dev.ipfs.localhost:${tb.port}` });
    expect(a.status).toBe(301);
    expect(a.headers.location).toBe(`http://${root}.ipfs.dev.ipfs.localhost:${tb.port}/app.js`);
  });

  it('no such gateway, or a host under the domain that is no form: 404', async () => {
    expect((await tb.get(`/ipfs/${root}/`, { host: `nobody.ipfs.localhost:${tb.port}` })).status).toBe(404);
    expect((await tb.get('/', { host: `a.b.dev.ipfs.localhost:${tb.port}` })).status).toBe(404);
    expect((await tb.get(`/ipfs-gateway/nobody/ipfs/${root}/`)).status).toBe(404);
  });
});
