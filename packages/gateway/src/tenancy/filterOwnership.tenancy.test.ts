import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { createFaultUpstream, type FaultUpstream } from '../test-support/createFaultUpstream.js';
import { openWsClient, type WsTestClient } from '../test-support/openWsClient.js';
import { postJson, rpc, startTestGateway, type TestGateway, waitForReceipt } from '../test-support/startTestGateway.js';
import { createTestKey, setKeySettings, type TestKey } from '../test-support/testKeys.js';
import { until } from '../test-support/until.js';

// Issue 20 (tenant safety), eth filters: nodes keep filters under ids any caller may use, and the
// gateway passed the node's ids through, so a key that learned or guessed another key's filter id
// could read its changes or uninstall it, a key restricted to some contracts could read the logs
// of a filter another key made for any contract, a filter made on one upstream and polled on
// another was "not found", and a key could make filters without bound. The gateway now answers
// ids of its own, kept with the key and the upstream that holds each filter.

const MAX_FILTERS = 3;
const NOT_FOUND = { code: -32000, message: 'filter not found' };
/** anvil's first dev account (unlocked: eth_sendTransaction from it needs no signature). */
const DEV_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
/** Init code of a contract whose runtime (PUSH1 0 PUSH1 0 LOG0 STOP) emits one empty log per call. */
const LOGGER_INIT = '0x6560006000a0006000526006601af3';

let t: TestGateway;
/** Two more anvils (independent chains) behind fault upstreams: the network `eth-two`. */
let anvilA: EmbeddedProcess;
let anvilB: EmbeddedProcess;
let faultA: FaultUpstream;
let faultB: FaultUpstream;
/** Two contracts that emit logs: the restricted key is allowed `allowed` only. */
let allowed: string;
let other: string;
const clients: WsTestClient[] = [];

const url = (key: TestKey, network = 'eth-devnet') => `${t.gw.networks[network]!.http}/v3/${key.key}`;
const wsUrl = (key: TestKey) => `${t.gw.networks['eth-devnet']!.ws}/ws/v3/${key.key}`;
/** One JSON-RPC call: the whole response object. */
const call = (key: TestKey, method: string, params: unknown[] = [], network?: string) =>
  rpc(url(key, network), method, params);
/** A result, failing the test on an error answer. */
async function result(key: TestKey, method: string, params: unknown[] = [], network?: string): Promise<any> {
  const r = await call(key, method, params, network);
  expect(r.error, `${method} ${JSON.stringify(r.error)}`).toBeUndefined();
  return r.result;
}
/** Sends a transaction from the dev account straight to a node and waits for its block. */
async function send(nodeUrl: string, tx: Record<string, string>) {
  const hash = (await rpc(nodeUrl, 'eth_sendTransaction', [{ from: DEV_ACCOUNT, ...tx }])).result as string;
  return waitForReceipt(nodeUrl, hash);
}
/** A random id in the gateway's form that names no filter. */
const unknownId = () =>
  `0x${BigInt(`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')}`).toString(16)}`;

beforeAll(async () => {
  [anvilA, anvilB] = await Promise.all([startAnvil(), startAnvil()]);
  [faultA, faultB] = await Promise.all([createFaultUpstream(anvilA.http), createFaultUpstream(anvilB.http)]);
  t = await startTestGateway({
    extra: { limits: { maxFiltersPerKey: MAX_FILTERS }, cache: { enabled: false } },
    networks: () => [
      {
        name: 'eth-two',
        family: 'eth',
        chainId: 31337,
        pathPrefix: '/eth-two',
        upstreams: [
          { name: 'node-a', http: faultA.url },
          { name: 'node-b', http: faultB.url },
        ],
        // half of the reads go to the upstream that is not preferred: a filter read sent by
        // routing would miss its filter about every other time
        policy: { exploreShare: 0.5 },
      },
    ],
  });
  allowed = (await send(t.directUrl, { data: LOGGER_INIT })).contractAddress;
  other = (await send(t.directUrl, { data: LOGGER_INIT })).contractAddress;
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t?.stop();
  await Promise.all([faultA?.close(), faultB?.close()]);
  await Promise.all([anvilA?.stop(), anvilB?.stop()]);
});

