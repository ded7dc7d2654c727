import type { Redis } from 'ioredis';

/** Tells every gateway instance that a key changed (revoked, settings, plan), so caches drop it. */
export interface KeyChangeNotices {
  /** Applies the change here at once and tells the other instances. */
  publish(key: string): void;
  close(): Promise<void>;
}

/**
 * Key-change notices over Redis pub/sub (`<prefix>key-changes`): every instance subscribes and
 * drops the changed key from its cache, so a revocation or a settings change takes effect on
 * every instance within a round trip. Without Redis (one process), only this process is told.
 *
 * @example
 * const notices = await createKeyChangeNotices(redis, 'nodegate:', (key) => keys.forget(key));
 * notices.publish(key); // after revoking it
 */
export async function createKeyChangeNotices(
  redis: Redis | undefined,
  prefix: string,
  onChange: (key: string) => void,
): Promise<KeyChangeNotices> {
  if (!redis) return { publish: onChange, close: async () => {} };
  const channel = `${prefix}key-changes`;
  const subscriber = redis.duplicate();
  subscriber.on('error', () => {
    // reconnects and resubscribes on its own
  });
  subscriber.on('message', (ch: string, key: string) => {
    if (ch === channel) onChange(key);
  });
  await subscriber.subscribe(channel);
  return {
    publish(key) {
      onChange(key);
      redis.publish(channel, key).catch(() => {
        // the other instances' cache TTL bounds how long they keep the old state
      });
    },
    async close() {
      subscriber.disconnect();
    },
  };
}
