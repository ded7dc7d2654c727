import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawJson } from '../jsonrpc/RawJson.js';
import { closeLoopbackServers, listenLoopback } from '../test-support/listenLoopback.js';
import { createHttpUpstream } from './createHttpUpstream.js';
import { UpstreamTransportError } from './UpstreamTransportError.js';

// What the upstream answers, by the method asked (the request's id echoed as the node would).
let url: string;
beforeAll(async () => {
  ({ url } = await listenLoopback((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const call = JSON.parse(body) as { id: number; method: string };
      const answer = (text: string, status = 200, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
      switch (call.method) {
        case 'plain':
          return answer(`{"jsonrpc":"2.0","id":${call.id},"result":{"a":[1,"}"]}}\n`);
        case 'reordered':
          return answer(`{"id":${call.id},"jsonrpc":"2.0","result":"0x2"}`);
        case 'otherId':
          return answer(`{"jsonrpc":"2.0","id":${call.id + 1}0,"result":"0x3"}`);
        case 'busy':
          return answer('{"error":"slow down"}', 429, { 'retry-after': '7' });
        case 'silent':
          return undefined;
        default:
          return answer(`{"jsonrpc":"2.0","id":${call.id},"error":{"code":-32601,"message":"no"}}`);
      }
    });
  }));
});
afterAll(() => closeLoopbackServers());

describe.each(['nodegate', 'undici'] as const)('createHttpUpstream with the %s client', (client) => {
  const upstream = () => createHttpUpstream({ name: 'u', http: url, timeoutMs: 300, client });

  it("a raw call gets the result's text cut out of a well-formed answer, or the parsed answer otherwise", async () => {
    const up = upstream();
    const raw = (await up.call({ jsonrpc: '2.0', id: 41, method: 'plain', params: [] }, true)) as { result: unknown };
    expect(raw.result).toBeInstanceOf(RawJson);
    expect(JSON.parse((raw.result as RawJson).text)).toEqual({ a: [1, '}'] });
    // keys in another order, or an id that only starts like the one sent: parsed, not cut
    expect(await up.call({ jsonrpc: '2.0', id: 42, method: 'reordered', params: [] }, true)).toMatchObject({
      result: '0x2',
    });
    expect(await up.call({ jsonrpc: '2.0', id: 4, method: 'otherId', params: [] }, true)).toMatchObject({
      result: '0x3',
    });
    expect(await up.call({ jsonrpc: '2.0', id: 43, method: 'plain', params: [] })).toMatchObject({
      result: { a: [1, '}'] },
    });
    expect(await up.call({ jsonrpc: '2.0', id: 44, method: 'x', params: [] })).toMatchObject({
      error: { code: -32601 },
    });
    await up.close();
  });

  it('failures are classified alike: 429 with its Retry-After, a timeout, a refused connection', async () => {
    const up = upstream();
    const busy = await up.call({ jsonrpc: '2.0', id: 1, method: 'busy', params: [] }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(UpstreamTransportError);
    expect(busy).toMatchObject({ failure: 'http-status', status: 429, retryAfterMs: 7_000, maybeDelivered: false });
    const silent = await up.call({ jsonrpc: '2.0', id: 2, method: 'silent', params: [] }).catch((e: unknown) => e);
    expect(silent).toMatchObject({ failure: 'timeout', maybeDelivered: true });
    await up.close();
    const dead = createHttpUpstream({ name: 'd', http: 'http://127.0.0.1:1/', timeoutMs: 300, client });
    const refused = await dead.call({ jsonrpc: '2.0', id: 3, method: 'x', params: [] }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ failure: 'connect', maybeDelivered: false });
    expect(String((refused as Error).message)).not.toContain('127.0.0.1');
    await dead.close();
  });
});
