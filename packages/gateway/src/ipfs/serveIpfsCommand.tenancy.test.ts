import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIpfsRoute } from './createIpfsRoute.js';
import { DEFAULT_IPFS_ALLOW } from './ipfsCommands.js';
import { type HarnessKey, type IpfsRouteHarness, startIpfsRouteHarness } from './startIpfsRouteHarness.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One raw exchange; `path` is sent exactly as given (as `curl --path-as-is`). */
function send(
  base: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Buffer | Buffer[] } = {},
): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: 'POST', path, headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const parts = options.body === undefined ? [] : Array.isArray(options.body) ? options.body : [options.body];
    for (const p of parts) req.write(p);
    req.end();
  });
}

function multipart(parts: Array<{ data: Buffer | string; disposition?: string; filename?: string }>) {
  const boundary = `b${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  parts.forEach((p, i) => {
    const disposition = p.disposition ?? `form-data; name="file${i ? `-${i}` : ''}"; filename="${p.filename ?? 'f'}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function kuboError(answer: Answer, status: number): string {
  expect(answer.status, answer.body.toString()).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json');
  const body = JSON.parse(answer.body.toString()) as { Message: string; Code: number; Type: string };
  expect(Object.keys(body)).toEqual(['Message', 'Code', 'Type']);
  expect(body.Type).toBe('error');
  return body.Message;
}

async function all<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const v of source) out.push(v);
  return out;
}

let h: IpfsRouteHarness;
let a: HarnessKey;
let b: HarnessKey;
let clientA: KuboRPCClient;
let clientB: KuboRPCClient;
const api = () => `${h.ipfsUrl}/api/v0`;
const apiPath = (rest: string) => `/ipfs/api/v0/${rest}`;
/** The node itself (the gateway's view is checked against it). */
const onNode = (command: string, query = '') => send(h.node.http, `/api/v0/${command}${query}`);
let onLimitedNode: (command: string, query?: string) => Promise<Answer>;

beforeAll(async () => {
  h = await startIpfsRouteHarness();
  a = h.createKey();
  b = h.createKey();
  clientA = create({ url: api(), headers: { authorization: a.authorization } });
  clientB = create({ url: api(), headers: { authorization: b.authorization } });
});

afterAll(async () => {
  await h?.stop();
});

