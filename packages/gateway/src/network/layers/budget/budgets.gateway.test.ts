import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../config/validateConfig.js';
import { type EmbeddedProcess, startAnvil } from '../../../embedded/startAnvil.js';
import { type RunningGateway, startGateway } from '../../../main.js';
import { createFaultUpstream, type FaultUpstream } from '../../../test-support/createFaultUpstream.js';
import { metricValue, parseMetrics } from '../../../test-support/metricSamples.js';
import { postJson } from '../../../test-support/startTestGateway.js';

// Two gateway instances on one Redis (a fresh prefix) in front of one provider (a fault proxy
// before a real anvil) that allows 5 requests a second: together they never send it more, and
// every call is answered (waiting within its deadline) rather than refused.
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RATE = 5;
const redis = new Redis(REDIS);
const prefix = `budget-test-${Math.random().toString(36).slice(2)}:`;
let anvil: EmbeddedProcess;
let provider: FaultUpstream;
let dir: string;
const instances: RunningGateway[] = [];
/** When each eth_getBalance reached the provider (epoch ms). */
const arrivals: number[] = [];

async function startInstance(name: string): Promise<RunningGateway> {
  const gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: join(dir, name),
      devKey: true,
      // a busy test machine must not take Redis for away (each instance would then count alone)
      redis: { url: REDIS, prefix, commandTimeoutMs: 5_000 },
      cache: { enabled: false },
      networks: [
        {
          name: 'paid',
          family: 'eth',
          pathPrefix: '/paid',
          upstreams: [{ name: 'provider', http: provider.url, rateLimit: { requestsPerSecond: RATE } }],
          policy: { hedge: false, exploreShare: 0 },
        },
      ],
    }),
  );
  instances.push(gw);
  return gw;
}

beforeAll(async () => {
  anvil = await startAnvil();
  provider = await createFaultUpstream(anvil.http);
  provider.script((m) => {
    if (m === 'eth_getBalance') arrivals.push(Date.now());
    return { kind: 'pass' };
  });
  dir = await mkdtemp(join(tmpdir(), 'nodegate-budgets-'));
  await startInstance('a');
  await startInstance('b');
});
afterAll(async () => {
  for (const gw of instances) await gw.close();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await provider?.close();
  await anvil?.stop();
  await rm(dir, { recursive: true, force: true });
});

const url = (gw: RunningGateway) => `${gw.networks.paid!.http}/v3/${gw.devKey!.key}`;
const balance = (i: number) => ({
  jsonrpc: '2.0',
  id: i,
  method: 'eth_getBalance',
  params: [`0x${(i + 1).toString(16).padStart(40, '0')}`, 'latest'],
});

describe('upstream budgets across instances', () => {
  it(`two instances send the provider at most ${RATE} requests a second between them; every call is answered`, async () => {
    const started = Date.now();
    // 10 calls through each instance at once: 20 in all, 4 seconds' worth of the budget
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postJson(url(instances[i % 2]!), balance(i))),
    );
    const elapsed = Date.now() - started;
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.json.result).toMatch(/^0x/);
    }
    expect(arrivals).toHaveLength(20);
    // shared: 20 at 5 a second take three seconds at least (each instance alone would allow
    // 5 a second of its own, and be done in about one)
    expect(elapsed).toBeGreaterThanOrEqual(2_500);
    // per clock second at the provider (a request sent at the end of a second may arrive in
    // the next: one of slack)
    const perSecond = new Map<number, number>();
    for (const t of arrivals) perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(RATE + 1);
    // counted in Redis: one budget for both
    expect(await redis.exists(`${prefix}upstream-budgets:paid/primary/provider`)).toBe(1);
    // both instances waited for the shared budget, and say so
    for (const gw of instances) {
      const health = (await (await fetch(`${gw.url}/health`)).json()) as any;
      const upstream = health.networks.paid.upstreams[0];
      expect(upstream.budget).toMatchObject({ unit: 'requests', configured: RATE, effective: RATE });
      const metrics = parseMetrics(
        await (await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.admin.token}` } })).text(),
      );
      expect(metricValue(metrics, 'nodegate_upstream_budget_waits_total', { network: 'paid' })).toBeGreaterThan(0);
      expect(
        metricValue(metrics, 'nodegate_upstream_budget_rate', {
          network: 'paid',
          upstream: 'provider',
          role: 'primary',
        }),
      ).toBe(RATE);
    }
  });

  it("the provider's 429 tightens the budget on the instance that saw it", async () => {
    provider.script((m) => (m === 'eth_getBalance' ? { kind: '429', retryAfterS: 0 } : { kind: 'pass' }));
    try {
      const a = await postJson(url(instances[0]!), balance(100));
      expect(a.json.error).toMatchObject({ code: -32603 });
    } finally {
      provider.script((m) => {
        if (m === 'eth_getBalance') arrivals.push(Date.now());
        return { kind: 'pass' };
      });
    }
    const health = (await (await fetch(`${instances[0]!.url}/health`)).json()) as any;
    const budget = health.networks.paid.upstreams[0].budget;
    expect(budget.throttled).toBeGreaterThan(0);
    expect(budget.effective).toBeLessThan(RATE);
  });
});