describe("a key reaches only its own filters (issue 20: another key's filter id is as good as unknown)", () => {
  it("key B cannot poll, read or uninstall key A's filters; it gets what an unknown id gets", async () => {
    const a = await createTestKey(t.gw, { name: 'filter-owner' });
    const b = await createTestKey(t.gw, { name: 'filter-stranger' });
    const blocks = await result(a, 'eth_newBlockFilter');
    const logs = await result(a, 'eth_newFilter', [{ address: other }]);
    const pending = await result(a, 'eth_newPendingTransactionFilter');
    for (const id of [blocks, logs, pending]) expect(id).toMatch(/^0x[0-9a-f]{1,32}$/);
    // the ids are the gateway's, not the node's: the node knows none of them
    expect((await rpc(t.directUrl, 'eth_getFilterChanges', [blocks])).error).toEqual(NOT_FOUND);
    await send(t.directUrl, { to: other });

    const unknown = unknownId();
    for (const method of ['eth_getFilterChanges', 'eth_getFilterLogs']) {
      const asUnknown = await postJson(url(b), { jsonrpc: '2.0', id: 1, method, params: [unknown] });
      expect(asUnknown.json.error).toEqual(NOT_FOUND);
      for (const id of [blocks, logs, pending, id0(blocks)]) {
        const r = await postJson(url(b), { jsonrpc: '2.0', id: 1, method, params: [id] });
        expect(r.status).toBe(asUnknown.status);
        expect(r.json, `${method} ${id}`).toEqual(asUnknown.json);
      }
    }
    for (const id of [blocks, logs, pending]) expect(await result(b, 'eth_uninstallFilter', [id])).toBe(false);
    expect(await result(b, 'eth_uninstallFilter', [unknown])).toBe(false);

    // A's filters were neither read nor removed by B: A gets every change since it made them
    const blockChanges = await result(a, 'eth_getFilterChanges', [blocks]);
    expect(blockChanges).toHaveLength(1);
    const logChanges = await result(a, 'eth_getFilterChanges', [logs]);
    expect(logChanges.map((l: { address: string }) => l.address)).toEqual([other]);
    expect(await result(a, 'eth_getFilterLogs', [logs])).toHaveLength(1);
    expect(Array.isArray(await result(a, 'eth_getFilterChanges', [pending]))).toBe(true);
    // A's own uninstall works once; then the id is unknown to A as well
    expect(await result(a, 'eth_uninstallFilter', [blocks])).toBe(true);
    expect(await result(a, 'eth_uninstallFilter', [blocks])).toBe(false);
    expect((await call(a, 'eth_getFilterChanges', [blocks])).error).toEqual(NOT_FOUND);
    // another network's id is unknown too, even for its owner
    expect((await call(a, 'eth_getFilterChanges', [logs], 'eth-two')).error).toEqual(NOT_FOUND);
  });

  it("a restricted key cannot read logs of another key's filter, and its own filters follow its allowlist", async () => {
    const open = await createTestKey(t.gw, { name: 'filter-open' });
    const restricted = await createTestKey(t.gw, {
      name: 'filter-restricted',
      settings: { allowedContracts: [allowed] },
    });
    // at creation (as before): a filter on another contract, or on every contract, is refused
    for (const filter of [{ address: other }, {}]) {
      const refused = await postJson(url(restricted), {
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_newFilter',
        params: [filter],
      });
      expect(refused.status).toBe(403);
      expect(refused.json.error).toMatchObject({ code: -32002, data: { reason: 'contract' } });
    }
    const theirs = await result(open, 'eth_newFilter', [{ address: other }]);
    const mine = await result(restricted, 'eth_newFilter', [{ address: allowed }]);
    await send(t.directUrl, { to: other });
    await send(t.directUrl, { to: allowed });
    // the open key's filter on `other` is not the restricted key's to read
    for (const method of ['eth_getFilterChanges', 'eth_getFilterLogs']) {
      expect((await call(restricted, method, [theirs])).error).toEqual(NOT_FOUND);
    }
    const own = await result(restricted, 'eth_getFilterChanges', [mine]);
    expect(own.map((l: { address: string }) => l.address)).toEqual([allowed]);
    expect((await result(open, 'eth_getFilterChanges', [theirs])).map((l: { address: string }) => l.address)).toEqual([
      other,
    ]);
    // its allowlist changes: its own filter on a contract no longer allowed is refused at the next read
    await setKeySettings(t.gw, restricted.key, { allowedContracts: [other] });
    const after = await postJson(url(restricted), {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getFilterLogs',
      params: [mine],
    });
    expect(after.status).toBe(403);
    expect(after.json.error).toMatchObject({ code: -32002, data: { reason: 'contract' } });
  });

  it(`bounds the filters a key holds (limits.maxFiltersPerKey ${MAX_FILTERS}), over HTTP and WebSocket, also when made at once`, async () => {
    const c = await createTestKey(t.gw, { name: 'filter-hoarder' });
    const d = await createTestKey(t.gw, { name: 'filter-bystander' });
    const ids: string[] = [];
    for (let i = 0; i < MAX_FILTERS; i++) ids.push(await result(c, 'eth_newBlockFilter'));
    const over = await postJson(url(c), {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_newFilter',
      params: [{ address: other }],
    });
    expect(over.status).toBe(200);
    expect(over.json.error).toEqual({
      code: -32005,
      message: `too many filters for this API key: at most ${MAX_FILTERS}; remove one with eth_uninstallFilter, or let one expire (300 s without a read)`,
      data: { limit: MAX_FILTERS },
    });
    const ws = await openWsClient(wsUrl(c));
    clients.push(ws);
    expect((await ws.call('eth_newPendingTransactionFilter')).error).toMatchObject({ code: -32005 });
    // another key is not held by C's filters
    expect(await result(d, 'eth_newBlockFilter')).toMatch(/^0x/);
    // C's filters still answer; removing one frees a place
    expect(Array.isArray(await result(c, 'eth_getFilterChanges', [ids[0]]))).toBe(true);
    expect(await result(c, 'eth_uninstallFilter', [ids[0]])).toBe(true);
    expect((await ws.call('eth_newBlockFilter')).result).toMatch(/^0x/);
    expect((await call(c, 'eth_newBlockFilter')).error).toMatchObject({ code: -32005 });

    // made at once: never more than the bound
    const e = await createTestKey(t.gw, { name: 'filter-burst' });
    const burst = await Promise.all(Array.from({ length: 10 }, () => call(e, 'eth_newBlockFilter')));
    expect(burst.filter((r) => typeof r.result === 'string')).toHaveLength(MAX_FILTERS);
    expect(burst.filter((r) => r.error?.code === -32005)).toHaveLength(10 - MAX_FILTERS);
  });

  it('filters work over WebSocket by the same rules: the owner reads them on any transport, another key on none', async () => {
    const a = await createTestKey(t.gw, { name: 'ws-filter-owner' });
    const b = await createTestKey(t.gw, { name: 'ws-filter-stranger' });
    const wa = await openWsClient(wsUrl(a));
    const wb = await openWsClient(wsUrl(b));
    clients.push(wa, wb);
    const id = (await wa.call('eth_newBlockFilter')).result as string;
    expect(id).toMatch(/^0x[0-9a-f]+$/);
    await send(t.directUrl, { to: allowed });
    const changes = (await wa.call('eth_getFilterChanges', [id])).result;
    expect(changes).toHaveLength(1);
    const head = await rpc(t.directUrl, 'eth_getBlockByNumber', ['latest', false]);
    expect(changes[0]).toBe(head.result.hash);
    // the same filter over HTTP, for its owner
    expect(await result(a, 'eth_getFilterChanges', [id])).toEqual([]);
    // another key, over WebSocket: as unknown
    expect((await wb.call('eth_getFilterChanges', [id])).error).toEqual(NOT_FOUND);
    expect((await wb.call('eth_getFilterLogs', [id])).error).toEqual(NOT_FOUND);
    expect((await wb.call('eth_uninstallFilter', [id])).result).toBe(false);
    expect((await wa.call('eth_uninstallFilter', [id])).result).toBe(true);
    expect((await call(a, 'eth_getFilterChanges', [id])).error).toEqual(NOT_FOUND);
  });
});