describe('defect 1: the command is decided on the normalised path, and only that is forwarded', () => {
  it('version/../block/rm (sent as is) is refused with 400 and the block stays', async () => {
    const block = randomBytes(32);
    const cid = (await clientA.block.put(block)).toString();
    const res = await send(h.ipfsUrl, apiPath(`version/../block/rm?arg=${cid}`), {
      headers: { authorization: a.authorization },
    });
    expect(kuboError(res, 400)).toMatch(/request path is not normalised .*send the command path as it normalises/);
    const stat = await onNode('block/stat', `?arg=${cid}`);
    expect(stat.status).toBe(200);
    expect(await clientA.block.get(CID.parse(cid))).toEqual(new Uint8Array(block));
  });

  it('the same trick cannot reach repo/gc, id or add (an add past the quota)', async () => {
    const unpinned = (await clientA.add(randomBytes(100), { pin: false })).cid.toString();
    const { body, contentType } = multipart([{ data: randomBytes(1000) }]);
    for (const command of ['repo/gc', 'id', 'add']) {
      const res = await send(h.ipfsUrl, apiPath(`version/../${command}`), {
        headers: { authorization: a.authorization, 'content-type': contentType },
        body,
      });
      kuboError(res, 400);
    }
    // gc did not run: the unpinned block is still there
    expect((await onNode('block/stat', `?arg=${unpinned}`)).status).toBe(200);
  });

  it('every spelling that normalises differently is refused: . .. // %2f %2e %5c (any case) and backslashes', async () => {
    const paths = [
      'version/./id',
      './id',
      '../id',
      'version/%2e%2e/id',
      'version/%2E%2E/id',
      'block%2frm',
      'block%2Frm',
      'version/%2e/id',
      'version%5c..%5cid',
      'version\\..\\id',
      'block//rm',
      'version/',
      'cat/Qm%2f..',
    ];
    for (const p of paths) {
      const res = await send(h.ipfsUrl, apiPath(p), { headers: { authorization: a.authorization } });
      expect(res.status, p).toBe(400);
      expect(kuboError(res, 400), p).toMatch(/not normalised/);
    }
    // a normal path still works, with its trailing argument
    const cid = (await clientA.add('hello\n')).cid.toString();
    const cat = await send(h.ipfsUrl, apiPath(`cat/${cid}`), { headers: { authorization: a.authorization } });
    expect(cat.body.toString()).toBe('hello\n');
  });

  describe('what reaches the upstream', () => {
    let fake: Server;
    let gateway: Server;
    let seen: string[];
    let base: string;

    beforeAll(async () => {
      seen = [];
      fake = createServer((req, res) => {
        seen.push(req.url ?? '');
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"Version":"0.0.0"}\n'));
      });
      await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
      const upstreamUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
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
        pins: h.pins,
      });
      gateway = createServer((req, res) => route.serve(a.key, req, res, (req.url ?? '/').slice('/ipfs'.length)));
      await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      gateway?.closeAllConnections();
      fake?.closeAllConnections();
      await Promise.all([new Promise((r) => gateway?.close(r)), new Promise((r) => fake?.close(r))]);
    });

    it('the resolved command path, with the trailing argument moved into the query', async () => {
      await send(base, '/ipfs/api/v0/version?number=true');
      await send(base, '/ipfs/api/v0/cat/QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN?offset=1&arg=Qmother');
      await send(base, '/ipfs/api/v0/dag/get/bafyreib%20x?output-codec=dag-json');
      // the route's background health probe (a bare `version` every 5 s) is not what this checks
      expect(seen.filter((u) => u !== '/api/v0/version')).toEqual([
        '/api/v0/version?number=true',
        '/api/v0/cat?offset=1&arg=QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN&arg=Qmother',
        '/api/v0/dag/get?output-codec=dag-json&arg=bafyreib+x',
      ]);
    });
  });
});

