import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { create } from 'kubo-rpc-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IpfsNode, startIpfsNode } from './startIpfsNode.js';
import { pseudoRandomChunks } from './testing/testData.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  trailers: Record<string, string | undefined>;
}

/** One raw HTTP request; resolves with status, headers, body and trailers. */
function raw(url: string, init: { method?: string; body?: Buffer; headers?: Record<string, string> } = {}) {
  return new Promise<RawResponse>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'POST', headers: init.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          trailers: res.trailers,
        }),
      );
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

function multipart(parts: Array<{ name: string; filename?: string; type?: string; data: Buffer | string }>) {
  const boundary = 'nodegate-test-boundary';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const fn = p.filename === undefined ? '' : `; filename="${p.filename}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${fn}\r\nContent-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    chunks.push(Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Adds a large pseudo-random file (unpinned) and finds its last leaf block. */
async function addLarge(api: string, bytes: number, seed: string): Promise<{ root: string; lastLeaf: string }> {
  const client = create({ url: `${api}/api/v0` });
  const { cid } = await client.add(pseudoRandomChunks(bytes, seed), { pin: false, rawLeaves: true });
  let at = cid.toString();
  while (true) {
    const ls = JSON.parse((await raw(`${api}/api/v0/ls?arg=${at}`)).body.toString()) as {
      Objects: Array<{ Links: Array<{ Hash: string }> }>;
    };
    const last = ls.Objects[0]!.Links.at(-1);
    if (last === undefined) return { root: cid.toString(), lastLeaf: at };
    at = last.Hash;
  }
}

/** Starts a cat, waits for the headers, removes a late block, then reads the rest. */
function catWithBlockRemoved(api: string, root: string, victim: string) {
  return new Promise<{ status: number; received: number; trailers: Record<string, string | undefined>; error?: Error }>(
    (resolve) => {
      const req = request(`${api}/api/v0/cat?arg=${root}`, { method: 'POST' }, (res) => {
        res.pause();
        let received = 0;
        raw(`${api}/api/v0/block/rm?arg=${victim}`).then((rmRes) => {
          expect(JSON.parse(rmRes.body.toString())).toEqual({ Hash: victim });
          res.on('data', (c: Buffer) => {
            received += c.byteLength;
          });
          res.on('error', (error) => resolve({ status: res.statusCode ?? 0, received, trailers: res.trailers, error }));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, received, trailers: res.trailers }));
          res.resume();
        });
      });
      req.end();
    },
  );
}

describe('Kubo wire behaviour (embedded node, raw HTTP)', () => {
  let node: IpfsNode;
  let resetNode: IpfsNode;
  let repo: string;
  let resetRepo: string;
  let api: string;

  beforeAll(async () => {
    repo = await mkdtemp(join(tmpdir(), 'ipfs-node-wire-'));
    resetRepo = await mkdtemp(join(tmpdir(), 'ipfs-node-wire-reset-'));
    node = await startIpfsNode({ repo });
    resetNode = await startIpfsNode({ repo: resetRepo, resetOnStreamError: true });
    api = node.apiUrl;
  });

  afterAll(async () => {
    await node?.close();
    await resetNode?.close();
    await rm(repo, { recursive: true, force: true });
    await rm(resetRepo, { recursive: true, force: true });
  });

  it('405 text with Allow: OPTIONS, POST for GET; 200 for OPTIONS', async () => {
    const res = await raw(`${api}/api/v0/version`, { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('OPTIONS, POST');
    expect(res.body.toString()).toBe('405 - Method Not Allowed\n');
    expect((await raw(`${api}/api/v0/version`, { method: 'OPTIONS' })).status).toBe(200);
  });

  it('404 text for unknown commands, parent commands and paths outside /api/v0', async () => {
    for (const path of ['/api/v0/nope', '/api/v0/pin', '/api/v0/object/get', '/metrics']) {
      const res = await raw(`${api}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body.toString()).toBe('404 page not found\n');
    }
  });

  it('400 text for a missing argument, a bad option value or a missing file part', async () => {
    const missing = await raw(`${api}/api/v0/block/get`);
    expect(missing.status).toBe(400);
    expect(missing.body.toString()).toBe('argument "cid" is required\n');
    const bad = await raw(`${api}/api/v0/add?cid-version=one`, multipart([{ name: 'file', data: 'x' }]));
    expect(bad.status).toBe(400);
    expect(bad.body.toString()).toBe('Could not convert value "one" to type "int" (for option "-cid-version")\n');
    const noFile = await raw(`${api}/api/v0/add`);
    expect(noFile.status).toBe(400);
    expect(noFile.body.toString()).toBe("file argument 'path' is required\n");
  });

  it('500 JSON error with Kubo shape and trailing newline; unknown query parameters are ignored', async () => {
    const res = await raw(`${api}/api/v0/pin/rm?arg=QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN&whatever=1`);
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body.toString()).toBe('{"Message":"not pinned or pinned indirectly","Code":0,"Type":"error"}\n');
  });

  it('success headers: Trailer, exposed headers, NDJSON with X-Chunked-Output', async () => {
    const res = await raw(
      `${api}/api/v0/add`,
      multipart([
        { name: 'file', filename: 'a.txt', data: 'hello\n' },
        { name: 'file-1', filename: 'b.txt', data: 'hello world' },
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.headers.trailer).toBe('X-Stream-Error');
    expect(res.headers['access-control-expose-headers']).toBe('X-Stream-Output, X-Chunked-Output, X-Content-Length');
    expect(res.headers['x-chunked-output']).toBe('1');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const text = res.body.toString();
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { Name: 'a.txt', Hash: 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN', Size: '14' },
      { Name: 'b.txt', Hash: 'Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD', Size: '19' },
    ]);
    expect(res.trailers['x-stream-error']).toBeUndefined();
  });

  it('directories sent as application/x-directory parts, with a nameless file named by its CID', async () => {
    const res = await raw(
      `${api}/api/v0/add`,
      multipart([
        { name: 'file', filename: 'planets', type: 'application/x-directory', data: '' },
        { name: 'file', filename: 'planets%2Fmars.txt', data: 'Hello Mars!\n' },
        { name: 'file', filename: 'planets%2Fvenus.txt', data: 'Hello Venus!\n' },
      ]),
    );
    const lines = res.body
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { Name: string; Hash: string });
    expect(lines.at(-1)).toEqual({
      Name: 'planets',
      Hash: 'QmWSgS32xQEcXMeqd3YPJLrNBLSdsfYCep2U7CFkyrjXwY',
      Size: '146',
    });
    const nameless = await raw(`${api}/api/v0/add`, multipart([{ name: 'file', data: 'hello\n' }]));
    expect(JSON.parse(nameless.body.toString()).Name).toBe('QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN');
  });

  it('symlink parts (application/symlink) become UnixFS symlinks', async () => {
    const res = await raw(
      `${api}/api/v0/add`,
      multipart([
        { name: 'file', filename: 'ln', type: 'application/x-directory', data: '' },
        { name: 'file', filename: 'ln%2Fa.txt', data: 'target file' },
        { name: 'file', filename: 'ln%2Flink', type: 'application/symlink', data: 'a.txt' },
      ]),
    );
    const lines = res.body
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { Name: string; Hash: string });
    const root = lines.find((l) => l.Name === 'ln')!.Hash;
    const ls = JSON.parse((await raw(`${api}/api/v0/ls?arg=${root}`)).body.toString()) as {
      Objects: Array<{ Links: Array<{ Name: string; Type: number; Target: string }> }>;
    };
    expect(ls.Objects[0]!.Links.map((l) => [l.Name, l.Type, l.Target])).toEqual([
      ['a.txt', 2, ''],
      ['link', 4, 'a.txt'],
    ]);
  });

  it('byte streams: X-Stream-Output and X-Content-Length; a trailing path segment is the argument', async () => {
    await raw(`${api}/api/v0/add`, multipart([{ name: 'file', data: 'hello\n' }]));
    const res = await raw(`${api}/api/v0/cat/QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN`);
    expect(res.status).toBe(200);
    expect(res.headers['x-stream-output']).toBe('1');
    expect(res.headers['x-content-length']).toBe('6');
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.body.toString()).toBe('hello\n');
  });

  it('get with compress and archive returns a gzipped tar (a lone file without archive: gzipped bytes)', async () => {
    const dir = await raw(
      `${api}/api/v0/add`,
      multipart([
        { name: 'file', filename: 'g%2Fone.txt', data: 'first file' },
        { name: 'file', filename: 'g%2Ftwo.txt', data: 'second file' },
      ]),
    );
    const lines = dir.body
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { Name: string; Hash: string });
    const root = lines.find((l) => l.Name === 'g')!.Hash;
    const tgz = await raw(`${api}/api/v0/get?arg=${root}&compress=true&archive=true`);
    expect(tgz.status).toBe(200);
    const tar = gunzipSync(tgz.body).toString('latin1');
    expect(tar).toContain(`${root}/one.txt`);
    expect(tar).toContain('second file');
    const file = lines.find((l) => l.Name === 'g/one.txt')!.Hash;
    const gz = await raw(`${api}/api/v0/get?arg=${file}&compress=true`);
    expect(gunzipSync(gz.body).toString()).toBe('first file');
  });

  it('block/put rejects blocks over 2 MiB unless allow-big-block', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024 + 1, 7);
    const res = await raw(`${api}/api/v0/block/put`, multipart([{ name: 'file', data: big }]));
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body.toString()).Message).toMatch(/^produced block is over 2MiB/);
    const ok = await raw(`${api}/api/v0/block/put?allow-big-block=true`, multipart([{ name: 'file', data: big }]));
    expect(ok.status).toBe(200);
  });

  it('an early error on a large upload still reaches the client, and the connection stays usable', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { body, headers } = multipart([{ name: 'file', data: Buffer.alloc(24 * 1024 * 1024, 1) }]);
      const send = (path: string, payload?: Buffer) =>
        new Promise<{ status: number; text: string; socket: unknown }>((resolve, reject) => {
          const req = request(`${api}${path}`, { method: 'POST', agent, headers: payload ? headers : {} }, (res) => {
            const socket = res.socket;
            let text = '';
            res.on('data', (c: Buffer) => {
              text += c.toString();
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text, socket }));
          });
          req.on('error', reject);
          req.end(payload);
        });
      const failed = await send('/api/v0/block/put', body);
      expect(failed.status).toBe(500);
      expect(JSON.parse(failed.text).Message).toMatch(/^produced block is over 2MiB/);
      const next = await send('/api/v0/version');
      expect(next.status).toBe(200);
      expect(next.socket).toBe(failed.socket);
    } finally {
      agent.destroy();
    }
  });

  it('the timeout option aborts a command (here an upload that stalls)', async () => {
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const boundary = 'stall';
      const req = request(
        `${api}/api/v0/add?timeout=200ms`,
        { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => {
            body += c.toString();
          });
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body });
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n\r\npartial`);
    });
    expect(result.status).toBe(500);
    expect(JSON.parse(result.body)).toEqual({ Message: 'context deadline exceeded', Code: 0, Type: 'error' });
  });

  it('an NDJSON stream that fails mid-way ends with an error line and the trailer', async () => {
    const res = await raw(
      `${api}/api/v0/block/put`,
      multipart([
        { name: 'file', data: 'small block' },
        { name: 'file', data: Buffer.alloc(2 * 1024 * 1024 + 1) },
      ]),
    );
    expect(res.status).toBe(200);
    const lines = res.body
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toHaveProperty('Key');
    expect(lines[1]).toMatchObject({ Code: 0, Type: 'error' });
    expect(res.trailers['x-stream-error']).toMatch(/^produced block is over 2MiB/);
  });

  it('a failure after streaming started is reported in the X-Stream-Error trailer', async () => {
    const { root, lastLeaf } = await addLarge(api, 48 * 1024 * 1024, 'trailer');
    const result = await catWithBlockRemoved(api, root, lastLeaf);
    expect(result.status).toBe(200);
    expect(result.error).toBeUndefined();
    expect(result.received).toBeLessThan(48 * 1024 * 1024);
    expect(result.trailers['x-stream-error']).toBe(
      `block was not found locally (offline): ipld: could not find ${lastLeaf}`,
    );
  });

  it('with resetOnStreamError the connection is reset, so trailer-blind clients fail too', async () => {
    const rapi = resetNode.apiUrl;
    const { root, lastLeaf } = await addLarge(rapi, 48 * 1024 * 1024, 'reset');
    const result = await catWithBlockRemoved(rapi, root, lastLeaf);
    expect(result.status).toBe(200);
    expect(result.error).toBeDefined();
    const client = create({ url: `${rapi}/api/v0` });
    let read = 0;
    await expect(
      (async () => {
        for await (const chunk of client.cat(root)) read += chunk.byteLength;
      })(),
    ).rejects.toThrow();
    expect(read).toBeLessThan(48 * 1024 * 1024);
  });

  it('a client that goes away mid-download does not disturb the node', async () => {
    const { root } = await addLarge(api, 16 * 1024 * 1024, 'disconnect');
    await new Promise<void>((resolve) => {
      const req = request(`${api}/api/v0/cat?arg=${root}`, { method: 'POST' }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.end();
    });
    const res = await raw(`${api}/api/v0/version`);
    expect(res.status).toBe(200);
  });
});
