import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWsClient, type WsTestClient } from '../test-support/openWsClient.js';
import { postJson, rpc, type TestGateway, startTestGateway } from '../test-support/startTestGateway.js';
import { admin, createTestKey, setKeySettings } from '../test-support/testKeys.js';
import { until } from '../test-support/until.js';

// Issue 20, item 2: revoking a key or changing its settings did not reach open WebSocket
// connections (the key was checked only at the upgrade): after DELETE /keys/KEY an open socket
// kept answering and delivered 10 of 10 new heads; after restricting allowedMethods and
// creditsPerDay: 1 it still answered 3 of 3 calls. Each test has two keys: the one changed, and
// another whose connection must not notice anything. (Two instances: wsKeyResync.tenancy.test.ts.)

let t: TestGateway;
const clients: WsTestClient[] = [];
beforeAll(async () => {
  t = await startTestGateway({ extra: { cache: { enabled: false } } });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t?.stop();
});

const wsUrl = (key: string) => `${t.gw.networks['eth-devnet']!.ws}/ws/v3/${key}`;
const httpUrl = (key: string) => `${t.gw.networks['eth-devnet']!.http}/v3/${key}`;
async function connect(key: string, options: { origin?: string } = {}) {
  const c = await openWsClient(wsUrl(key), options);
  clients.push(c);
  return c;
}
const mine = async (n: number) => {
  for (let i = 0; i < n; i++) expect((await rpc(t.rpcUrl, 'evm_mine')).error).toBeUndefined();
};

describe('open WebSocket connections follow their key (issue 20, item 2)', () => {
  it('a revoked key: its sockets get a -32001 notice and close with 1008 within 1 s; no head reaches them; the other key is untouched', async () => {
    const a = await createTestKey(t.gw, { name: 'revoked' });
    const b = await createTestKey(t.gw, { name: 'bystander' });
    const [a1, a2, b1] = [await connect(a.key), await connect(a.key), await connect(b.key)];
    const subA = (await a1.call('eth_subscribe', ['newHeads'])).result as string;
    const subB = (await b1.call('eth_subscribe', ['newHeads'])).result as string;
    expect((await a2.call('eth_chainId')).result).toBe('0x7a69');
    await mine(1);
    await until(async () => a1.events(subA).length === 1 && b1.events(subB).length === 1, 'the first head');

    await admin(t.gw, 'DELETE', `/keys/${a.key}`);
    const revokedAt = Date.now();
    for (const c of [a1, a2]) {
      const closed = await Promise.race([c.closed, new Promise((r) => setTimeout(r, 2_000))]);
      expect(closed, 'closed within 2 s').toMatchObject({ code: 1008, reason: 'invalid API key: unknown or revoked' });
      expect(c.closedWith()!.at - revokedAt).toBeLessThan(1_000);
      const notice = c.unmatched.find((m) => m.id === null && m.error);
      expect(notice.error.code).toBe(-32001);
    }
    expect((await postJson(httpUrl(a.key), { jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).status).toBe(401);

    await mine(10);
    await until(async () => b1.events(subB).length === 11, 'the other key to get 10 more heads');
    expect(a1.events(subA)).toHaveLength(1);
    expect((await b1.call('eth_chainId')).result).toBe('0x7a69');
    expect(b1.closedWith()).toBeUndefined();
  });

  it('a settings change applies to the next message: allowedMethods refuses, then creditsPerDay: 1 refuses 3 of 3 calls; the other key answers', async () => {
    const a = await createTestKey(t.gw, { name: 'restricted' });
    const b = await createTestKey(t.gw, { name: 'bystander' });
    const ca = await connect(a.key);
    const cb = await connect(b.key);
    expect((await ca.call('eth_chainId')).result).toBe('0x7a69');

    await setKeySettings(t.gw, a.key, { allowedMethods: ['eth_blockNumber'] });
    for (let i = 0; i < 3; i++) {
      const refused = await ca.call('eth_chainId');
      expect(refused.error).toMatchObject({ code: -32002, data: { reason: 'method' } });
    }
    expect((await ca.call('eth_blockNumber')).result).toMatch(/^0x/);

    await setKeySettings(t.gw, a.key, { allowedMethods: [], creditsPerDay: 1 });
    for (let i = 0; i < 3; i++) {
      const refused = await ca.call('eth_chainId');
      expect(refused.error).toMatchObject({ code: -32005, message: 'daily credit limit exceeded' });
    }
    expect((await cb.call('eth_chainId')).result).toBe('0x7a69');
    expect(ca.closedWith()).toBeUndefined();
  });

  it("settings that now refuse the connection's origin close it (1008, with the rule); the other key's connection from that origin stays", async () => {
    const a = await createTestKey(t.gw, { name: 'origin', settings: { allowedOrigins: ['https://app.example.com'] } });
    const b = await createTestKey(t.gw, {
      name: 'bystander',
      settings: { allowedOrigins: ['https://app.example.com'] },
    });
    const ca = await connect(a.key, { origin: 'https://app.example.com' });
    const cb = await connect(b.key, { origin: 'https://app.example.com' });
    expect((await ca.call('eth_chainId')).result).toBe('0x7a69');
    await setKeySettings(t.gw, a.key, { allowedOrigins: ['https://other.example.com'] });
    const closed = await ca.closed;
    expect(closed).toMatchObject({ code: 1008, reason: 'rejected due to project ID settings: origin' });
    expect((await cb.call('eth_chainId')).result).toBe('0x7a69');
  });

  it('settings that no longer allow an open subscription (method, or a contract of a logs filter) close its connection; calls still allowed do not', async () => {
    const contract = `0x${'11'.repeat(20)}`;
    const a = await createTestKey(t.gw, { name: 'subscriber' });
    const b = await createTestKey(t.gw, { name: 'logs', settings: { allowedContracts: [contract] } });
    const ca = await connect(a.key);
    const cb = await connect(b.key);
    expect((await ca.call('eth_subscribe', ['newHeads'])).result).toMatch(/^0x/);
    expect((await cb.call('eth_subscribe', ['logs', { address: contract }])).result).toMatch(/^0x/);

    // a change that still allows both: nothing closes
    await setKeySettings(t.gw, a.key, { allowedMethods: ['eth_subscribe', 'eth_chainId'] });
    await setKeySettings(t.gw, b.key, { allowedContracts: [contract, `0x${'22'.repeat(20)}`] });
    expect((await ca.call('eth_chainId')).result).toBe('0x7a69');
    expect((await cb.call('eth_chainId')).result).toBe('0x7a69');

    await setKeySettings(t.gw, a.key, { allowedMethods: ['eth_chainId'] });
    expect(await ca.closed).toMatchObject({ code: 1008, reason: 'rejected due to project ID settings: method' });
    await setKeySettings(t.gw, b.key, { allowedContracts: [`0x${'22'.repeat(20)}`] });
    expect(await cb.closed).toMatchObject({ code: 1008, reason: 'rejected due to project ID settings: contract' });
  });
});
