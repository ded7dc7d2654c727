import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../embedded/startAnvil.js';
import { createFaultUpstream, type FaultUpstream } from '../test-support/createFaultUpstream.js';
import { type PolicyGateway, startPolicyGateway } from '../test-support/startPolicyGateway.js';
import { rpc } from '../test-support/startTestGateway.js';

// Two real anvils at different heights behind one gateway network: the one ahead goes away and
// routing has only the one behind left. A client's head must not go backwards. A network of one
// anvil shows that a chain that really went back (a revert) is still followed.
let ahead: Awaited<ReturnType<typeof startAnvil>>;
let behind: Awaited<ReturnType<typeof startAnvil>>;
let solo: Awaited<ReturnType<typeof startAnvil>>;
let fAhead: FaultUpstream;
let fBehind: FaultUpstream;
let t: PolicyGateway;
let url: string;
let soloUrl: string;

const n = (hex: string) => Number.parseInt(hex, 16);
const upstreams = async () => (await t.health()).mainnet.upstreams;

beforeAll(async () => {
  [ahead, behind, solo] = await Promise.all([startAnvil(), startAnvil(), startAnvil()]);
  await Promise.all([rpc(ahead.http, 'anvil_mine', ['0xa']), rpc(behind.http, 'anvil_mine', ['0x5'])]);
  [fAhead, fBehind] = await Promise.all([createFaultUpstream(ahead.http), createFaultUpstream(behind.http)]);
  // (no response cache: the network's own guard is under test)
  t = await startPolicyGateway([
    {
      name: 'mainnet',
      family: 'eth',
      pathPrefix: '/mainnet',
      // the one behind first in the config: routing by position alone would pick it
      upstreams: [
        { name: 'behind', http: fBehind.url },
        { name: 'ahead', http: fAhead.url },
      ],
      policy: { probeIntervalMs: 300, breakerFailures: 3, breakerOpenMs: 60_000 },
    },
    {
      name: 'solo',
      family: 'eth',
      pathPrefix: '/solo',
      upstreams: [{ name: 'solo', http: solo.http }],
    },
  ]);
  url = t.url('mainnet');
  soloUrl = t.url('solo');
});

afterAll(async () => {
  await t?.stop();
  await Promise.all([fAhead?.close(), fBehind?.close()]);
  await Promise.all([ahead?.stop(), behind?.stop(), solo?.stop()]);
});

describe('a client never sees the head go backwards', () => {
  it('when routing is left with an upstream behind, eth_blockNumber and the latest block stay at the head served', async () => {
    expect((await upstreams()).find((u: any) => u.name === 'behind').lag).toBe(5);
    // head reads go to the upstream at the best head, whatever the config order
    for (let i = 0; i < 20; i++) expect((await rpc(url, 'eth_blockNumber')).result).toBe('0xa');
    expect((await rpc(url, 'eth_getBlockByNumber', ['latest', false])).result.number).toBe('0xa');
    // the upstream ahead goes away: only the one 5 blocks behind is left
    fAhead.script(() => ({ kind: 'html', status: 502 }));
    const seen: number[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await rpc(url, 'eth_blockNumber');
      expect(r.error).toBeUndefined();
      seen.push(n(r.result));
      const block = await rpc(url, 'eth_getBlockByNumber', ['latest', false]);
      expect(block.error).toBeUndefined();
      seen.push(n(block.result.number));
    }
    expect(Math.min(...seen)).toBe(10);
    expect((await upstreams()).find((u: any) => u.name === 'ahead').breaker).toBe('open');
    // the one left catches up and passes the head: the client follows it from there
    await rpc(behind.http, 'anvil_mine', ['0x7']);
    let last = 10;
    for (let i = 0; i < 50 && last < 12; i++) {
      const r = await rpc(url, 'eth_blockNumber');
      expect(n(r.result)).toBeGreaterThanOrEqual(last);
      last = n(r.result);
      if (last < 12) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(last).toBe(12);
    expect(n((await rpc(url, 'eth_getBlockByNumber', ['latest', false])).result.number)).toBe(12);
  });

  it('a chain that really went back (every upstream says so: a revert, a reorg to a shorter chain) is followed', async () => {
    const snapshot = (await rpc(solo.http, 'evm_snapshot')).result;
    await rpc(solo.http, 'anvil_mine', ['0x3']);
    expect((await rpc(soloUrl, 'eth_blockNumber')).result).toBe('0x3');
    await rpc(solo.http, 'evm_revert', [snapshot]);
    expect((await rpc(soloUrl, 'eth_blockNumber')).result).toBe('0x0');
    expect((await rpc(soloUrl, 'eth_getBlockByNumber', ['latest', false])).result.number).toBe('0x0');
  });
});
