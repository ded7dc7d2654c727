import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProcess } from '../embedded/startAnvil.js';
import { startIpfsNode } from '../embedded/startIpfsNode.js';
import { basicAuth, type IpfsTestGateway, startIpfsTestGateway } from './startIpfsTestGateway.js';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  trailers: Record<string, string | undefined>;
  error?: Error;
}

/** One raw HTTP exchange; `body` is sent as it is (a function streams it). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const done = (error?: Error) =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          trailers: res.trailers,
          ...(error ? { error } : {}),
        });
      res.on('end', () => done());
      res.on('error', (err) => done(err));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function multipart(parts: Array<{ data: Buffer | string; filename?: string }>) {
  const boundary = `b${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  parts.forEach((p, i) => {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file${i ? `-${i}` : ''}"; filename="${p.filename ?? 'f'}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function expectKuboError(answer: RawAnswer, status: number, message?: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json');
  const body = JSON.parse(answer.body.toString()) as { Message: string; Code: number; Type: string };
  expect(Object.keys(body)).toEqual(['Message', 'Code', 'Type']);
  expect(body.Type).toBe('error');
  if (message) expect(body.Message).toMatch(message);
}

let node: EmbeddedProcess;
let repo: string;
let gw: IpfsTestGateway;
let limited: IpfsTestGateway;
let api: string;
let auth: Record<string, string>;
let client: KuboRPCClient;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'nodegate-ipfs-wire-'));
  node = await startIpfsNode({ repo });
  [gw, limited] = await Promise.all([
    startIpfsTestGateway({ upstreamUrl: node.http }),
    startIpfsTestGateway({
      upstreamUrl: node.http,
      ipfs: { maxRequestBytes: 256 * 1024, maxStoredBytesPerKey: 100_000 },
    }),
  ]);
  api = `${gw.ipfsUrl}/api/v0`;
  auth = { authorization: gw.authorization };
  client = create({ url: api, headers: auth });
});

afterAll(async () => {
  await Promise.all([gw?.stop(), limited?.stop()]);
  await node?.stop();
  await rm(repo, { recursive: true, force: true });
});

describe('authentication (HTTP basic <API_KEY>:<API_KEY_SECRET>)', () => {
  it('401 with Kubo JSON and WWW-Authenticate for missing, unknown, malformed and wrong credentials', async () => {
    const cases: Record<string, string | undefined> = {
      missing: undefined,
      'unknown key': basicAuth(randomBytes(16).toString('hex'), gw.secret),
      'wrong secret': basicAuth(gw.key, randomBytes(16).toString('hex')),
      'no colon': `Basic ${Buffer.from(gw.key).toString('base64')}`,
      'not basic': `Bearer ${gw.key}`,
    };
    for (const [name, header] of Object.entries(cases)) {
      const res = await raw(`${api}/version`, header === undefined ? {} : { headers: { authorization: header } });
      expectKuboError(res, 401);
      expect(res.headers['www-authenticate'], name).toBe('Basic realm="nodegate IPFS"');
      expect(res.body.toString()).not.toContain(gw.key);
      expect(res.body.toString()).not.toContain(gw.secret);
    }
    const ok = await raw(`${api}/version`, { headers: auth });
    expect(ok.status).toBe(200);
  });

  it('a revoked key gets 401 at once', async () => {
    const other = await gw.createKey();
    expect((await raw(`${api}/version`, { headers: { authorization: other.authorization } })).status).toBe(200);
    await gw.revokeKey(other.key);
    const res = await raw(`${api}/version`, { headers: { authorization: other.authorization } });
    expectKuboError(res, 401, /invalid credentials/);
  });

  it('a 401 on an upload answers before the body is read, and discards the rest', async () => {
    const { body, contentType } = multipart([{ data: randomBytes(4 * 1024 * 1024) }]);
    const res = await raw(`${api}/add`, { headers: { 'content-type': contentType }, body });
    expectKuboError(res, 401);
  });
});

describe('Kubo transport rules', () => {
  it('405 with Allow: OPTIONS, POST for GET', async () => {
    const res = await raw(`${api}/version`, { method: 'GET', headers: auth });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('OPTIONS, POST');
    expect(res.body.toString()).toBe('405 - Method Not Allowed\n');
  });

  it('OPTIONS answers the CORS preflight without credentials', async () => {
    const res = await raw(`${api}/add`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']).toContain('Authorization');
    // Kubo's streaming headers are exposed (the gateway's shared CORS list may expose more)
    const exposed = (res.headers['access-control-expose-headers'] ?? '').split(/,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining(['X-Stream-Output', 'X-Chunked-Output', 'X-Content-Length', 'X-Stream-Error']),
    );
  });

  it('404 text for an unknown command or a path outside /api/v0', async () => {
    for (const url of [`${api}/no/such/command`, `${api}/`, `${gw.ipfsUrl}/api/v1/cat`, `${gw.ipfsUrl}/whatever`]) {
      const res = await raw(url, { headers: auth });
      expect(res.status, url).toBe(404);
      expect(res.body.toString()).toBe('404 page not found\n');
    }
  });

  it('403 in Kubo JSON for a known command outside the allowlist', async () => {
    for (const command of ['repo/gc', 'id', 'block/rm', 'swarm/peers', 'files/chroot', 'object/diff']) {
      const res = await raw(`${api}/${command}`, { headers: auth });
      expectKuboError(res, 403, new RegExp(`"${command}" is not allowed`));
    }
  });

  it('proxied answers keep Kubo headers, with CORS exposing X-Stream-Error', async () => {
    const { body, contentType } = multipart([{ data: 'hello\n', filename: 'a.txt' }]);
    const res = await raw(`${api}/add`, { headers: { ...auth, 'content-type': contentType }, body });
    expect(res.status).toBe(200);
    expect(res.headers['x-chunked-output']).toBe('1');
    expect(res.headers.trailer).toBe('X-Stream-Error');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('X-Stream-Error');
    expect(JSON.parse(res.body.toString())).toEqual({
      Name: 'a.txt',
      Hash: 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN',
      Size: '14',
    });
    const cat = await raw(`${api}/cat/QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN`, { headers: auth });
    expect(cat.headers['x-stream-output']).toBe('1');
    expect(cat.body.toString()).toBe('hello\n');
    const missing = await raw(`${api}/cat`, { headers: auth });
    expect(missing.status).toBe(400);
  });
});

describe('per-key limits', () => {
  it('413 for a request body over ipfs.maxRequestBytes (declared length or streamed)', async () => {
    const { body, contentType } = multipart([{ data: randomBytes(300 * 1024) }]);
    const url = `${limited.ipfsUrl}/api/v0/block/put`;
    const declared = await raw(url, {
      headers: { authorization: limited.authorization, 'content-type': contentType },
      body,
    });
    expectKuboError(declared, 413, /request body too large: the limit is 262144 bytes/);
    // chunked, no length: cut off while streaming (only-hash stores nothing: only the size limit applies)
    const streamed = await new Promise<RawAnswer>((resolve, reject) => {
      const req = request(
        `${limited.ipfsUrl}/api/v0/add?only-hash=true`,
        { method: 'POST', headers: { authorization: limited.authorization, 'content-type': contentType } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), trailers: {} }),
          );
        },
      );
      req.on('error', reject);
      for (let i = 0; i < body.byteLength; i += 16 * 1024) req.write(body.subarray(i, i + 16 * 1024));
      req.end();
    });
    expectKuboError(streamed, 413, /request body too large/);
    // the gateway still serves
    expect(
      (await raw(`${limited.ipfsUrl}/api/v0/version`, { headers: { authorization: limited.authorization } })).status,
    ).toBe(200);
  });

  it('uploads count towards the key’s stored bytes; past ipfs.maxStoredBytesPerKey stores get 413', async () => {
    const key = await limited.createKey();
    const headers = { authorization: key.authorization };
    const url = `${limited.ipfsUrl}/api/v0`;
    const first = multipart([{ data: randomBytes(60_000) }]);
    const ok = await raw(`${url}/add`, {
      headers: { ...headers, 'content-type': first.contentType },
      body: first.body,
    });
    expect(ok.status).toBe(200);
    const cid = (JSON.parse(ok.body.toString()) as { Hash: string }).Hash;
    const second = multipart([{ data: randomBytes(60_000) }]);
    const refused = await raw(`${url}/add`, {
      headers: { ...headers, 'content-type': second.contentType },
      body: second.body,
    });
    expectKuboError(refused, 413, /storage limit reached: this API key has stored 6\d{4} of 100000 bytes allowed/);
    const dag = multipart([{ data: JSON.stringify({ big: 'x'.repeat(50_000) }) }]);
    expectKuboError(
      await raw(`${url}/dag/put`, { headers: { ...headers, 'content-type': dag.contentType }, body: dag.body }),
      413,
      /storage limit reached/,
    );
    // reads are not limited, and other keys have their own budget
    expect((await raw(`${url}/cat?arg=${cid}`, { headers })).body.byteLength).toBe(60_000);
    const other = await raw(`${url}/add`, {
      headers: { authorization: limited.authorization, 'content-type': second.contentType },
      body: second.body,
    });
    expect(other.status).toBe(200);
  });
});

/** Adds `bytes` of random data with raw leaves; returns the root and the last leaf. */
async function addLarge(bytes: number): Promise<{ root: string; lastLeaf: string }> {
  const { cid } = await client.add(randomBytes(bytes), { pin: false, rawLeaves: true });
  let at = cid.toString();
  while (true) {
    const ls = JSON.parse((await raw(`${api}/ls?arg=${at}`, { headers: auth })).body.toString()) as {
      Objects: Array<{ Links: Array<{ Hash: string }> }>;
    };
    const last = ls.Objects[0]!.Links.at(-1);
    if (last === undefined) return { root: cid.toString(), lastLeaf: at };
    at = last.Hash;
  }
}