describe('a network of several upstreams keeps each filter on the upstream that holds it', () => {
  it('filters made on node-a and on node-b are read there, every time, never "filter not found"', async () => {
    const k = await createTestKey(t.gw, { name: 'two-upstreams' });
    // a filter on each node: the other node refuses to make it (its connection resets)
    faultB.script((method) => (method === 'eth_newBlockFilter' ? { kind: 'reset' } : { kind: 'pass' }));
    const onA = await result(k, 'eth_newBlockFilter', [], 'eth-two');
    faultB.script(() => ({ kind: 'pass' }));
    faultA.script((method) => (method === 'eth_newBlockFilter' ? { kind: 'reset' } : { kind: 'pass' }));
    const onB = await result(k, 'eth_newBlockFilter', [], 'eth-two');
    faultA.script(() => ({ kind: 'pass' }));

    // the two chains move apart: two blocks on node-a, three on node-b
    await rpc(anvilA.http, 'anvil_mine', ['0x2']);
    await rpc(anvilB.http, 'anvil_mine', ['0x3']);
    const fromA: string[] = await result(k, 'eth_getFilterChanges', [onA], 'eth-two');
    const fromB: string[] = await result(k, 'eth_getFilterChanges', [onB], 'eth-two');
    expect(fromA).toHaveLength(2);
    expect(fromB).toHaveLength(3);
    for (const hash of fromA)
      expect((await rpc(anvilA.http, 'eth_getBlockByHash', [hash, false])).result).not.toBeNull();
    for (const hash of fromB)
      expect((await rpc(anvilB.http, 'eth_getBlockByHash', [hash, false])).result).not.toBeNull();

    // read again and again while routing explores: each read reaches its own node
    const readsBefore = [faultA.hits('eth_getFilterChanges'), faultB.hits('eth_getFilterChanges')];
    for (let i = 0; i < 20; i++) {
      const r = await call(k, 'eth_getFilterChanges', [i % 2 === 0 ? onA : onB], 'eth-two');
      expect(r.error, JSON.stringify(r.error)).toBeUndefined();
      expect(r.result).toEqual([]);
    }
    expect(faultA.hits('eth_getFilterChanges') - readsBefore[0]!).toBe(10);
    expect(faultB.hits('eth_getFilterChanges') - readsBefore[1]!).toBe(10);
  });
});