describe('defect 2: pins are per key', () => {
  it('pin/ls shows a key only its own pins (JSON, stream, arg, type filter)', async () => {
    const mine = (await clientA.add(randomBytes(300))).cid;
    const dir = await all(
      clientA.addAll([{ path: `d${randomBytes(3).toString('hex')}/x.txt`, content: randomBytes(30) }]),
    );
    const [fileInDir, dirRoot] = [dir[0]!.cid, dir[1]!.cid];
    const theirs = (await clientB.add(randomBytes(300))).cid;

    const lsJson = async (key: HarnessKey, query = '') =>
      (
        JSON.parse(
          (
            await send(h.ipfsUrl, apiPath(`pin/ls${query}`), { headers: { authorization: key.authorization } })
          ).body.toString(),
        ) as {
          Keys: Record<string, { Type: string }>;
        }
      ).Keys;
    const keysA = await lsJson(a);
    expect(keysA[mine.toString()]?.Type).toBe('recursive');
    expect(keysA[dirRoot.toString()]?.Type).toBe('recursive');
    expect(keysA[fileInDir.toString()]?.Type).toBe('indirect');
    expect(keysA[theirs.toString()]).toBeUndefined();
    const keysB = await lsJson(b);
    expect(Object.keys(keysB)).toEqual([theirs.toString()]);
    expect(await lsJson(b, '?type=indirect')).toEqual({});
    expect(Object.keys(await lsJson(a, '?type=recursive'))).not.toContain(fileInDir.toString());

    // kubo-rpc-client (stream=true NDJSON)
    const streamed = (await all(clientB.pin.ls())).map((p) => `${p.cid} ${p.type}`);
    expect(streamed).toEqual([`${theirs} recursive`]);
    expect((await all(clientA.pin.ls({ paths: [fileInDir] })))[0]?.type).toBe(`indirect through ${dirRoot}`);

    // another key's pin answers exactly as a CID nobody pins
    const nobody = (await clientA.add(randomBytes(50), { pin: false })).cid;
    const viaGateway = await send(h.ipfsUrl, apiPath(`pin/ls?arg=${mine}`), {
      headers: { authorization: b.authorization },
    });
    const unpinned = await send(h.ipfsUrl, apiPath(`pin/ls?arg=${nobody}`), {
      headers: { authorization: b.authorization },
    });
    expect(viaGateway.status).toBe(unpinned.status);
    expect(viaGateway.status).toBe(500);
    expect(kuboError(viaGateway, 500)).toBe(`path '${mine}' is not pinned`);
    expect(kuboError(unpinned, 500)).toBe(`path '${nobody}' is not pinned`);
    // and so does a CID under another key's recursive pin
    expect(
      kuboError(
        await send(h.ipfsUrl, apiPath(`pin/ls?arg=${fileInDir}`), { headers: { authorization: b.authorization } }),
        500,
      ),
    ).toBe(`path '${fileInDir}' is not pinned`);
  });

  it('pin/rm of another key’s pin answers "not pinned"; its own removes ownership, unpinning upstream only for the last owner', async () => {
    const cid = (await clientA.add(randomBytes(400))).cid;
    const refused = await send(h.ipfsUrl, apiPath(`pin/rm?arg=${cid}`), {
      headers: { authorization: b.authorization },
    });
    expect(kuboError(refused, 500)).toBe('not pinned or pinned indirectly');
    expect((await onNode('pin/ls', `?arg=${cid}`)).status).toBe(200);
    expect((await all(clientA.pin.ls({ paths: [cid] })))[0]?.type).toBe('recursive');

    // both keys pin it: both own it
    expect((await clientB.pin.add(cid)).toString()).toBe(cid.toString());
    expect((await all(clientB.pin.ls({ paths: [cid] })))[0]?.type).toBe('recursive');
    expect((await clientA.pin.rm(cid)).toString()).toBe(cid.toString());
    expect(
      kuboError(
        await send(h.ipfsUrl, apiPath(`pin/ls?arg=${cid}`), { headers: { authorization: a.authorization } }),
        500,
      ),
    ).toBe(`path '${cid}' is not pinned`);
    // B still pins it: the node keeps the pin
    expect((await onNode('pin/ls', `?arg=${cid}`)).status).toBe(200);
    expect((await all(clientB.pin.ls({ paths: [cid] })))[0]?.type).toBe('recursive');
    await clientB.pin.rm(cid);
    expect((await onNode('pin/ls', `?arg=${cid}`)).status).toBe(500);
  });

  it('direct pins, recursive=false rules, and pin/update only from the key’s own recursive pin', async () => {
    const block = (await clientA.add(randomBytes(40), { pin: false })).cid;
    await clientA.pin.add(block, { recursive: false });
    expect((await all(clientA.pin.ls({ paths: [block] })))[0]?.type).toBe('direct');
    expect((await all(clientA.pin.ls({ type: 'direct' }))).map((p) => p.cid.toString())).toContain(block.toString());

    const from = (await clientA.add(randomBytes(60))).cid;
    const to = (await clientA.add(randomBytes(60), { pin: false })).cid;
    const norec = await send(h.ipfsUrl, apiPath(`pin/rm?arg=${from}&recursive=false`), {
      headers: { authorization: a.authorization },
    });
    expect(kuboError(norec, 500)).toBe(`${from} is pinned recursively`);
    // B cannot move A's pin
    const moved = await send(h.ipfsUrl, apiPath(`pin/update?arg=${from}&arg=${to}`), {
      headers: { authorization: b.authorization },
    });
    expect(kuboError(moved, 500)).toBe("'from' cid was not recursively pinned already");
    expect((await onNode('pin/ls', `?arg=${to}`)).status).toBe(500);
    // B pins `from` too; A moves its pin: the node keeps `from` for B
    await clientB.pin.add(from);
    expect((await clientA.pin.update(from, to)).map(String)).toEqual([from.toString(), to.toString()]);
    expect((await all(clientA.pin.ls({ paths: [to] })))[0]?.type).toBe('recursive');
    expect(
      (await send(h.ipfsUrl, apiPath(`pin/ls?arg=${from}`), { headers: { authorization: a.authorization } })).status,
    ).toBe(500);
    expect((await onNode('pin/ls', `?arg=${from}`)).status).toBe(200);
    expect((await all(clientB.pin.ls({ paths: [from] })))[0]?.type).toBe('recursive');
    await clientA.pin.rm(block, { recursive: false });
    expect((await onNode('pin/ls', `?arg=${block}`)).status).toBe(500);
  });

  it('a direct pin of a CID another key pins recursively succeeds, and the last owner’s pin/rm unpins', async () => {
    const cid = (await clientA.add(randomBytes(500))).cid;
    expect((await clientB.pin.add(cid, { recursive: false })).toString()).toBe(cid.toString());
    expect((await all(clientB.pin.ls({ paths: [cid] })))[0]?.type).toBe('direct');
    // A's own recursive pin still refuses a direct pin, as Kubo does
    const own = await send(h.ipfsUrl, apiPath(`pin/add?arg=${cid}&recursive=false`), {
      headers: { authorization: a.authorization },
    });
    expect(kuboError(own, 500)).toBe(`${cid} already pinned recursively`);
    await clientA.pin.rm(cid);
    expect((await onNode('pin/ls', `?arg=${cid}`)).status).toBe(200); // kept for B
    await clientB.pin.rm(cid, { recursive: false });
    expect((await onNode('pin/ls', `?arg=${cid}`)).status).toBe(500);
  });

  it('every way of pinning records ownership: add (roots only), dag/put, block/put, dag/import, object/put', async () => {
    const c = h.createKey();
    const client = create({ url: api(), headers: { authorization: c.authorization } });
    const owned = async () => (await all(client.pin.ls({ type: 'recursive' }))).map((p) => p.cid.toString()).sort();

    // a directory: only the top-level entry is a root
    const name = `t${randomBytes(3).toString('hex')}`;
    const added = await all(
      client.addAll([
        { path: `${name}/a.txt`, content: randomBytes(20) },
        { path: `${name}/sub/b.txt`, content: randomBytes(20) },
      ]),
    );
    const top = added.find((e) => e.path === name)!.cid.toString();
    expect(await owned()).toEqual([top]);
    // wrap-with-directory: only the wrapper
    const wrapped = await all(
      client.addAll([{ path: 'w.txt', content: randomBytes(20) }], { wrapWithDirectory: true }),
    );
    const wrapper = wrapped.at(-1)!.cid.toString();
    expect(wrapped.at(-1)!.path).toBe(''); // Kubo names the wrapping directory "" (issue 23)
    expect((await owned()).sort()).toEqual([top, wrapper].sort());

    const dagCid = (await client.dag.put({ n: randomBytes(4).toString('hex') }, { pin: true })).toString();
    const blockCid = (await client.block.put(randomBytes(33), { pin: true })).toString();
    // a CAR exported from the node (its root not pinned yet), imported: the root is pinned
    const carRoot = await client.block.put(randomBytes(24));
    const car = Buffer.concat(await all(client.dag.export(carRoot)));
    await all(client.dag.import([car]));
    // silent hides the Root lines from the client, not from the gateway
    const silentRoot = await client.block.put(randomBytes(24));
    const silentCar = Buffer.concat(await all(client.dag.export(silentRoot)));
    const form0 = new FormData();
    form0.append('file', new Blob([silentCar]));
    const silent = await fetch(`${api()}/dag/import?silent=true`, {
      method: 'POST',
      headers: { authorization: c.authorization },
      body: form0,
    });
    expect(silent.status).toBe(200);
    expect(await silent.text()).toBe('');
    const form = multipart([{ data: JSON.stringify({ Data: `object ${randomBytes(4).toString('hex')}`, Links: [] }) }]);
    const put = await send(h.ipfsUrl, apiPath('object/put?pin=true'), {
      headers: { authorization: c.authorization, 'content-type': form.contentType },
      body: form.body,
    });
    expect(put.status, put.body.toString()).toBe(200);
    const objectCid = (JSON.parse(put.body.toString()) as { Hash: string }).Hash;
    expect((await owned()).sort()).toEqual(
      [top, wrapper, dagCid, blockCid, carRoot.toString(), silentRoot.toString(), objectCid].sort(),
    );
    // none of them is another key's
    const others = (await all(clientB.pin.ls())).map((p) => p.cid.toString());
    for (const cid of [top, wrapper, dagCid, blockCid, objectCid]) expect(others).not.toContain(cid);
    // unpinned variants record nothing
    const d = h.createKey();
    const plain = create({ url: api(), headers: { authorization: d.authorization } });
    await plain.add(randomBytes(10), { pin: false });
    await plain.dag.put({ x: 1 });
    await plain.block.put(randomBytes(8));
    expect(await all(plain.pin.ls())).toEqual([]);
  });

  it('options are read as Kubo reads them (pin=1, ?pin, aliases), so no pin goes unrecorded', async () => {
    const c = h.createKey();
    const headers = (contentType: string) => ({ authorization: c.authorization, 'content-type': contentType });
    const dag = multipart([{ data: JSON.stringify({ v: randomBytes(4).toString('hex') }) }]);
    const put = await send(h.ipfsUrl, apiPath('dag/put?pin=1'), { headers: headers(dag.contentType), body: dag.body });
    const dagCid = (JSON.parse(put.body.toString()) as { Cid: { '/': string } }).Cid['/'];
    const block = multipart([{ data: randomBytes(16) }]);
    const bput = await send(h.ipfsUrl, apiPath('block/put?pin'), {
      headers: headers(block.contentType),
      body: block.body,
    });
    const blockCid = (JSON.parse(bput.body.toString()) as { Key: string }).Key;
    const files = multipart([
      { data: randomBytes(16), filename: 'q1.txt' },
      { data: randomBytes(16), filename: 'q2.txt' },
    ]);
    const quiet = await send(h.ipfsUrl, apiPath('add?Q=T'), { headers: headers(files.contentType), body: files.body });
    expect(quiet.body.toString().trim().split('\n')).toHaveLength(1);
    expect((await h.pins.list(c.key)).map((p) => p.cid)).toEqual(expect.arrayContaining([dagCid, blockCid]));
    expect(await h.pins.list(c.key)).toHaveLength(4);
    for (const cid of [dagCid, blockCid]) expect((await onNode('pin/ls', `?arg=${cid}`)).status).toBe(200);
    // a direct pin by its alias, and values that do not convert or come twice
    const loose = (await clientA.add(randomBytes(20), { pin: false })).cid;
    await send(h.ipfsUrl, apiPath(`pin/add?arg=${loose}&r=0`), { headers: { authorization: c.authorization } });
    expect((await h.pins.get(c.key, loose.toString()))?.type).toBe('direct');
    const bad = await send(h.ipfsUrl, apiPath(`pin/add?arg=${loose}&recursive=maybe`), {
      headers: { authorization: c.authorization },
    });
    expect(kuboError(bad, 400)).toMatch(/Could not convert value "maybe"/);
    const twice = await send(h.ipfsUrl, apiPath(`pin/rm?arg=${loose}&recursive=false&r=true`), {
      headers: { authorization: c.authorization },
    });
    expect(kuboError(twice, 400)).toMatch(/only a single value/);
  });

  it('silent and quieter still record the roots, and answer as the node does', async () => {
    const c = h.createKey();
    const { body, contentType } = multipart([
      { data: randomBytes(20), filename: 'one.txt' },
      { data: randomBytes(20), filename: 'two.txt' },
    ]);
    const headers = { authorization: c.authorization, 'content-type': contentType };
    const silent = await send(h.ipfsUrl, apiPath('add?silent=true'), { headers, body });
    expect(silent.status).toBe(200);
    expect(silent.body.toString()).toBe('');
    const quieter = await send(h.ipfsUrl, apiPath('add?quieter=true'), { headers, body });
    const lines = quieter.body.toString().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0]!) as { Name: string }).Name).toBe('two.txt');
    expect(await h.pins.list(c.key)).toHaveLength(2);
  });
});