describe('streaming proxy', () => {
  it('carries the X-Stream-Error trailer of a failure after streaming started (block removed under a large cat)', async () => {
    const size = 32 * 1024 * 1024;
    const { root, lastLeaf } = await addLarge(size);
    const result = await new Promise<RawAnswer & { received: number }>((resolve) => {
      const req = request(`${api}/cat?arg=${root}`, { method: 'POST', headers: auth }, (res) => {
        res.pause();
        let received = 0;
        // block/rm is not in the allowlist: remove the block on the node itself
        raw(`${node.http}/api/v0/block/rm?arg=${lastLeaf}`).then((rmRes) => {
          expect(JSON.parse(rmRes.body.toString())).toEqual({ Hash: lastLeaf });
          res.on('data', (c: Buffer) => {
            received += c.byteLength;
          });
          const done = (error?: Error) =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.alloc(0),
              trailers: res.trailers,
              received,
              ...(error ? { error } : {}),
            });
          res.on('error', done);
          res.on('end', () => done());
          res.resume();
        });
      });
      req.end();
    });
    expect(result.status).toBe(200);
    expect(result.error).toBeUndefined();
    expect(result.received).toBeLessThan(size);
    expect(result.trailers['x-stream-error']).toBe(
      `block was not found locally (offline): ipld: could not find ${lastLeaf}`,
    );
  });

  describe('against a scripted upstream', () => {
    let fake: Server;
    let fakeUrl: string;
    let viaFake: IpfsTestGateway;
    let closedUpstream: IpfsTestGateway;
    let resetting: IpfsTestGateway;
    let upstreamSawClose: () => void = () => {};

    beforeAll(async () => {
      fake = createServer((req, res) => {
        const path = req.url ?? '';
        if (path.startsWith('/api/v0/version')) {
          req.socket.destroy(); // before any byte
        } else if (path.startsWith('/api/v0/cat')) {
          res.writeHead(200, { 'content-type': 'text/plain', 'x-stream-output': '1', trailer: 'X-Stream-Error' });
          res.write(Buffer.alloc(64 * 1024, 1));
          setTimeout(() => req.socket.destroy(), 50); // reset mid-answer
        } else if (path.startsWith('/api/v0/get')) {
          // endless slow stream: the test disconnects and expects the upstream request aborted
          res.writeHead(200, { 'x-stream-output': '1' });
          const timer = setInterval(() => res.write(Buffer.alloc(1024)), 10);
          res.on('close', () => {
            clearInterval(timer);
            upstreamSawClose();
          });
        } else if (path.startsWith('/api/v0/dag/export')) {
          res.writeHead(200, { 'x-stream-output': '1', trailer: 'X-Stream-Error' });
          res.write('partial');
          res.addTrailers({ 'X-Stream-Error': 'something broke' });
          res.end();
        } else if (path.startsWith('/api/v0/block/stat')) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"Message":"blockservice: key not found","Code":0,"Type":"error"}\n');
        } else {
          res.writeHead(404).end();
        }
      });
      await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
      fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
      await new Promise((resolve) => closed.close(resolve));
      [viaFake, closedUpstream, resetting] = await Promise.all([
        startIpfsTestGateway({ upstreamUrl: fakeUrl }),
        startIpfsTestGateway({ upstreamUrl: closedUrl }),
        startIpfsTestGateway({ upstreamUrl: fakeUrl, ipfs: { resetOnStreamError: true } }),
      ]);
    });

    afterAll(async () => {
      await Promise.all([viaFake?.stop(), closedUpstream?.stop(), resetting?.stop()]);
      fake?.closeAllConnections();
      await new Promise((resolve) => fake?.close(resolve));
    });

    it('502 in Kubo JSON, without the upstream URL, when the upstream fails before any byte', async () => {
      for (const t of [viaFake, closedUpstream]) {
        const res = await raw(`${t.ipfsUrl}/api/v0/version`, { headers: { authorization: t.authorization } });
        expectKuboError(res, 502, /^upstream IPFS node unavailable$/);
        expect(res.body.toString()).not.toMatch(/127\.0\.0\.1|:\d{2,5}/);
      }
    });

    it('an upstream reset mid-answer resets the client connection', async () => {
      const res = await raw(`${viaFake.ipfsUrl}/api/v0/cat?arg=x`, {
        headers: { authorization: viaFake.authorization },
      });
      expect(res.status).toBe(200);
      expect(res.error).toBeDefined();
      expect(res.body.byteLength).toBeLessThanOrEqual(64 * 1024);
    });

    it('trailers and error statuses pass through unchanged', async () => {
      const headers = { authorization: viaFake.authorization };
      const exp = await raw(`${viaFake.ipfsUrl}/api/v0/dag/export?arg=x`, { headers });
      expect(exp.status).toBe(200);
      expect(exp.body.toString()).toBe('partial');
      expect(exp.trailers['x-stream-error']).toBe('something broke');
      const stat = await raw(`${viaFake.ipfsUrl}/api/v0/block/stat?arg=x`, { headers });
      expectKuboError(stat, 500, /^blockservice: key not found$/);
    });

    it('with ipfs.resetOnStreamError, a stream error resets the client connection instead', async () => {
      const res = await raw(`${resetting.ipfsUrl}/api/v0/dag/export?arg=x`, {
        headers: { authorization: resetting.authorization },
      });
      expect(res.status).toBe(200);
      expect(res.error).toBeDefined();
      expect(res.body.toString()).toBe('partial');
    });

    it('a client that disconnects aborts the upstream request', async () => {
      const closed = new Promise<void>((resolve) => {
        upstreamSawClose = resolve;
      });
      await new Promise<void>((resolve) => {
        const req = request(
          `${viaFake.ipfsUrl}/api/v0/get?arg=x`,
          { method: 'POST', headers: { authorization: viaFake.authorization } },
          (res) => {
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          },
        );
        req.on('error', () => undefined);
        req.end();
      });
      await expect(
        Promise.race([closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 5_000))]),
      ).resolves.toBe('closed');
    });
  });
});

