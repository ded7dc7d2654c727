import { describe, expect, it } from 'vitest';
import { createGatewayMetrics, type RequestObservation } from './createGatewayMetrics.js';

const request = (over: Partial<RequestObservation> = {}): RequestObservation => ({
  network: 'eth-devnet',
  class: 'read',
  method: 'eth_call',
  transport: 'http',
  status: 200,
  outcome: 'ok',
  seconds: 0.004,
  refusal: undefined,
  upstream: 'anvil',
  ...over,
});

describe('createGatewayMetrics', () => {
  it('counts requests, latency and refusals by kind or rule', async () => {
    const metrics = createGatewayMetrics({ defaultMetrics: false });
    metrics.observe(request());
    metrics.observe(request({ seconds: 0.2 }));
    metrics.observe(request({ status: 429, outcome: 'refused', refusal: 'rate', seconds: 0, upstream: undefined }));
    metrics.observe(request({ status: 403, outcome: 'refused', refusal: 'origin', seconds: 0, upstream: undefined }));
    metrics.observe(
      request({ status: 403, outcome: 'refused', refusal: 'some-new-rule', seconds: 0, upstream: undefined }),
    );
    metrics.observe(
      request({
        transport: 'ws',
        class: 'subscription',
        method: 'eth_subscription',
        seconds: undefined,
        upstream: undefined,
      }),
    );
    metrics.usageFlushFailed();
    const text = await metrics.scrape();
    expect(text).toContain(
      'nodegate_requests_total{network="eth-devnet",class="read",method="eth_call",transport="http",status="200",outcome="ok"} 2',
    );
    expect(text).toContain(
      'nodegate_request_duration_seconds_bucket{le="0.005",network="eth-devnet",class="read",transport="http",status="200"} 1',
    );
    expect(text).toContain(
      'nodegate_request_duration_seconds_count{network="eth-devnet",class="read",transport="http",status="200"} 2',
    );
    // a notification is counted, but has no latency
    expect(text).toContain('method="eth_subscription",transport="ws",status="200",outcome="ok"} 1');
    expect(text).not.toMatch(/nodegate_request_duration_seconds_count\{[^}]*class="subscription"/);
    expect(text).toContain('nodegate_limit_refusals_total{network="eth-devnet",transport="http",kind="rate"} 1');
    expect(text).toContain('nodegate_rule_refusals_total{network="eth-devnet",transport="http",rule="origin"} 1');
    expect(text).toContain('nodegate_rule_refusals_total{network="eth-devnet",transport="http",rule="other"} 1');
    expect(text).toContain('nodegate_usage_flush_failures_total 1');
    expect(text).toContain('nodegate_upstream_answers_total{network="eth-devnet",upstream="anvil",outcome="ok"} 2');
    expect(metrics.contentType).toMatch(/^text\/plain/);
  });

  it('reads collectors at scrape time: gauges as they are, counters as totals', async () => {
    const metrics = createGatewayMetrics({ defaultMetrics: false });
    let open = 3;
    let failovers = 5;
    metrics.addCollector({
      name: 'nodegate_ws_connections',
      help: 'Open WebSocket connections',
      type: 'gauge',
      collect: () => [{ value: open }],
    });
    metrics.addCollector({
      name: 'nodegate_upstream_failovers_total',
      help: 'Failovers from an upstream',
      type: 'counter',
      labelNames: ['network', 'upstream'],
      collect: () => [
        { labels: { network: 'eth-devnet', upstream: 'a' }, value: failovers },
        { labels: { network: 'eth-devnet', upstream: 'b' }, value: 0 },
      ],
    });
    let text = await metrics.scrape();
    expect(text).toContain('# TYPE nodegate_ws_connections gauge\nnodegate_ws_connections 3');
    expect(text).toContain('nodegate_upstream_failovers_total{network="eth-devnet",upstream="a"} 5');
    expect(text).toContain('nodegate_upstream_failovers_total{network="eth-devnet",upstream="b"} 0');
    open = 1;
    failovers = 7;
    text = await metrics.scrape();
    expect(text).toContain('nodegate_ws_connections 1');
    expect(text).toContain('nodegate_upstream_failovers_total{network="eth-devnet",upstream="a"} 7');
  });

  it('refuses labels that could identify a key, an account or a request, and names outside nodegate_', () => {
    const metrics = createGatewayMetrics({ defaultMetrics: false });
    const spec = { help: 'x', type: 'gauge' as const, collect: () => [] };
    for (const label of ['key', 'apiKey', 'api_key', 'accountId', 'account', 'requestId', 'request_id', 'secret']) {
      expect(() => metrics.addCollector({ ...spec, name: 'nodegate_x', labelNames: [label] })).toThrow(
        /could identify/,
      );
    }
    expect(() => metrics.addCollector({ ...spec, name: 'cache_hits' })).toThrow(/nodegate_/);
  });

  it('drops the samples of a collector that reports a label it did not declare', async () => {
    const errors: unknown[] = [];
    const metrics = createGatewayMetrics({ defaultMetrics: false, onCollectError: (_n, err) => errors.push(err) });
    metrics.addCollector({
      name: 'nodegate_sneaky',
      help: 'Reports an undeclared label',
      type: 'gauge',
      labelNames: ['network'],
      collect: () => [{ labels: { network: 'eth-devnet', key: '3111a397c829818d6c438b39442ca3d0' }, value: 1 }],
    });
    const text = await metrics.scrape();
    expect(text).not.toContain('3111a397');
    expect(text).not.toMatch(/^nodegate_sneaky/m);
    expect(String(errors[0])).toMatch(/undeclared label "key"/);
  });

  it('a collector that throws leaves its metric empty, is counted and reported; the scrape goes on', async () => {
    const errors: string[] = [];
    const metrics = createGatewayMetrics({ defaultMetrics: false, onCollectError: (name) => errors.push(name) });
    metrics.addCollector({
      name: 'nodegate_broken',
      help: 'Throws',
      type: 'gauge',
      collect: () => {
        throw new Error('snapshot failed');
      },
    });
    metrics.observe(request());
    const text = await metrics.scrape();
    expect(text).toContain('nodegate_requests_total{');
    expect(text).not.toMatch(/^nodegate_broken /m);
    expect(errors).toEqual(['nodegate_broken']);
    // every failing scrape is counted (the count may show from the next scrape on)
    expect(await metrics.scrape()).toContain('nodegate_collector_errors_total{metric="nodegate_broken"} 2');
    expect(errors).toEqual(['nodegate_broken', 'nodegate_broken']);
  });
});
