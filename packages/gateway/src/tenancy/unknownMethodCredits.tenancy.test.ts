import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth } from '../ipfs/startIpfsTestGateway.js';
import { INVALID_CALL_CREDITS } from '../pipeline/stages/chargeCredits.js';
import { postJson, type TestGateway, startTestGateway } from '../test-support/startTestGateway.js';
import { admin, createTestKey, type TestKey } from '../test-support/testKeys.js';

// Issue 20, item 4: calls to unknown methods were free and unlimited (a key allowed 1 credit a
// second and 1 a day sent 100,000 of them, all answered, none charged), and each distinct name
// became a usage row. Every call a key sends now counts: an invalid one costs
// INVALID_CALL_CREDITS, over HTTP, WebSocket and IPFS alike, and the names are one bucket.

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({
    extra: {
      cache: { enabled: false },
      ipfs: { pathPrefix: '/ipfs', upstream: { name: 'ipfs-node', embedded: 'ipfs-node' } },
    },
  });
});
afterAll(async () => {
  await t?.stop();
});

const url = (key: string) => `${t.gw.networks['eth-devnet']!.http}/v3/${key}`;
const call = (method: string, params: unknown[] = [], id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params });
const unknownName = (i: number) => `eth_unknown_${i}_${'z'.repeat(200)}`;
const range = () => `from=${Date.now() - 3_600_000}&to=${Date.now() + 60_000}`;

/** A key in an account of its own, so that the account's `usedToday` is the key's. */
async function keyOfItsOwn(settings: Record<string, unknown>, plan?: string): Promise<TestKey & { account: string }> {
  const account = await admin(t.gw, 'POST', '/accounts', { name: 'tenant', ...(plan ? { plan } : {}) });
  const key = await createTestKey(t.gw, { accountId: account.id, settings });
  return { ...key, account: account.id };
}
const usedToday = async (k: { account: string }) =>
  (await admin(t.gw, 'GET', `/accounts/${k.account}/plan`)).usedToday as number;

