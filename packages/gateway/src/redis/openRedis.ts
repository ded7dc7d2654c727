import { Redis } from 'ioredis';

/**
 * Connects to Redis and waits until it answers, so a wrong URL fails at startup with a message
 * that names the setting (never the URL, which may hold a password).
 *
 * @example
 * const redis = await openRedis('redis://127.0.0.1:6379');
 * await redis.quit();
 */
export async function openRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableAutoPipelining: true });
  redis.on('error', () => {
    // reconnects on its own; commands fail (and are reported) while it is away
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
