import { describe, expect, it } from 'vitest';
import { processMetricsRegistry } from './processMetricsRegistry.js';

/** The value of an unlabelled sample in Prometheus text. */
function sample(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no ${name} in the scrape`);
  return Number(line.slice(name.length + 1));
}

/** Process CPU seconds since the process started (user + system). */
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

describe('processMetricsRegistry', () => {
  // Issue 20, item 12: process_cpu_seconds_total started at the first scrape (prom-client's
  // counters count from their registration, which is the first scrape here).
  it('process_cpu_seconds_total counts from the start of the process, not from the first scrape', async () => {
    // spend CPU before the registry exists (as a gateway does starting up before anyone scrapes)
    const end = Date.now() + 300;
    let spin = 0;
    while (Date.now() < end) spin++;
    expect(spin).toBeGreaterThan(0);
    const before = cpuSeconds();
    expect(before).toBeGreaterThan(0.25);
    const text = await processMetricsRegistry().metrics();
    const after = cpuSeconds();
    const total = sample(text, 'process_cpu_seconds_total');
    expect(total).toBeGreaterThanOrEqual(before);
    expect(total).toBeLessThanOrEqual(after);
    const user = sample(text, 'process_cpu_user_seconds_total');
    const system = sample(text, 'process_cpu_system_seconds_total');
    expect(user).toBeGreaterThan(0);
    expect(user + system).toBeCloseTo(total, 2);
    expect(text.match(/^# TYPE process_cpu_seconds_total counter$/m)).not.toBeNull();
  });

  it('is a counter that only grows between scrapes, and the other process metrics are still there', async () => {
    const first = sample(await processMetricsRegistry().metrics(), 'process_cpu_seconds_total');
    const end = Date.now() + 50;
    while (Date.now() < end) {}
    const text = await processMetricsRegistry().metrics();
    expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(first);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text.match(/^process_cpu_seconds_total /gm)).toHaveLength(1);
  });
});