describe('invalid and unknown calls cost credits (issue 20, item 4)', () => {
  it('HTTP: unknown method, parse error, invalid request and invalid params are charged; the day ends them; another tenant is untouched', async () => {
    const k = await keyOfItsOwn({ creditsPerDay: 4 * INVALID_CALL_CREDITS });
    const other = await keyOfItsOwn({});
    expect((await postJson(url(k.key), call(unknownName(1)))).json.error.code).toBe(-32601);
    expect((await postJson(url(k.key), 'not json')).json.error.code).toBe(-32700);
    expect((await postJson(url(k.key), { foo: 1 })).json.error.code).toBe(-32600);
    expect((await postJson(url(k.key), call('eth_getBalance', ['nope']))).json.error.code).toBe(-32602);
    expect(await usedToday(k)).toBe(4 * INVALID_CALL_CREDITS);
    // the day's credits are spent: the next unknown call is refused, and so is a valid one
    const over = await postJson(url(k.key), call(unknownName(2)));
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe(-32005);
    expect(over.json.error.message).toBe('daily credit limit exceeded');
    expect((await postJson(url(k.key), 'still not json')).status).toBe(429);
    expect((await postJson(url(k.key), call('eth_chainId'))).status).toBe(429);
    expect(await usedToday(k)).toBe(4 * INVALID_CALL_CREDITS);
    // the other tenant still answers
    expect((await postJson(url(other.key), call('eth_chainId'))).json.result).toBe('0x7a69');

    // usage shows what was charged
    await t.gw.flushUsage();
    const usage = await admin(t.gw, 'GET', `/usage?key=${k.key}&${range()}&bucket=1h`);
    expect(usage.totals.credits).toBe(4 * INVALID_CALL_CREDITS);
  });

  it('HTTP: a batch pays for its invalid items too, whole or not at all', async () => {
    const k = await keyOfItsOwn({ creditsPerDay: 3 * INVALID_CALL_CREDITS });
    const batch = await postJson(url(k.key), [call(unknownName(1), [], 1), call(unknownName(2), [], 2)]);
    expect(batch.json.map((r: any) => r.error.code)).toEqual([-32601, -32601]);
    expect(await usedToday(k)).toBe(2 * INVALID_CALL_CREDITS);
    // two more do not fit into what is left: refused whole, nothing charged
    const refused = await postJson(url(k.key), [call(unknownName(3), [], 1), call(unknownName(4), [], 2)]);
    expect(refused.status).toBe(429);
    expect(refused.json.map((r: any) => r.error.code)).toEqual([-32005, -32005]);
    expect(await usedToday(k)).toBe(2 * INVALID_CALL_CREDITS);
  });

  it('HTTP: a flood of unknown names is held to the per-second rate', async () => {
    const k = await keyOfItsOwn({ creditsPerSecond: INVALID_CALL_CREDITS });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => postJson(url(k.key), call(unknownName(i)))));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(20);
    expect(refused[0]!.json.error.message).toBe('project ID request rate exceeded');
    expect(answers.filter((a) => a.json.error?.code === -32601).length).toBeGreaterThanOrEqual(1);
  });

  it('WebSocket: unknown methods are charged and refused over the day like over HTTP', async () => {
    const k = await keyOfItsOwn({ creditsPerDay: 2 * INVALID_CALL_CREDITS });
    const ws = new WebSocket(`${t.gw.networks['eth-devnet']!.ws}/ws/v3/${k.key}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answers: any[] = [];
    ws.on('message', (d) => answers.push(JSON.parse(String(d))));
    try {
      for (let i = 1; i <= 3; i++) {
        ws.send(JSON.stringify(call(unknownName(i), [], i)));
        for (let n = 0; n < 200 && answers.length < i; n++) await new Promise((r) => setTimeout(r, 10));
      }
      expect(answers.map((a) => a.error.code)).toEqual([-32601, -32601, -32005]);
      expect(await usedToday(k)).toBe(2 * INVALID_CALL_CREDITS);
    } finally {
      ws.close();
    }
  });

  it('IPFS: an unknown command is charged and refused over the day like a JSON-RPC call', async () => {
    const k = await keyOfItsOwn({ creditsPerDay: 2 * INVALID_CALL_CREDITS });
    const post = (command: string) =>
      fetch(`${t.gw.ipfs}/api/v0/${command}`, {
        method: 'POST',
        headers: { authorization: basicAuth(k.key, k.secret) },
      });
    const statuses: number[] = [];
    for (const command of ['no/such/command', 'x'.repeat(300), 'swarm/peering/nope']) {
      const res = await post(command);
      await res.text();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([404, 404, 429]);
    expect(await usedToday(k)).toBe(2 * INVALID_CALL_CREDITS);
    await t.gw.flushUsage();
    const top = await admin(t.gw, 'GET', `/usage/top-methods?key=${k.key}&${range()}&limit=10`);
    expect(top.map((m: any) => [m.method, m.requests, m.credits])).toEqual([
      ['(unknown)', 3, 2 * INVALID_CALL_CREDITS],
    ]);
  });

  it('distinct unknown names make one usage row per key, network and minute, not one each', async () => {
    // a plan whose rate takes 100-item batches of invalid calls one after the other
    const k = await keyOfItsOwn({}, 'team');
    const names = Array.from({ length: 400 }, (_, i) => unknownName(i));
    for (let i = 0; i < names.length; i += 100) {
      const batch = names.slice(i, i + 100).map((m, j) => call(m, [], j));
      expect((await postJson(url(k.key), batch)).status).toBe(200);
    }
    await t.gw.flushUsage();
    const top = await admin(t.gw, 'GET', `/usage/top-methods?key=${k.key}&${range()}&limit=100`);
    expect(top.map((m: any) => [m.method, m.requests, m.credits])).toEqual([
      ['(other)', 400, 400 * INVALID_CALL_CREDITS],
    ]);
    const series = await admin(t.gw, 'GET', `/usage?key=${k.key}&${range()}&bucket=1m`);
    expect(series.totals.requests).toBe(400);
    // the request log holds the bucket too, never a name the client sent
    const logged = await admin(t.gw, 'GET', `/keys/${k.key}/requests?limit=100`);
    // (a flush writes at most 50 explorer rows per key: the 400 calls went in one or more flushes)
    expect(logged.length).toBeGreaterThanOrEqual(50);
    expect(logged.every((r: any) => r.method === '(other)' && r.credits === INVALID_CALL_CREDITS)).toBe(true);
  });
});