describe('defect 3: add refuses unsafe file names before anything is pinned', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['dot-dot', 'filename="../../etc/passwd"', /file name "\.\.\/\.\.\/etc\/passwd" has a "\.\." segment/],
    ['inner dot-dot', 'filename="dir/../../x"', /has a "\.\." segment/],
    ['absolute, climbing', 'filename="/a/../../etc/passwd"', /has a "\.\." segment above the upload's root/],
    ['percent-encoded', 'filename="d%2F..%2F..%2Fx"', /file name "d\/\.\.\/\.\.\/x" has a "\.\." segment/],
    ['Windows absolute', 'filename="C:\\\\Windows\\\\x"', /is a Windows absolute path/],
    ['double-encoded', 'filename="d%252F..%252F..%252Fx"', /has a "\.\." segment/],
    ['filename*', "filename*=utf-8''..%2Fx", /has a "\.\." segment/],
    ['backslashes', 'filename="..\\\\x"', /has a "\.\." segment/],
  ];

  for (const [label, param, message] of cases) {
    it(`400 for ${label}, and nothing is pinned (not even the good file before it)`, async () => {
      const c = h.createKey();
      const good = randomBytes(64);
      const goodCid = (await clientA.add(good, { onlyHash: true })).cid.toString();
      const { body, contentType } = multipart([
        { data: good, filename: 'good.txt' },
        { data: randomBytes(64), disposition: `form-data; name="file-1"; ${param}` },
      ]);
      const res = await send(h.ipfsUrl, apiPath('add'), {
        headers: { authorization: c.authorization, 'content-type': contentType },
        body,
      });
      expect(kuboError(res, 400)).toMatch(message);
      expect(await h.pins.list(c.key)).toEqual([]);
      expect(await h.route.storedBytes(c.key)).toBe(0);
      expect((await onNode('pin/ls', `?arg=${goodCid}`)).status).toBe(500);
    });
  }

  it('a bad name split across many small writes is still found; a huge name is not quoted whole', async () => {
    const c = h.createKey();
    const huge = `${'a/'.repeat(5000)}${'../'.repeat(5001)}x`;
    const { body, contentType } = multipart([{ data: randomBytes(64), filename: huge }]);
    const pieces: Buffer[] = [];
    for (let i = 0; i < body.byteLength; i += 7) pieces.push(body.subarray(i, i + 7));
    const res = await send(h.ipfsUrl, apiPath('add'), {
      headers: { authorization: c.authorization, 'content-type': contentType },
      body: pieces,
    });
    const message = kuboError(res, 400);
    expect(message).toMatch(/has a "\.\." segment/);
    expect(message.length).toBeLessThan(200);
    expect(await h.pins.list(c.key)).toEqual([]);
  });

  it('kubo-rpc-client gets the refusal too; safe nested names still work', async () => {
    const c = h.createKey();
    const client = create({ url: api(), headers: { authorization: c.authorization } });
    await expect(all(client.addAll([{ path: '../escape.txt', content: randomBytes(10) }]))).rejects.toThrow(
      /has a "\.\." segment/,
    );
    const ok = await all(client.addAll([{ path: 'safe/dir/a..b.txt', content: randomBytes(10) }]));
    expect(ok.map((e) => e.path)).toEqual(['safe/dir/a..b.txt', 'safe/dir', 'safe']);
  });

  it('an absolute name that stays inside the upload is accepted and normalised, as Kubo does (issue 23 item 1)', async () => {
    const c = h.createKey();
    const client = create({ url: api(), headers: { authorization: c.authorization } });
    // kubo-rpc-client's globSource sends every name absolute (/dir/file)
    const added = await all(
      client.addAll([
        { path: '/abs/one.txt', content: randomBytes(10) },
        { path: '/abs/./sub/../two.txt', content: randomBytes(10) },
      ]),
    );
    expect(added.map((e) => e.path)).toEqual(['abs/one.txt', 'abs/two.txt', 'abs']);
    expect((await h.pins.list(c.key)).map((p) => p.cid)).toEqual([added[2]!.cid.toString()]);
  });
});

