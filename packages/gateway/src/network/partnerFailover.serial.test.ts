import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../embedded/startAnvil.js';
import { OPERATOR_ACCOUNT_ID } from '../store/sql.js';
import { createFaultUpstream, type FaultUpstream } from '../test-support/createFaultUpstream.js';
import { type SpawnedGateway, spawnGateway } from '../test-support/spawnGateway.js';
import { postJson, rpc } from '../test-support/startTestGateway.js';

// Failover protection, proven with real parts: two primary anvils and a partner anvil holding the
// same chain (same genesis time, the same transactions mined at the same timestamps), a gateway
// in its own process (the built CLI, its log and access log on stderr), clients with a
// Growth-plan key asking for failover while both primaries are killed with SIGKILL. The partner
// sits behind a counting proxy, so what reaches it is known.
const GENESIS = 1_700_000_000;
const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'; // anvil's first dev account
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let primaries: Awaited<ReturnType<typeof startAnvil>>[];
let partnerNode: Awaited<ReturnType<typeof startAnvil>>;
let partner: FaultUpstream;
let gateway: SpawnedGateway;
let ready: SpawnedGateway['ready'];
let base: string;
const blocks: string[] = [];
const txs: string[] = [];

/** The same five blocks on every node: one transfer each, at fixed timestamps. */
async function mineTheChain(url: string): Promise<{ blocks: string[]; txs: string[] }> {
  const out = { blocks: [] as string[], txs: [] as string[] };
  for (let i = 0; i < 5; i++) {
    await rpc(url, 'anvil_setNextBlockTimestamp', [GENESIS + 12 * (i + 1)]);
    const sent = await rpc(url, 'eth_sendTransaction', [
      {
        from: FROM,
        to: TO,
        value: '0x1',
        gas: '0x5208',
        maxFeePerGas: '0x77359400',
        maxPriorityFeePerGas: '0x1',
        nonce: `0x${i.toString(16)}`,
      },
    ]);
    out.txs.push(sent.result);
    // anvil mines after it answers eth_sendTransaction: wait for the receipt, as clients do
    for (let t = 0; !(await rpc(url, 'eth_getTransactionReceipt', [sent.result])).result; t++) {
      if (t > 200) throw new Error(`transaction ${sent.result} not mined`);
      await new Promise((r) => setTimeout(r, 10));
    }
    out.blocks.push((await rpc(url, 'eth_getBlockByNumber', [`0x${(i + 1).toString(16)}`, false])).result.hash);
  }
  return out;
}

