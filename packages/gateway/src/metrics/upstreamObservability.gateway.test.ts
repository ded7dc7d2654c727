import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../embedded/startAnvil.js';
import { createFaultUpstream, type FaultUpstream } from '../test-support/createFaultUpstream.js';
import { metricValue as value, parseMetrics } from '../test-support/metricSamples.js';
import { type SpawnedGateway, spawnGateway } from '../test-support/spawnGateway.js';
import { rpc } from '../test-support/startTestGateway.js';
import { until } from '../test-support/until.js';

// What operators see of an upstream that fails and recovers: the gateway as users run it (the
// built CLI, logs on stderr), two fault proxies in front of one anvil, /metrics scraped.
let anvil: Awaited<ReturnType<typeof startAnvil>>;
let f1: FaultUpstream;
let f2: FaultUpstream;
let gateway: SpawnedGateway;
let url: string;
let metricsUrl: string;

const scrape = async () => parseMetrics(await (await fetch(metricsUrl)).text());
const logLines = () => gateway.logLines();

beforeAll(async () => {
  anvil = await startAnvil();
  [f1, f2] = await Promise.all([createFaultUpstream(anvil.http), createFaultUpstream(anvil.http)]);
  gateway = await spawnGateway({
    devKey: true,
    log: { access: true },
    metrics: { enabled: true, auth: 'none' },
    cache: { enabled: false },
    networks: [
      {
        name: 'mainnet',
        family: 'eth',
        pathPrefix: '/mainnet',
        upstreams: [
          { name: 'first', http: f1.url },
          { name: 'second', http: f2.url },
        ],
        policy: { probeIntervalMs: 200, breakerFailures: 3, breakerOpenMs: 500, exploreShare: 0, hedge: false },
      },
    ],
  });
  const ready = gateway.ready;
  url = `${ready.networks.mainnet!.http}/v3/${ready.devKey!.key}`;
  metricsUrl = `${new URL(ready.admin.url).origin}/metrics`;
});

afterAll(async () => {
  await gateway?.stop();
  await Promise.all([f1?.close(), f2?.close()]);
  await anvil?.stop();
});

describe('an upstream that fails and recovers, as metrics and logs show it', () => {
  it('score, breaker state and failovers move in /metrics; breaker changes and in-request failovers are logged', async () => {
    const addr = `0x${'ab'.repeat(20)}`;
    for (let i = 0; i < 10; i++) expect((await rpc(url, 'eth_getBalance', [addr, 'latest'])).result).toBe('0x0');
    const first = { network: 'mainnet', upstream: 'first', role: 'primary' };
    const second = { network: 'mainnet', upstream: 'second', role: 'primary' };
    const light = { class: 'light' };
    let m = await scrape();
    expect(value(m, 'nodegate_upstream_breaker_state', first)).toBe(0);
    expect(value(m, 'nodegate_upstream_breaker_state', second)).toBe(0);
    const failoversBefore = value(m, 'nodegate_failovers_total', { network: 'mainnet', kind: 'upstream' });
    const healthyScore = value(m, 'nodegate_upstream_score', { ...first, ...light });
    // scores by class: nothing heavy was asked yet, so the heavy class holds the unknown default
    expect(value(m, 'nodegate_upstream_score', { ...first, class: 'heavy' })).toBe(50);

    // the first upstream answers HTML 502s: calls fail over inside their request, its breaker opens
    f1.script(() => ({ kind: 'html', status: 502 }));
    for (let i = 0; i < 10; i++) expect((await rpc(url, 'eth_getBalance', [addr, 'latest'])).result).toBe('0x0');
    m = await until(async () => {
      const s = await scrape();
      return value(s, 'nodegate_upstream_breaker_state', first) === 2 ? s : undefined;
    }, 'the breaker to show open');
    expect(value(m, 'nodegate_upstream_breaker_state', second)).toBe(0);
    expect(value(m, 'nodegate_failovers_total', { network: 'mainnet', kind: 'upstream' })).toBeGreaterThan(
      failoversBefore,
    );
    const badScore = value(m, 'nodegate_upstream_score', { ...first, ...light });
    expect(badScore).toBeGreaterThan(healthyScore * 2);
    expect(badScore).toBeGreaterThan(value(m, 'nodegate_upstream_score', { ...second, ...light }));
    expect(value(m, 'nodegate_upstream_error_rate', { ...first, ...light })).toBeGreaterThan(0);
    expect(value(m, 'nodegate_upstream_healthy', first)).toBe(0);

    // routing decides again on the next requests (rankings are kept for 100 ms): it now prefers the second upstream
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 150));
      expect((await rpc(url, 'eth_getBalance', [addr, 'latest'])).result).toBe('0x0');
    }

    // the JSON log is written asynchronously: its lines may reach us after the answers that followed them
    const routed = (l: Record<string, any>) =>
      l.msg === 'upstream failover: routing prefers another upstream' &&
      l.from === 'first' &&
      l.to === 'second' &&
      l.class === 'light';
    const lines = await until(
      async () => {
        const ls = logLines();
        const failedOver = ls.find((l) => l.msg === 'upstream failover within a request');
        const accessDone =
          failedOver !== undefined && ls.some((l) => l.msg === 'request' && l.requestId === failedOver.requestId);
        return accessDone && ls.some(routed) ? ls : undefined;
      },
      'the failover lines in the log',
      { tries: 50 },
    ).catch(() => logLines());
    const opened = lines.find(
      (l) => l.msg === 'upstream circuit breaker changed' && l.upstream === 'first' && l.to === 'open',
    );
    expect(opened).toMatchObject({ level: 'warn', network: 'mainnet', from: 'closed' });
    // a failover inside one request: one warn line naming the request, and its access line agrees
    const inRequest = lines.filter((l) => l.msg === 'upstream failover within a request');
    expect(inRequest.length).toBeGreaterThanOrEqual(1);
    expect(inRequest[0]).toMatchObject({
      level: 'warn',
      network: 'mainnet',
      method: 'eth_getBalance',
      from: 'first',
      to: 'second',
      reason: 'upstream answered HTTP 502',
    });
    const access = lines.find((l) => l.msg === 'request' && l.requestId === inRequest[0]!.requestId);
    expect(access).toMatchObject({ method: 'eth_getBalance', upstream: 'second', status: 200 });
    // and the routing moved, in one line
    expect(lines.some(routed)).toBe(true);

    // it recovers: the probe's trial closes the breaker, without client traffic; the score follows
    f1.script(() => ({ kind: 'pass' }));
    m = await until(async () => {
      const s = await scrape();
      return value(s, 'nodegate_upstream_breaker_state', first) === 0 ? s : undefined;
    }, 'the breaker to close');
    expect(value(m, 'nodegate_upstream_score', { ...first, ...light })).toBeLessThan(badScore);
    expect(value(m, 'nodegate_upstream_error_rate', { ...first, ...light })).toBeLessThan(0.05);
    const closed = (ls: Record<string, any>[]) =>
      ls.some((l) => l.msg === 'upstream circuit breaker changed' && l.upstream === 'first' && l.to === 'closed');
    const after = await until(async () => (closed(logLines()) ? logLines() : undefined), 'the closing line', {
      tries: 50,
    }).catch(() => logLines());
    expect(closed(after)).toBe(true);
  });
});
