import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../../../embedded/startAnvil.js';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { createFaultUpstream, type FaultUpstream } from '../../../test-support/createFaultUpstream.js';
import { metricValue, parseMetrics } from '../../../test-support/metricSamples.js';
import { openWsClient } from '../../../test-support/openWsClient.js';
import { postJson, startTestGateway, type TestGateway } from '../../../test-support/startTestGateway.js';
import { admin, createTestKey, type TestKey } from '../../../test-support/testKeys.js';

// A production network in front of a slow fault proxy (a real anvil behind it), without the
// response cache: identical reads from two keys, over HTTP, a batch and WebSocket, in flight at
// the same time.
let anvil: EmbeddedProcess;
let t: TestGateway;
let f: FaultUpstream;
let other: TestKey;
let restricted: TestKey;
let spent: TestKey;
const addr = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const url = (key: string) => `${t.gw.networks.slow!.http}/v3/${key}`;
const balance = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'eth_getBalance', params: [addr, 'latest'] });

beforeAll(async () => {
  anvil = await startAnvil();
  f = await createFaultUpstream(anvil.http);
  t = await startTestGateway({
    extra: { cache: { enabled: false } },
    networks: () => [
      {
        name: 'slow',
        family: 'eth',
        pathPrefix: '/slow',
        upstreams: [{ name: 'proxied', http: f.url }],
        policy: { hedge: false, exploreShare: 0 },
      },
    ],
  });
  other = await createTestKey(t.gw, { name: 'other' });
  // a key that may call eth_getBalance only for another address, one that is out of credits
  restricted = await createTestKey(t.gw, {
    name: 'restricted',
    settings: { allowedContracts: [`0x${'cd'.repeat(20)}`] },
  });
  spent = await createTestKey(t.gw, { name: 'spent', settings: { creditsPerDay: 1 } });
});
afterAll(async () => {
  await t?.stop();
  await f?.close();
  await anvil?.stop();
});

describe('multiplexing through the request path', () => {
  it('across keys, HTTP, a batch and WebSocket: one upstream call; each caller its own id, credits, usage and header', async () => {
    f.script((m) => (m === 'eth_getBalance' ? { kind: 'slow', ms: 400 } : { kind: 'pass' }));
    const ws = await openWsClient(`${t.gw.networks.slow!.ws}/ws/v3/${other.key}`);
    const before = f.hits('eth_getBalance');
    // the first caller starts the upstream call; the others arrive while it is in flight
    const first = postJson(url(t.key), balance(7));
    await new Promise((r) => setTimeout(r, 100));
    const [batch, viaWs, single, refused, overLimit] = await Promise.all([
      postJson(url(other.key), [balance('a'), balance('b'), { ...balance('c'), params: [addr, '0x0'] }]),
      ws.call('eth_getBalance', [addr, 'latest']),
      postJson(url(other.key), balance(8)),
      postJson(url(restricted.key), balance(9)),
      postJson(url(spent.key), balance(10)),
    ]);
    const leader = await first;
    ws.close();
    // once for the shared call, once for the batch's other block
    expect(f.hits('eth_getBalance') - before).toBe(2);
    const value = leader.json.result;
    expect(value).toMatch(/^0x/);
    expect(leader.json.id).toBe(7);
    expect(leader.headers.get('x-nodegate-multiplexed')).toBeNull();
    expect(leader.headers.get('x-nodegate-upstream')).toBe('proxied');
    expect(leader.headers.get('x-nodegate-attempts')).toBe('1');
    expect(batch.json.map((r: { id: string }) => r.id)).toEqual(['a', 'b', 'c']);
    expect(batch.json[0].result).toBe(value);
    expect(batch.json[1].result).toBe(value);
    expect(batch.headers.get('x-nodegate-multiplexed')).toBe('true');
    expect(single.json).toEqual({ jsonrpc: '2.0', id: 8, result: value });
    expect(single.headers.get('x-nodegate-multiplexed')).toBe('true');
    expect(viaWs.result).toBe(value);
    // a shared call is no way around a key's restrictions or limits
    expect(refused.json.error).toMatchObject({ code: -32002 });
    expect(refused.json.result).toBeUndefined();
    expect(overLimit.status).toBe(429);
    expect(overLimit.json.result).toBeUndefined();
    // every caller is charged and recorded under its own key
    await t.gw.flushUsage();
    const mine = await admin(t.gw, 'GET', `/keys/${t.key}/requests?method=eth_getBalance`);
    const theirs = await admin(t.gw, 'GET', `/keys/${other.key}/requests?method=eth_getBalance`);
    expect(mine.length).toBe(1);
    expect(theirs.length).toBe(5);
    for (const row of [...mine, ...theirs]) {
      expect(row.credits).toBe(ethMethods.eth_getBalance.credits);
      expect(row.upstream).toBe('proxied');
    }
    const metrics = parseMetrics(
      await (await fetch(`${t.gw.url}/metrics`, { headers: { authorization: `Bearer ${t.gw.admin.token}` } })).text(),
    );
    expect(metricValue(metrics, 'nodegate_multiplexed_total', { network: 'slow' })).toBe(4);
  });
});