describe('object/* (answered by the gateway over block/get and block/put)', () => {
  const te = new TextEncoder();

  async function planetsDir(): Promise<CID> {
    const added = [];
    for await (const a of client.addAll([
      { path: 'planets/mars.txt', content: te.encode('Hello Mars!\n') },
      { path: 'planets/venus.txt', content: te.encode('Hello Venus!\n') },
    ]))
      added.push(a);
    return added.at(-1)!.cid;
  }

  async function post(
    command: string,
    params: Record<string, string>,
    init: { body?: Buffer; contentType?: string } = {},
  ) {
    const query = new URLSearchParams(params).toString();
    return raw(`${api}/${command}${query ? `?${query}` : ''}`, {
      headers: init.contentType ? { ...auth, 'content-type': init.contentType } : auth,
      ...(init.body ? { body: init.body } : {}),
    });
  }

  it('object/get matches dag/get of the same dag-pb node', async () => {
    const dir = await planetsDir();
    expect(dir.toString()).toBe('QmWSgS32xQEcXMeqd3YPJLrNBLSdsfYCep2U7CFkyrjXwY');
    const viaDag = dagJson.decode((await post('dag/get', { arg: dir.toString() })).body) as {
      Data: Uint8Array;
      Links: Array<{ Hash: CID; Name: string; Tsize: number }>;
    };
    const got = await post('object/get', { arg: dir.toString(), encoding: 'json', 'data-encoding': 'base64' });
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/json');
    const obj = JSON.parse(got.body.toString()) as { Links: unknown[]; Data: string };
    expect(Object.keys(obj)).toEqual(['Links', 'Data']);
    expect(obj.Links).toEqual(viaDag.Links.map((l) => ({ Name: l.Name, Hash: l.Hash.toString(), Size: l.Tsize })));
    expect(Buffer.from(obj.Data, 'base64')).toEqual(Buffer.from(viaDag.Data));
    // data-encoding=text (the default) and a path argument through a link
    const text = JSON.parse((await post('object/get', { arg: dir.toString() })).body.toString()) as { Data: string };
    expect(text.Data).toBe(new TextDecoder().decode(viaDag.Data));
    const mars = JSON.parse((await post('object/get', { arg: `/ipfs/${dir}/mars.txt` })).body.toString()) as {
      Links: unknown[];
      Data: string;
    };
    expect(mars.Links).toEqual([]);
    expect(mars.Data).toContain('Hello Mars!\n');
    // the CID as a trailing path segment
    expect((await post(`object/get/${dir}`, {})).body.toString()).toBe(
      (await post('object/get', { arg: dir.toString() })).body.toString(),
    );
  });

  it('object/stat, object/links and object/data', async () => {
    const dir = await planetsDir();
    const block = (await post('block/get', { arg: dir.toString() })).body;
    const node = dagPb.decode(block);
    const stat = JSON.parse((await post('object/stat', { arg: dir.toString() })).body.toString());
    const dataSize = node.Data?.byteLength ?? 0;
    expect(stat).toEqual({
      Hash: dir.toString(),
      NumLinks: 2,
      BlockSize: block.byteLength,
      LinksSize: block.byteLength - dataSize,
      DataSize: dataSize,
      CumulativeSize: 146, // what add reports for this directory
    });
    const links = JSON.parse((await post('object/links', { arg: dir.toString() })).body.toString());
    expect(links).toEqual({
      Hash: dir.toString(),
      Links: node.Links.map((l) => ({ Name: l.Name, Hash: l.Hash.toString(), Size: l.Tsize })),
    });
    const data = await post('object/data', { arg: dir.toString() });
    expect(data.headers['x-stream-output']).toBe('1');
    expect(data.body).toEqual(Buffer.from(node.Data!));
  });

  it('object/links of a dag-cbor node lists the CIDs it holds, as Kubo did (issue 23 item 6)', async () => {
    const [one, two] = [await client.add(te.encode('one\n')), await client.add(te.encode('two\n'))];
    const cbor = await client.dag.put({ a: one.cid, nested: { b: two.cid }, n: 1 }, { storeCodec: 'dag-cbor' });
    const res = await post('object/links', { arg: cbor.toString() });
    expect(res.status).toBe(200);
    const links = JSON.parse(res.body.toString()) as { Hash: string; Links: unknown[] };
    expect(links.Hash).toBe(cbor.toString());
    expect(links.Links).toEqual([
      { Name: '', Hash: one.cid.toString(), Size: 0 },
      { Name: '', Hash: two.cid.toString(), Size: 0 },
    ]);
  });

  it('object/put stores a dag-pb node (CIDv0) from JSON, base64 data and links; object/get reads it back', async () => {
    const mars = await client.add(te.encode('Hello Mars!\n'));
    const input = {
      Data: Buffer.from([8, 1]).toString('base64'),
      Links: [{ Name: 'mars.txt', Hash: mars.cid.toString(), Size: 20 }],
    };
    const { body, contentType } = multipart([{ data: JSON.stringify(input) }]);
    const res = await post('object/put', { datafieldenc: 'base64', pin: 'true' }, { body, contentType });
    expect(res.status).toBe(200);
    const put = JSON.parse(res.body.toString()) as { Hash: string; Links: unknown[] };
    const expected = CID.createV0(
      await sha256.digest(
        dagPb.encode(
          dagPb.prepare({ Data: new Uint8Array([8, 1]), Links: [{ Name: 'mars.txt', Hash: mars.cid, Tsize: 20 }] }),
        ),
      ),
    );
    expect(put).toEqual({
      Hash: expected.toString(),
      Links: [{ Name: 'mars.txt', Hash: mars.cid.toString(), Size: 20 }],
    });
    const back = JSON.parse((await post('object/get', { arg: put.Hash, 'data-encoding': 'base64' })).body.toString());
    expect(back).toEqual({ Links: put.Links, Data: input.Data });
    const pins = JSON.parse((await post('pin/ls', { arg: put.Hash })).body.toString());
    expect(pins.Keys[put.Hash].Type).toBe('recursive');
    // text data (the default encoding)
    const textPut = multipart([{ data: JSON.stringify({ Data: 'plain text', Links: [] }) }]);
    const t = JSON.parse(
      (await post('object/put', {}, { body: textPut.body, contentType: textPut.contentType })).body.toString(),
    );
    expect(JSON.parse((await post('object/get', { arg: t.Hash })).body.toString())).toEqual({
      Links: [],
      Data: 'plain text',
    });
  });

  it('errors in Kubo JSON: missing argument, bad input, a node that is not dag-pb, a missing block', async () => {
    expectKuboError(await post('object/get', {}), 400, /argument "key" is required/);
    const bad = multipart([{ data: 'not json' }]);
    expectKuboError(
      await post('object/put', {}, { body: bad.body, contentType: bad.contentType }),
      400,
      /invalid JSON/,
    );
    const cbor = await client.dag.put({ hello: 'world' });
    expectKuboError(await post('object/stat', { arg: cbor.toString() }), 500, /dag-pb nodes only/);
    const missing = CID.createV0(await sha256.digest(randomBytes(16)));
    expectKuboError(await post('object/get', { arg: missing.toString() }), 500);
  });
});

describe('/health', () => {
  it('reports the IPFS upstream next to the networks', async () => {
    // the probe runs in the background; the tests above kept the node busy, so wait for a probe
    // made after this test began (one every 5 s, sooner after a failure) and read that
    const since = Date.now();
    let res = await fetch(`${gw.gw.url}/health`);
    let body = (await res.json()) as any;
    while (Date.parse(body.networks.ipfs?.upstreams[0]?.lastProbeAt ?? 0) < since && Date.now() - since < 20_000) {
      await new Promise((r) => setTimeout(r, 250));
      res = await fetch(`${gw.gw.url}/health`);
      body = (await res.json()) as any;
    }
    expect(res.status).toBe(200);
    expect(body.networks.ipfs).toMatchObject({ family: 'ipfs', healthy: true });
    expect(JSON.stringify(body)).not.toContain(node.http);
  });
});
