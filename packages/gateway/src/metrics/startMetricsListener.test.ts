import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../log/createLogger.js';
import { createBearerAuthorizer } from './createBearerAuthorizer.js';
import { createGatewayMetrics } from './createGatewayMetrics.js';
import { createMetricsHandler } from './createMetricsHandler.js';
import { type MetricsListener, startMetricsListener } from './startMetricsListener.js';

const log = createLogger('silent');
const listeners: MetricsListener[] = [];
afterAll(async () => {
  for (const l of listeners) await l.close();
});

describe('startMetricsListener', () => {
  it('serves /metrics on a listener of its own, open, and nothing else', async () => {
    const metrics = createGatewayMetrics({ defaultMetrics: false });
    metrics.usageFlushFailed();
    const l = await startMetricsListener({ host: '127.0.0.1', port: 0 }, createMetricsHandler(metrics, { log }));
    listeners.push(l);
    expect(l.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const res = await fetch(l.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('nodegate_usage_flush_failures_total 1');
    const head = await fetch(l.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(l.url.replace('/metrics', '/health'))).status).toBe(404);
    expect((await fetch(l.url, { method: 'POST' })).status).toBe(405);
  });

  it('with a bearer authorizer, answers 401 without the token', async () => {
    const metrics = createGatewayMetrics({ defaultMetrics: false });
    const authorize = createBearerAuthorizer(async (t) => (t === 'right' ? { name: 'cli' } : undefined));
    const l = await startMetricsListener(
      { host: '127.0.0.1', port: 0 },
      createMetricsHandler(metrics, { authorize, log }),
    );
    listeners.push(l);
    const none = await fetch(l.url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await fetch(l.url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(l.url, { headers: { authorization: 'Basic cmlnaHQ6' } })).status).toBe(401);
    expect((await fetch(l.url, { headers: { authorization: 'Bearer right' } })).status).toBe(200);
  });
});