describe('defect 4: stored bytes are what the key makes the node store', () => {
  let limited: IpfsRouteHarness;
  beforeAll(async () => {
    limited = await startIpfsRouteHarness({ ipfs: { maxStoredBytesPerKey: 100_000 } });
    onLimitedNode = (command, query = '') => send(limited.node.http, `/api/v0/${command}${query}`);
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('pins count their stored size, unpinned uploads and removed pins count until collected; the quota uses it', async () => {
    const c = limited.createKey();
    const client = create({ url: `${limited.ipfsUrl}/api/v0`, headers: { authorization: c.authorization } });
    const first = await client.add(randomBytes(60_000));
    expect(await limited.route.storedBytes(c.key)).toBe(first.size);
    expect(first.size).toBeGreaterThan(60_000);
    // an unpinned upload counts (every byte sent, multipart framing too) until the node collects it
    const loose = await client.add(randomBytes(30_000), { pin: false });
    const unpinned = (await limited.route.storedBytes(c.key)) - first.size;
    expect(unpinned).toBeGreaterThanOrEqual(30_000);
    expect(unpinned).toBeLessThan(30_600);
    const second = multipart([{ data: randomBytes(15_000) }]);
    const refused = await send(limited.ipfsUrl, '/ipfs/api/v0/add?pin=false', {
      headers: { authorization: c.authorization, 'content-type': second.contentType },
      body: second.body,
    });
    expect(kuboError(refused, 413)).toBe(
      `storage limit reached: this API key has stored ${first.size + unpinned} of 100000 bytes allowed`,
    );
    // pinning it now would count it twice until the collection: refused before anything is pinned
    const pinLoose = await send(limited.ipfsUrl, `/ipfs/api/v0/pin/add?arg=${loose.cid}`, {
      headers: { authorization: c.authorization },
    });
    expect(kuboError(pinLoose, 413)).toMatch(/storage limit reached: .*; pinning this needs 300\d\d more/);
    expect(await limited.pins.list(c.key)).toHaveLength(1);
    // the collection removes the unpinned blocks, and they stop counting
    await limited.route.collect();
    expect((await onLimitedNode('block/stat', `?arg=${loose.cid}`)).status).toBe(500);
    expect(await limited.route.storedBytes(c.key)).toBe(first.size);
    // pin/rm: the blocks stay on the node until the next collection, and count until then
    await client.pin.rm(first.cid);
    expect(await limited.route.storedBytes(c.key)).toBe(first.size);
    await limited.route.collect();
    expect(await limited.route.storedBytes(c.key)).toBe(0);
    expect((await onLimitedNode('block/stat', `?arg=${first.cid}`)).status).toBe(500);
    const again = multipart([{ data: randomBytes(60_000) }]);
    const ok = await send(limited.ipfsUrl, '/ipfs/api/v0/add', {
      headers: { authorization: c.authorization, 'content-type': again.contentType },
      body: again.body,
    });
    expect(ok.status).toBe(200);
    // another key has its own budget, and a shared CID counts for each owner
    const other = limited.createKey();
    const otherClient = create({ url: `${limited.ipfsUrl}/api/v0`, headers: { authorization: other.authorization } });
    const cid = (JSON.parse(ok.body.toString()) as { Hash: string }).Hash;
    await otherClient.pin.add(CID.parse(cid));
    expect(await limited.route.storedBytes(other.key)).toBe(await limited.route.storedBytes(c.key));
  });

  it('raw and dag-cbor roots count their block size', async () => {
    const c = limited.createKey();
    const client = create({ url: `${limited.ipfsUrl}/api/v0`, headers: { authorization: c.authorization } });
    await client.block.put(randomBytes(1234), { pin: true });
    expect(await limited.route.storedBytes(c.key)).toBe(1234);
    const cbor = await client.dag.put({ note: 'x'.repeat(100) }, { pin: true });
    const size = (await client.block.stat(cbor)).size;
    expect(await limited.route.storedBytes(c.key)).toBe(1234 + size);
  });
});
