import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway, postJson, rpc, startTestGateway } from '../test-support/startTestGateway.js';

let t: TestGateway;
let base: string;
beforeAll(async () => {
  t = await startTestGateway({ extra: { limits: { maxBatch: 5, maxBodyBytes: 4096 } } });
  base = t.gw.networks['eth-devnet']!.http;
});
afterAll(async () => {
  await t?.stop();
});

const ADDR = `0x${'11'.repeat(20)}`;
const HASH = `0x${'22'.repeat(32)}`;
const call = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: 7, method, params });

/** Each row: a request, the HTTP status and JSON-RPC code it must get, and part of the message. */
const table: Array<{ name: string; body: unknown; status?: number; code: number; message?: RegExp; id?: unknown }> = [
  { name: 'malformed JSON', body: '{"jsonrpc":"2.0",', code: -32700, id: null, message: /not valid JSON/ },
  { name: 'not an object', body: '42', code: -32600, id: null },
  { name: 'empty batch', body: '[]', code: -32600, id: null, message: /empty batch/ },
  {
    name: 'jsonrpc 1.0',
    body: { jsonrpc: '1.0', id: 1, method: 'eth_chainId' },
    code: -32600,
    id: 1,
    message: /"2.0"/,
  },
  { name: 'missing method', body: { jsonrpc: '2.0', id: 1 }, code: -32600, id: 1 },
  { name: 'params a string', body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: 'x' }, code: -32600, id: 1 },
  { name: 'id an object', body: { jsonrpc: '2.0', id: {}, method: 'eth_chainId' }, code: -32600, id: null },
  { name: 'unknown method', body: call('eth_doesNotExist', []), code: -32601, message: /eth_doesNotExist/ },
  { name: 'debug namespace', body: call('debug_traceTransaction', [HASH]), code: -32601 },
  { name: 'subscribe over HTTP', body: call('eth_subscribe', ['newHeads']), code: -32601, message: /WebSocket/ },
  {
    name: 'named params for eth',
    body: call('eth_getBalance', { address: ADDR }),
    code: -32602,
    message: /positional/,
  },
  {
    name: 'short address',
    body: call('eth_getStorageAt', ['0x1234', '0x0', 'latest']),
    code: -32602,
    message: /params\[0\] \(address\)/,
  },
  { name: 'long address', body: call('eth_getStorageAt', [`${ADDR}00`, '0x0', 'latest']), code: -32602 },
  { name: 'address not hex', body: call('eth_getStorageAt', [`0x${'zz'.repeat(20)}`, '0x0', 'latest']), code: -32602 },
  {
    name: 'missing block param',
    body: call('eth_getStorageAt', [ADDR, '0x0']),
    code: -32602,
    message: /missing required param 2/,
  },
  { name: 'position too long', body: call('eth_getStorageAt', [ADDR, `0x${'1'.repeat(65)}`, 'latest']), code: -32602 },
  {
    name: 'bad block tag',
    body: call('eth_getBlockByNumber', ['newest', false]),
    code: -32602,
    message: /block number in hex/,
  },
  { name: 'block number leading zero', body: call('eth_getBlockByNumber', ['0x01', false]), code: -32602 },
  { name: 'block number as integer', body: call('eth_getBlockByNumber', [1, false]), code: -32602 },
  {
    name: 'flag not boolean',
    body: call('eth_getBlockByNumber', ['latest', 'true']),
    code: -32602,
    message: /boolean/,
  },
  { name: 'flag missing', body: call('eth_getBlockByNumber', ['latest']), code: -32602 },
  {
    name: 'short block hash',
    body: call('eth_getBlockByHash', ['0x1234', false]),
    code: -32602,
    message: /32-byte hash/,
  },
  { name: 'long tx hash', body: call('eth_getTransactionByHash', [`${HASH}00`]), code: -32602 },
  { name: 'tx hash missing', body: call('eth_getTransactionByHash', []), code: -32602 },
  {
    name: 'index not hex',
    body: call('eth_getTransactionByBlockHashAndIndex', [HASH, 1]),
    code: -32602,
    message: /hex quantity/,
  },
  { name: 'too many params', body: call('eth_getTransactionByHash', [HASH, true]), code: -32602, message: /at most 1/ },
  { name: 'proof keys not array', body: call('eth_getProof', [ADDR, '0x0', 'latest']), code: -32602, message: /array/ },
  { name: 'proof key too long', body: call('eth_getProof', [ADDR, [`0x${'1'.repeat(66)}`], 'latest']), code: -32602 },
  { name: 'proof block missing', body: call('eth_getProof', [ADDR, []]), code: -32602 },
];

