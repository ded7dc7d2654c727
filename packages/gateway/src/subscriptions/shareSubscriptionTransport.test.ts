import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { createLogger } from '../log/createLogger.js';
import { rpc } from '../test-support/startTestGateway.js';
import { until } from '../test-support/until.js';
import { createEthSubscriptionFamily } from './createEthSubscriptionFamily.js';
import { createSubscriptionHub, type SubscriptionHub } from './createSubscriptionHub.js';
import { DEFAULT_SUBSCRIPTION_TIMINGS } from './createSubscriptions.js';
import { connectUpstreamSocket } from './SubscriptionTransport.js';
import { type SharedSubscriptionTransport, shareSubscriptionTransport } from './shareSubscriptionTransport.js';
import { startWsProxy, type WsProxy } from './startWsProxy.js';

// Two hubs (what two cluster workers hold) on one shared upstream connection, against a real
// anvil behind a proxy that counts what goes upstream: the gateway's workers must hold one
// upstream subscription per filter between them, as one process does.

let anvil: EmbeddedProcess;
let proxy: WsProxy;
const timings = { ...DEFAULT_SUBSCRIPTION_TIMINGS, initialBackoffMs: 50, maxBackoffMs: 200, giveUpAfterMs: 3_000 };
const log = createLogger('silent');

beforeAll(async () => {
  anvil = await startAnvil();
  proxy = await startWsProxy(anvil.ws!);
});
afterAll(async () => {
  await proxy?.close();
  await anvil?.stop();
});

const family = createEthSubscriptionFamily();
const sent = (method: string) => proxy.methods.filter((m) => m === method).length;
const mine = async () => expect((await rpc(anvil.http, 'evm_mine', [])).error).toBeUndefined();
const head = async () => Number((await rpc(anvil.http, 'eth_blockNumber', [])).result);

/** A hub as a worker builds it, its upstream connection the shared one. */
function hubOn(shared: SharedSubscriptionTransport): SubscriptionHub {
  return createSubscriptionHub({
    name: 'eth',
    family: createEthSubscriptionFamily(),
    wsUrl: () => proxy.url,
    fetch: async (method, params) => (await rpc(anvil.http, method, params)).result,
    timings,
    log,
    connect: shared.connect,
  });
}

/** A client of a hub: its subscription id and the heads it got. */
async function subscribeHeads(hub: SubscriptionHub) {
  const heads: number[] = [];
  const ends: Array<{ code: number; reason: string }> = [];
  const sub = await hub.subscribe('eth_subscribe', ['newHeads'], {
    event: (text) => heads.push(Number(JSON.parse(text).params.result.number)),
    end: (code, reason) => ends.push({ code, reason }),
  });
  sub.activate();
  return { id: sub.id, heads, ends };
}

describe('one upstream connection shared by several hubs (the workers of one gateway)', () => {
  it('newHeads on two hubs: one upstream eth_subscribe, every head to both; unsubscribed upstream with the last client, then the connection closes', async () => {
    const shared = shareSubscriptionTransport(connectUpstreamSocket(family, () => proxy.url, timings));
    const [one, two] = [hubOn(shared), hubOn(shared)];
    const before = sent('eth_subscribe');
    const a = await subscribeHeads(one);
    const b = await subscribeHeads(two);
    const c = await subscribeHeads(two);
    expect(sent('eth_subscribe') - before).toBe(1);
    expect(shared.stats()).toEqual({ upstreamSubscriptions: 1, upstreamConnections: 1, holders: 2 });
    expect(proxy.open).toBe(1);

    const first = (await head()) + 1;
    for (let i = 0; i < 3; i++) await mine();
    const expected = [first, first + 1, first + 2];
    await until(async () => a.heads.length === 3 && b.heads.length === 3 && c.heads.length === 3, 'three heads each');
    expect(a.heads).toEqual(expected);
    expect(b.heads).toEqual(expected);
    expect(c.heads).toEqual(expected);

    // a hub's last client leaving is not the gateway's: nothing goes upstream
    const pending = await one.subscribe('eth_subscribe', ['newPendingTransactions'], { event() {}, end() {} });
    const unsubscribesBefore = sent('eth_unsubscribe');
    one.unsubscribe(a.id);
    await mine();
    await until(async () => b.heads.length === 4, 'the other hub to keep getting heads');
    expect(sent('eth_unsubscribe')).toBe(unsubscribesBefore);
    // the filter's last holder leaving: unsubscribed upstream once (the connection stays for the other filter)
    two.unsubscribe(b.id);
    two.unsubscribe(c.id);
    await until(async () => sent('eth_unsubscribe') - unsubscribesBefore === 1, 'one eth_unsubscribe upstream');
    expect(shared.stats()).toEqual({ upstreamSubscriptions: 1, upstreamConnections: 1, holders: 1 });
    one.unsubscribe(pending.id);
    await until(async () => proxy.open === 0, 'the upstream connection to close');
    expect(shared.stats()).toEqual({ upstreamSubscriptions: 0, upstreamConnections: 0, holders: 0 });
  });

  it('the upstream connection cut: the hubs resubscribe one filter once between them, and each client gets every block once, in order', async () => {
    const shared = shareSubscriptionTransport(connectUpstreamSocket(family, () => proxy.url, timings));
    const [one, two] = [hubOn(shared), hubOn(shared)];
    const a = await subscribeHeads(one);
    const b = await subscribeHeads(two);
    const first = (await head()) + 1;
    await mine();
    await until(async () => a.heads.length === 1 && b.heads.length === 1, 'the first head');
    const before = sent('eth_subscribe');
    proxy.refuse(true);
    proxy.dropAll();
    // mined while the gateway has no upstream connection: backfilled on each hub
    await mine();
    await mine();
    proxy.refuse(false);
    await until(async () => a.heads.length === 3 && b.heads.length === 3, 'the missed heads');
    await mine();
    await until(async () => a.heads.length === 4 && b.heads.length === 4, 'the next live head');
    const expected = [first, first + 1, first + 2, first + 3];
    expect(a.heads).toEqual(expected);
    expect(b.heads).toEqual(expected);
    expect(sent('eth_subscribe') - before).toBe(1);
    expect(shared.stats().upstreamSubscriptions).toBe(1);
    one.close();
    two.close();
    await until(async () => proxy.open === 0, 'the upstream connection to close');
  });

  it('a hub that closes (a worker that died) lets go of its subscriptions; the others keep theirs', async () => {
    const shared = shareSubscriptionTransport(connectUpstreamSocket(family, () => proxy.url, timings));
    const [one, two] = [hubOn(shared), hubOn(shared)];
    const a = await subscribeHeads(one);
    const b = await subscribeHeads(two);
    one.close();
    expect(a.ends).toEqual([{ code: 1001, reason: 'gateway shutting down' }]);
    expect(shared.stats()).toMatchObject({ upstreamSubscriptions: 1, holders: 1 });
    await mine();
    await until(async () => b.heads.length === 1, 'the other hub to keep its head stream');
    two.close();
    await until(async () => proxy.open === 0, 'the upstream connection to close');
    expect(shared.stats()).toEqual({ upstreamSubscriptions: 0, upstreamConnections: 0, holders: 0 });
  });
});
