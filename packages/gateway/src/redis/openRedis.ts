import type { Redis } from 'ioredis';

/** How long nodegate waits for Redis (the `redis` config section; defaults in `validateConfig`). */
export interface RedisTimeouts {
  /** A command without a reply within this is rejected (`Command timed out`). */
  readonly commandTimeoutMs: number;
  /** A connection (TCP and the ready check) that takes longer is dropped and tried again. */
  readonly connectTimeoutMs: number;
}

/** The defaults of `redis.commandTimeoutMs` and `redis.connectTimeoutMs`. */
export const DEFAULT_REDIS_TIMEOUTS: RedisTimeouts = Object.freeze({
  commandTimeoutMs: 1_000,
  connectTimeoutMs: 2_000,
});

/**
 * Connects to Redis and waits until it answers, so a wrong URL fails at startup with a message
 * that names the setting (never the URL, which may hold a password).
 *
 * This is the one place Redis clients are configured, and every user of Redis (the limiter, the
 * response cache and its generations, key-change notices, and their `duplicate()`s, which
 * inherit these options) gets the same bounds, so nothing waits on Redis for ever:
 *
 * - every command has `commandTimeoutMs` (ioredis `commandTimeout`);
 * - a connection that receives nothing for twice that while commands wait for replies is
 *   destroyed and made again (`socketTimeout`: a stalled network is noticed, not waited on);
 * - no offline queue: while the connection is down, commands fail at once instead of queueing
 *   (`enableOfflineQueue: false`), and commands that were sent but not answered are not resent
 *   after a reconnect (`autoResendUnfulfilledCommands: false`: a limiter charge that already
 *   timed out must not be counted later), so `maxRetriesPerRequest` is 0;
 * - a connection attempt has `connectTimeoutMs`; reconnects back off up to 2 s.
 *
 * A `duplicate()` (a subscriber connection) connects at once and keeps an offline queue, so a
 * `subscribe` made before it is ready waits for the connection: its commands have
 * `connectTimeoutMs + commandTimeoutMs` (a subscription carries no count that a late resend
 * could double).
 *
 * A caller that cannot do without Redis for a moment catches the rejection and degrades
 * (see `watchRedis`, `createDegradingLimiter`).
 *
 * @example
 * const redis = await openRedis('redis://127.0.0.1:6379', { commandTimeoutMs: 1000, connectTimeoutMs: 2000 });
 * await redis.quit();
 */
export async function openRedis(url: string, timeouts: RedisTimeouts = DEFAULT_REDIS_TIMEOUTS): Promise<Redis> {
  // loaded here, not at the module's top: a gateway without Redis never needs it
  const { Redis: RedisClient } = await import('ioredis');
  const redis = new RedisClient(url, {
    lazyConnect: true,
    enableAutoPipelining: true,
    commandTimeout: timeouts.commandTimeoutMs,
    socketTimeout: timeouts.commandTimeoutMs * 2,
    connectTimeout: timeouts.connectTimeoutMs,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  redis.on('error', () => {
    // reconnects on its own; commands fail (and are reported by their callers) while it is away
  });
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = (override) =>
    duplicate({
      lazyConnect: false,
      enableOfflineQueue: true,
      // a command queued before the connection is ready waits for it, then for its answer
      commandTimeout: timeouts.commandTimeoutMs + timeouts.connectTimeoutMs,
      ...override,
    });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new Error(`cannot reach Redis (config redis.url): ${(err as Error).message}`);
  }
  return redis;
}