describe('filters expire as nodes expire theirs, here and upstream', () => {
  let short: TestGateway;
  let fault: FaultUpstream;
  beforeAll(async () => {
    fault = await createFaultUpstream(anvilA.http);
    short = await startTestGateway({
      extra: { limits: { filterTimeoutMs: 1_500 }, cache: { enabled: false } },
      networks: () => [
        {
          name: 'eth-faulty',
          family: 'eth',
          chainId: 31337,
          pathPrefix: '/eth-faulty',
          upstreams: [{ name: 'faulty', http: fault.url }],
        },
      ],
    });
  });
  afterAll(async () => {
    await short?.stop();
    await fault?.close();
  });
  const faultyUrl = (key: TestKey) => `${short.gw.networks['eth-faulty']!.http}/v3/${key.key}`;

  it('a filter read in time lives on; one left unread is gone (filter not found) and removed from its node', async () => {
    const k = await createTestKey(short.gw, { name: 'expiry' });
    const kept = (await rpc(faultyUrl(k), 'eth_newBlockFilter')).result as string;
    const left = (await rpc(faultyUrl(k), 'eth_newBlockFilter')).result as string;
    const end = Date.now() + 2_500;
    while (Date.now() < end) {
      const r = await rpc(faultyUrl(k), 'eth_getFilterChanges', [kept]);
      expect(r.error).toBeUndefined();
      await new Promise((r) => setTimeout(r, 400));
    }
    expect((await rpc(faultyUrl(k), 'eth_getFilterChanges', [left])).error).toEqual(NOT_FOUND);
    expect((await rpc(faultyUrl(k), 'eth_uninstallFilter', [left])).result).toBe(false);
    // the sweep removed it from the node (no client asked to)
    await until(async () => fault.hits('eth_uninstallFilter') >= 1, 'the expired filter to be removed upstream', {
      tries: 50,
      everyMs: 100,
    });
    expect(Array.isArray((await rpc(faultyUrl(k), 'eth_getFilterChanges', [kept])).result)).toBe(true);
  });

  it('a filter its node no longer holds (restarted, expired there) is dropped: filter not found from then on', async () => {
    const k = await createTestKey(short.gw, { name: 'node-lost-it' });
    const id = (await rpc(faultyUrl(k), 'eth_newBlockFilter')).result as string;
    expect((await rpc(faultyUrl(k), 'eth_getFilterChanges', [id])).result).toEqual([]);
    fault.script((method) =>
      method === 'eth_getFilterChanges'
        ? { kind: 'rpc-error', code: -32000, message: 'filter not found' }
        : { kind: 'pass' },
    );
    expect((await rpc(faultyUrl(k), 'eth_getFilterChanges', [id])).error).toEqual(NOT_FOUND);
    fault.script(() => ({ kind: 'pass' }));
    // the node still has it, but the gateway dropped it: not asked again
    const asked = fault.hits('eth_getFilterChanges');
    expect((await rpc(faultyUrl(k), 'eth_getFilterChanges', [id])).error).toEqual(NOT_FOUND);
    expect(fault.hits('eth_getFilterChanges')).toBe(asked);
  });
});

/** The same id with a leading zero digit: a different id, also unknown. */
function id0(id: string): string {
  return `0x0${id.slice(2)}`;
}