const admin = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${ready.admin.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ready.admin.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`admin ${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as any;
};
const keyUrl = (key: string) => `${ready.networks.mainnet!.http}/v3/${key}`;
const logLines = () => gateway.logLines();

beforeAll(async () => {
  const args = ['--timestamp', String(GENESIS)];
  [primaries, partnerNode] = await Promise.all([
    Promise.all([startAnvil({ args }), startAnvil({ args })]),
    startAnvil({ args }),
  ]);
  const chains = await Promise.all([...primaries, partnerNode].map((a) => mineTheChain(a.http)));
  // the nodes hold the same chain, byte for byte
  for (const c of chains.slice(1)) expect(c).toEqual(chains[0]);
  blocks.push(...chains[0]!.blocks);
  txs.push(...chains[0]!.txs);
  partner = await createFaultUpstream(partnerNode.http);
  gateway = await spawnGateway({
    log: { access: true },
    metrics: { enabled: true, auth: 'none' },
    // the load below is the client's worst case, not a rate test: growth's 100,000 credits a second
    // is some 1,250 lookups, which 10 clients pass on a quiet machine
    plans: { growth: { creditsPerSecond: 100_000_000 } },
    // answers by hash would come from the cache: the routing is under test
    cache: { enabled: false },
    networks: [
      {
        name: 'mainnet',
        family: 'eth',
        pathPrefix: '/mainnet',
        upstreams: primaries.map((a, i) => ({ name: `primary-${i + 1}`, http: a.http, timeoutMs: 2_000 })),
        partners: [{ name: 'partner', http: partner.url }],
        policy: { probeIntervalMs: 250 },
      },
    ],
  });
  ready = gateway.ready;
  base = new URL(ready.admin.url).origin;
});

afterAll(async () => {
  await gateway?.stop();
  await partner?.close();
  await Promise.all([...(primaries ?? []), partnerNode].map((a) => a?.stop()));
});

describe('failover protection with the primaries killed under load', () => {
  it('no request fails or hangs; the partner answers forwardable lookups for the plan and header only, and usage, logs and metrics say so', async () => {
    const growth = await admin('POST', `/accounts/${OPERATOR_ACCOUNT_ID}/keys`, { name: 'growth', plan: 'growth' });
    const developer = await admin('POST', `/accounts/${OPERATOR_ACCOUNT_ID}/keys`, { name: 'dev', plan: 'developer' });
    const failover = { 'enable-failover': 'true' };
    // while the primaries are fine the partner gets no client traffic and is probed once (at start),
    // not at every round (4 rounds a second here)
    await new Promise((r) => setTimeout(r, 1_000));
    const partnerProbesAtStart = partner.hits('eth_blockNumber');
    expect(partnerProbesAtStart).toBeLessThanOrEqual(1);
    // a lookup while the primaries are fine is recorded as a primary's answer, without failover
    const before = await postJson(
      keyUrl(growth.key),
      { jsonrpc: '2.0', id: 0, method: 'eth_getBlockByHash', params: [blocks[0], false] },
      failover,
    );
    expect(before.headers.get('x-nodegate-failover')).toBeNull();
    await new Promise((r) => setTimeout(r, 1_500)); // usage is flushed every second
    const beforeRows = await admin('GET', `/keys/${growth.key}/requests?limit=10`);
    expect(beforeRows.some((r: any) => r.failover === null && r.upstream?.startsWith('primary-'))).toBe(true);

    type Sample = { start: number; end: number; ok: boolean; partner: boolean };
    const samples: Sample[] = [];
    const t0 = performance.now();
    const killAt = 1_500;
    let killed = false;
    const worker = async (w: number) => {
      for (let i = w; performance.now() - t0 < 4_500; i++) {
        if (!killed && performance.now() - t0 >= killAt) {
          killed = true;
          for (const a of primaries) process.kill(a.pid, 'SIGKILL');
        }
        const byBlock = i % 2 === 0;
        const n = i % 5;
        const start = performance.now() - t0;
        let ok = false;
        let byPartner = false;
        try {
          const r = await postJson(
            keyUrl(growth.key),
            byBlock
              ? { jsonrpc: '2.0', id: i, method: 'eth_getBlockByHash', params: [blocks[n], false] }
              : { jsonrpc: '2.0', id: i, method: 'eth_getTransactionByHash', params: [txs[n]] },
            failover,
          );
          ok = r.status === 200 && (byBlock ? r.json.result?.hash === blocks[n] : r.json.result?.hash === txs[n]);
          byPartner = r.headers.get('x-nodegate-failover') === 'partner';
        } catch {}
        samples.push({ start, end: performance.now() - t0, ok, partner: byPartner });
      }
    };
    await Promise.all(Array.from({ length: 10 }, (_, w) => worker(w)));

    const failed = samples.filter((s) => !s.ok);
    const longest = Math.max(...samples.map((s) => s.end - s.start));
    const after = samples.filter((s) => s.start > killAt + 50);
    console.log(
      `partner failover under load: ${samples.length} requests, ${failed.length} failed, longest ${longest.toFixed(0)} ms, ${after.length} after the kill (${after.filter((s) => s.partner).length} by the partner)`,
    );
    // no request fails, none hangs
    expect(failed).toEqual([]);
    expect(longest).toBeLessThan(3_000);
    expect(samples.length).toBeGreaterThan(100);
    // before the kill the primaries answered; after it, the partner, and the answers say so
    expect(samples.filter((s) => s.end < killAt).every((s) => !s.partner)).toBe(true);
    expect(after.length).toBeGreaterThan(20);
    expect(after.every((s) => s.partner)).toBe(true);

    // while the primaries are down the partner is probed at every round
    expect(partner.hits('eth_blockNumber')).toBeGreaterThan(partnerProbesAtStart + 2);

    // without the header, or without the plan: the outage shows
    const notAsked = await postJson(keyUrl(growth.key), {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getBlockByHash',
      params: [blocks[0], false],
    });
    expect(notAsked.json.error.code).toBe(-32603);
    expect(notAsked.headers.get('x-nodegate-failover')).toBeNull();
    const noPlan = await postJson(
      keyUrl(developer.key),
      { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [txs[0]] },
      failover,
    );
    expect(noPlan.json.error.code).toBe(-32603);
    expect(noPlan.headers.get('x-nodegate-failover')).toBeNull();
    // methods not marked forwardable never reach the partner, whoever asks
    for (const [method, params] of [
      ['eth_getBlockByNumber', ['0x1', false]],
      ['eth_getBalance', [TO, 'latest']],
      ['eth_getTransactionReceipt', [txs[0]]],
    ] as const) {
      const r = await postJson(keyUrl(growth.key), { jsonrpc: '2.0', id: 1, method, params }, failover);
      expect(r.json.error.code, method).toBe(-32603);
      expect(partner.hits(method), method).toBe(0);
    }

    // usage records which requests the partner answered (the request explorer's data)
    await new Promise((r) => setTimeout(r, 1_500)); // flushed every second
    const recent = await admin('GET', `/keys/${growth.key}/requests?limit=200`);
    const byPartner = recent.filter((r: any) => r.failover === 'partner');
    expect(byPartner.length).toBeGreaterThan(20);
    for (const r of byPartner) expect(r.upstream).toBe('partner');

    // the access log too, and one warn line per partner answer with its request id
    const lines = logLines();
    const access = lines.filter((l) => l.msg === 'request' && l.failover === 'partner');
    expect(access.length).toBeGreaterThan(20);
    const partnerLines = lines.filter((l) => l.msg === 'answered by a failover partner');
    // one warn line per partner call: callers that joined an identical call in flight
    // (multiplexed) share its answer, and its line
    const ownCalls = access.filter((l) => l.multiplexed !== true);
    expect(ownCalls.length).toBeGreaterThan(20);
    expect(partnerLines.length).toBe(ownCalls.length);
    expect(partnerLines[0]).toMatchObject({ level: 'warn', network: 'mainnet', to: 'partner' });
    const accessIds = new Set(access.map((l) => l.requestId));
    for (const l of partnerLines) expect(accessIds.has(l.requestId)).toBe(true);
    // each primary's breaker opened, in one line each
    for (const name of ['primary-1', 'primary-2']) {
      expect(
        lines.some(
          (l) =>
            l.msg === 'upstream circuit breaker changed' &&
            l.upstream === name &&
            l.to === 'open' &&
            l.level === 'warn',
        ),
        name,
      ).toBe(true);
    }

    // and the metrics
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const partnerFailovers = /nodegate_failovers_total\{network="mainnet",kind="partner"\} (\d+)/.exec(metrics);
    // counted per partner call, as the warn lines (multiplexed callers share one)
    expect(Number(partnerFailovers?.[1])).toBe(ownCalls.length);
    for (const name of ['primary-1', 'primary-2']) {
      expect(metrics).toContain(
        `nodegate_upstream_breaker_state{network="mainnet",upstream="${name}",role="primary"} 2`,
      );
    }
  });
});
