import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { createFaultUpstream, type FaultUpstream } from '../test-support/createFaultUpstream.js';
import { type SpawnedGateway, spawnGateway } from '../test-support/spawnGateway.js';
import { postJson } from '../test-support/startTestGateway.js';

// The X-Nodegate-* diagnostics of HTTP answers and the same facts in the access log, on the
// gateway as users run it (the built CLI, JSON log on stdout): a network over two fault proxies
// in front of one anvil, and the same network with the headers turned off.
let anvil: EmbeddedProcess;
let f1: FaultUpstream;
let f2: FaultUpstream;
let gateway: SpawnedGateway;
const addr = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DIAGNOSTICS = ['x-nodegate-upstream', 'x-nodegate-attempts', 'x-nodegate-cache', 'x-nodegate-multiplexed'];

beforeAll(async () => {
  anvil = await startAnvil();
  [f1, f2] = await Promise.all([createFaultUpstream(anvil.http), createFaultUpstream(anvil.http)]);
  const upstreams = [
    { name: 'one', http: f1.url },
    { name: 'two', http: f2.url },
  ];
  gateway = await spawnGateway({
    devKey: true,
    log: { access: true },
    networks: [
      { name: 'diag', family: 'eth', pathPrefix: '/diag', upstreams, policy: { exploreShare: 0, hedge: false } },
      {
        name: 'quiet',
        family: 'eth',
        pathPrefix: '/quiet',
        upstreams,
        policy: { exploreShare: 0, hedge: false, diagnosticHeaders: false },
      },
    ],
  });
});
afterAll(async () => {
  await gateway?.stop();
  await Promise.all([f1?.close(), f2?.close()]);
  await anvil?.stop();
});

const url = (network: string) => `${gateway.ready.networks[network]!.http}/v3/${gateway.ready.devKey!.key}`;
const call = (method: string, params: unknown[] = [], id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params });
/** The upstream the first call went to, and the other one (set by the first test). */
let firstUpstream = '';
let otherUpstream = '';
const accessLines = (): any[] => gateway.logLines().filter((o) => o.msg === 'request');

describe('diagnostics per answer', () => {
  it('names the upstream, counts the attempts and says whether the cache or a shared call answered', async () => {
    // which of the two is preferred first depends on the start-up probes' latencies: read it
    const first = await postJson(url('diag'), call('eth_chainId'));
    const preferred = first.headers.get('x-nodegate-upstream');
    expect(['one', 'two']).toContain(preferred);
    const other = preferred === 'one' ? 'two' : 'one';
    const fault = { one: f1, two: f2 } as const;
    firstUpstream = preferred!;
    otherUpstream = other;
    expect(first.headers.get('x-nodegate-attempts')).toBe('1');
    expect(first.headers.get('x-nodegate-cache')).toBe('MISS');
    expect(first.headers.get('x-nodegate-multiplexed')).toBeNull();
    // the cache answers the chain id now: no upstream, no attempt
    const cached = await postJson(url('diag'), call('eth_chainId'));
    expect(cached.headers.get('x-nodegate-cache')).toBe('HIT');
    expect(cached.headers.get('x-nodegate-attempts')).toBe('0');
    expect(cached.headers.get('x-nodegate-upstream')).toBeNull();
    // the preferred upstream fails: the answer says which one answered, after two attempts
    fault[preferred as 'one' | 'two'].script((m) =>
      m === 'eth_getBalance' ? { kind: 'html', status: 502 } : { kind: 'pass' },
    );
    const failedOver = await postJson(url('diag'), call('eth_getBalance', [addr, '0x0']));
    expect(failedOver.json.result).toMatch(/^0x/);
    expect(failedOver.headers.get('x-nodegate-upstream')).toBe(other);
    expect(failedOver.headers.get('x-nodegate-attempts')).toBe('2');
    // a batch: every upstream that answered, once, and the attempts of all its calls (each
    // upstream fails one of the two methods: whichever is preferred now, one call fails over)
    fault[other].script((m) => (m === 'eth_gasPrice' ? { kind: 'html', status: 502 } : { kind: 'pass' }));
    const batch = await postJson(url('diag'), [call('eth_getBalance', [addr, '0x1'], 1), call('eth_gasPrice', [], 2)]);
    expect(batch.headers.get('x-nodegate-upstream')?.split(',').sort()).toEqual(['one', 'two']);
    expect(batch.headers.get('x-nodegate-attempts')).toBe('3');
    f1.script(() => ({ kind: 'pass' }));
    f2.script(() => ({ kind: 'pass' }));
    // identical reads in flight: the later ones say they shared the first one's call (slow on
    // both upstreams, whichever is preferred now)
    const slow = (m: string) =>
      m === 'eth_getCode' ? ({ kind: 'slow', ms: 300 } as const) : ({ kind: 'pass' } as const);
    f1.script(slow);
    f2.script(slow);
    const shared = await Promise.all(
      [0, 1, 2].map((i) => postJson(url('diag'), call('eth_getCode', [addr, 'latest'], i))),
    );
    f1.script(() => ({ kind: 'pass' }));
    f2.script(() => ({ kind: 'pass' }));
    expect(shared.filter((r) => r.headers.get('x-nodegate-multiplexed') === 'true')).toHaveLength(2);
    // names and counts only: no URL, no key, in any diagnostic
    for (const r of [first, cached, failedOver, batch, ...shared]) {
      for (const h of DIAGNOSTICS) {
        const v = r.headers.get(h) ?? '';
        expect(v).not.toMatch(/127\.0\.0\.1|http/);
        expect(v).not.toContain(gateway.ready.devKey!.key);
      }
    }
    // browsers may read them
    expect(first.headers.get('access-control-expose-headers')).toContain('X-Nodegate-Attempts');
  });

  it('the same facts are in the access log', async () => {
    await new Promise((r) => setTimeout(r, 200));
    const lines = accessLines().filter((l) => l.network === 'diag');
    const byMethod = (m: string) => lines.filter((l) => l.method === m);
    expect(byMethod('eth_chainId').map((l) => [l.upstream, l.attempts, l.cache])).toEqual([
      [firstUpstream, 1, 'MISS'],
      [undefined, undefined, 'HIT'],
    ]);
    expect(byMethod('eth_getBalance')[0]).toMatchObject({ upstream: otherUpstream, attempts: 2 });
    expect(byMethod('eth_getCode').filter((l) => l.multiplexed === true)).toHaveLength(2);
    for (const l of lines) expect(JSON.stringify(l)).not.toContain('127.0.0.1');
  });

  it('a network can turn the headers off', async () => {
    const r = await postJson(url('quiet'), call('eth_blockNumber'));
    expect(r.json.result).toMatch(/^0x/);
    for (const h of DIAGNOSTICS) expect(r.headers.get(h), h).toBeNull();
  });
});