describe('bad input gets its exact error, and the gateway keeps serving', () => {
  for (const row of table) {
    it(row.name, async () => {
      const res = await postJson(`${base}/v3/${t.key}`, row.body);
      expect(res.status).toBe(row.status ?? 200);
      expect(res.json.jsonrpc).toBe('2.0');
      expect(res.json.error.code).toBe(row.code);
      expect(res.json.id).toEqual(row.id === undefined ? 7 : row.id);
      if (row.message) expect(res.json.error.message).toMatch(row.message);
      expect(res.json.error.message).not.toContain(t.anvil.http);
      expect((await rpc(`${base}/v3/${t.key}`, 'eth_chainId')).result).toBe('0x7a69');
    });
  }

  it('a batch over the cap is one -32600 error naming the limit', async () => {
    const res = await postJson(
      `${base}/v3/${t.key}`,
      Array.from({ length: 6 }, () => call('eth_chainId', [])).map((c, i) => ({ ...c, id: i })),
    );
    expect(res.status).toBe(200);
    expect(res.json.error.code).toBe(-32600);
    expect(res.json.error.message).toMatch(/6 requests, the limit is 5/);
  });

  it('a batch mixes good and bad items, answered in order; notifications get no entry', async () => {
    const res = await postJson(`${base}/v3/${t.key}`, [
      { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 'b', method: 'eth_nope' },
      { jsonrpc: '2.0', method: 'eth_chainId' },
      { jsonrpc: '2.0', id: null, method: 'eth_blockNumber' },
      5,
    ]);
    expect(res.json.map((r: any) => r.id)).toEqual(['a', 'b', null, null]);
    expect(res.json[0].result).toBe('0x7a69');
    expect(res.json[1].error.code).toBe(-32601);
    expect(res.json[2].result).toMatch(/^0x/);
    expect(res.json[3].error.code).toBe(-32600);
  });

  it('echoes ids exactly: numbers, strings, null; a lone notification gets 204', async () => {
    for (const id of [0, -1, 2 ** 53 - 1, 1.5, '', 'x'.repeat(100), null]) {
      const res = await postJson(`${base}/v3/${t.key}`, { jsonrpc: '2.0', id, method: 'eth_chainId' });
      expect(res.json.id).toStrictEqual(id);
    }
    const n = await postJson(`${base}/v3/${t.key}`, { jsonrpc: '2.0', method: 'eth_chainId' });
    expect(n.status).toBe(204);
    expect(n.text).toBe('');
  });

  it('missing, unknown and revoked keys get 401 with a JSON-RPC error body', async () => {
    for (const path of [`${base}/v3/`, `${base}/v3/${'0'.repeat(32)}`, `${base}/v3/not-a-key`]) {
      const res = await postJson(path, call('eth_chainId', []));
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe(-32001);
      expect(res.json.error.message).toMatch(/API key/);
    }
    const created = await t.gw.app.inject({ method: 'GET', url: '/health' });
    expect(created.statusCode).toBe(200);
  });

  it('wrong path is 404, unknown network 404, wrong HTTP method 405, wrong content type 415, big body 413', async () => {
    const nf = await postJson(`${t.gw.url}/nope/v3/${t.key}`, call('eth_chainId', []));
    expect(nf.status).toBe(404);
    expect(nf.json.error.message).toMatch(/network not found/);
    const np = await postJson(`${base}/v4/${t.key}`, call('eth_chainId', []));
    expect(np.status).toBe(404);
    const get = await fetch(`${base}/v3/${t.key}`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toContain('POST');
    expect(((await get.json()) as any).error.message).toMatch(/method not allowed/);
    const form = await fetch(`${base}/v3/${t.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=b',
    });
    expect(form.status).toBe(415);
    expect(((await form.json()) as any).error.message).toMatch(/application\/json/);
    const big = await postJson(`${base}/v3/${t.key}`, {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_chainId',
      params: ['x'.repeat(5000)],
    });
    expect(big.status).toBe(413);
    expect(big.json.error.message).toMatch(/4096 bytes/);
  });

  it('routes by Host header as well as by path prefix', async () => {
    const url = new URL(t.gw.url);
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: `/v3/${t.key}`,
            method: 'POST',
            headers: { host: 'devnet.nodegate.test', 'content-type': 'application/json' },
          },
          (r) => {
            let body = '';
            r.on('data', (c) => (body += c));
            r.on('end', () => resolve({ status: r.statusCode!, body }));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(call('eth_chainId', [])));
      });
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).result).toBe('0x7a69');
  });

  it('answers CORS preflight and sets Access-Control-Allow-Origin, also for Origin: null', async () => {
    const pre = await fetch(`${base}/v3/${t.key}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'null',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    const res = await postJson(`${base}/v3/${t.key}`, call('eth_chainId', []), { origin: 'https://dapp.example' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const denied = await postJson(`${base}/v3/${'0'.repeat(32)}`, call('eth_chainId', []), { origin: 'null' });
    expect(denied.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('/health reports each network and its upstreams without URLs', async () => {
    const res = await fetch(`${t.gw.url}/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.status).toBe('ok');
    expect(body.networks['eth-devnet'].healthy).toBe(true);
    expect(body.networks['eth-devnet'].upstreams[0].name).toBe('anvil');
    expect(JSON.stringify(body)).not.toContain(t.anvil.http);
  });

  it('dev-chain methods pass on a dev network', async () => {
    const before = BigInt((await rpc(`${base}/v3/${t.key}`, 'eth_blockNumber')).result);
    expect((await rpc(`${base}/v3/${t.key}`, 'anvil_mine', ['0x2'])).error).toBeUndefined();
    const after = BigInt((await rpc(`${base}/v3/${t.key}`, 'eth_blockNumber')).result);
    expect(after - before).toBe(2n);
  });
});
