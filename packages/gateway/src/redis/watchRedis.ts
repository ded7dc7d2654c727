import type { Redis } from 'ioredis';
import { createDependencyHealth, type DependencyHealth } from '../health/createDependencyHealth.js';
import type { Logger } from '../log/createLogger.js';

/**
 * The health of the gateway's Redis connection (see {@link createDependencyHealth}): down as soon
 * as the connection closes or a user reports a timeout, up when a `PING` answers (every
 * `intervalMs`, and at once when the connection is ready again). While it is down, Redis's users
 * take their documented degraded paths without sending anything: the limiter counts in this
 * instance's memory, the response cache answers from upstream.
 *
 * @example
 * const health = watchRedis(redis, { timeoutMs: 1000, log });
 * const limiter = createDegradingLimiter({ primary, fallback: createMemoryLimiter(), health, log });
 */
export function watchRedis(
  redis: Redis,
  options: { timeoutMs: number; intervalMs?: number; log?: Logger | undefined },
): DependencyHealth {
  const health = createDependencyHealth({
    name: 'redis',
    probe: () => redis.ping(),
    timeoutMs: options.timeoutMs,
    intervalMs: options.intervalMs,
    log: options.log,
    whileDown: 'limits are counted per instance in memory; cached answers are read from upstream',
  });
  const lost = () => health.failed(new Error('connection to Redis lost'));
  const ready = () => void health.probeNow();
  redis.on('close', lost);
  redis.on('ready', ready);
  return {
    ...health,
    close() {
      redis.off('close', lost);
      redis.off('ready', ready);
      health.close();
    },
  };
}
