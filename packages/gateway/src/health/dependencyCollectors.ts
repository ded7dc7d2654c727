import type { CollectorSpec } from '../metrics/createGatewayMetrics.js';
import type { DependencyHealth } from './createDependencyHealth.js';

/**
 * A dependency's health for `/metrics`, read at scrape time: `nodegate_<name>_up` (1 or 0) and
 * `nodegate_<name>_errors_total` (failures because it was away: timeouts, lost connections),
 * e.g. `nodegate_redis_up`, `nodegate_database_errors_total`; plus `nodegate_limiter_degraded`
 * (1 while limits are counted per instance because Redis is away) when `limiterDegraded` is given.
 *
 * @example
 * for (const c of dependencyCollectors(redisHealth, () => limiter.degraded())) metrics.addCollector(c);
 */
export function dependencyCollectors(health: DependencyHealth, limiterDegraded?: () => boolean): CollectorSpec[] {
  const specs: CollectorSpec[] = [
    {
      name: `nodegate_${health.name}_up`,
      help: `1 while ${health.name} answers, 0 from its first timeout or lost connection until a probe answers`,
      type: 'gauge',
      labelNames: [],
      collect: () => [{ labels: {}, value: health.up() ? 1 : 0 }],
    },
    {
      name: `nodegate_${health.name}_errors_total`,
      help: `Calls to ${health.name} that failed because it was away (timeouts, lost or refused connections)`,
      type: 'counter',
      labelNames: [],
      collect: () => [{ labels: {}, value: health.snapshot().errors }],
    },
  ];
  if (limiterDegraded !== undefined) {
    specs.push({
      name: 'nodegate_limiter_degraded',
      help: '1 while limits are counted in this instance only (Redis away), else 0',
      type: 'gauge',
      labelNames: [],
      collect: () => [{ labels: {}, value: limiterDegraded() ? 1 : 0 }],
    });
  }
  return specs;
}
