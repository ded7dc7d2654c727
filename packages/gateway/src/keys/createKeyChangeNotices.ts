import type { Redis } from 'ioredis';
import type { Logger } from '../log/createLogger.js';

/** Tells every gateway instance that a key changed (revoked, settings, plan), so caches drop it. */
export interface KeyChangeNotices {
  /** Applies the change here at once and tells the other instances (again once Redis is back, if it is away). */
  publish(key: string): void;
  /** Notices not yet delivered to Redis (it was away); 0 normally. */
  pending(): number;
  close(): Promise<void>;
}

/** What the instance does with notices: one key changed, or every key may have (notices were missed). */
export interface KeyChangeListener {
  changed(key: string): void;
  /** Notices may have been missed (the subscription to Redis was lost): drop every cached key. */
  resync(): void;
}

/** The notice that stands for "every key may have changed" (a key id is never `*`). */
const EVERY_KEY = '*';
/** Undelivered notices kept one by one; beyond this, one "every key" notice stands for them. */
const MAX_PENDING = 10_000;
/** How often undelivered notices are sent again while Redis is away. */
const RETRY_MS = 1_000;

/**
 * Key-change notices over Redis pub/sub (`<prefix>key-changes`): every instance subscribes and
 * drops the changed key from its cache (and re-checks the WebSocket connections of that key), so
 * a revocation or a settings change takes effect on every instance within a round trip. Without
 * Redis (one process), only this process is told.
 *
 * Nothing is lost while Redis is away:
 * - a notice that cannot be published is kept and published again when Redis answers (every
 *   second, and at once on reconnect); past {@link MAX_PENDING} keys, one `*` notice (every key)
 *   is sent instead;
 * - an instance whose subscription connection dropped may have missed notices: when it is back
 *   (subscribed again), `resync()` drops every cached key, so each is read again from the
 *   database on its next use (and every open WebSocket connection is checked again).
 *
 * @example
 * const notices = await createKeyChangeNotices(redis, 'nodegate:', {
 *   changed: (key) => keys.forget(key),
 *   resync: () => keys.forgetAll(),
 * }, log);
 * notices.publish(key); // after revoking it
 */
export async function createKeyChangeNotices(
  redis: Redis | undefined,
  prefix: string,
  listener: KeyChangeListener | ((key: string) => void),
  log?: Logger,
): Promise<KeyChangeNotices> {
  const on: KeyChangeListener = typeof listener === 'function' ? { changed: listener, resync: () => {} } : listener;
  if (!redis) return { publish: (key) => on.changed(key), pending: () => 0, close: async () => {} };
  const channel = `${prefix}key-changes`;
  const subscriber = redis.duplicate();
  let closed = false;
  /** The subscription was lost since it was last made: notices may have been missed. */
  let lost = false;
  subscriber.on('error', () => {
    // reconnects on its own; 'close' below notes the loss
  });
  subscriber.on('close', () => {
    if (closed || lost) return;
    lost = true;
    log?.warn('key-change notices: Redis subscription lost; every cached key is read again once it is back');
  });
  subscriber.on('ready', () => {
    if (closed || !lost) return;
    // subscribed again (commands run in order: after this, no notice is missed), then resync
    subscriber.subscribe(channel).then(
      () => {
        if (closed || !lost) return;
        lost = false;
        log?.info('key-change notices: Redis subscription back; cached keys dropped');
        on.resync();
      },
      () => {
        // dropped again: the next 'ready' tries again
      },
    );
  });
  subscriber.on('message', (ch: string, key: string) => {
    if (ch !== channel) return;
    if (key === EVERY_KEY) on.resync();
    else on.changed(key);
  });
  await subscriber.subscribe(channel);

  /** Notices Redis has not taken yet (keys, or `*`). */
  const undelivered = new Set<string>();
  let retry: NodeJS.Timeout | undefined;
  let sending = false;
  /** Keeps a notice Redis did not take, to publish it again (past MAX_PENDING: one `*` for them all). */
  const keep = (key: string) => {
    if (undelivered.has(EVERY_KEY)) return;
    if (undelivered.size >= MAX_PENDING) {
      undelivered.clear();
      undelivered.add(EVERY_KEY);
    } else undelivered.add(key);
    if (retry === undefined && !closed) {
      log?.warn('key-change notices: Redis is away; changes are published again once it is back');
      retry = setInterval(resend, RETRY_MS);
      retry.unref();
    }
  };
  const send = (key: string) => {
    redis.publish(channel, key).then(
      () => undelivered.delete(key),
      () => keep(key),
    );
  };
  const resend = () => {
    if (closed || sending) return;
    if (undelivered.size === 0) {
      if (retry !== undefined) clearInterval(retry);
      retry = undefined;
      return;
    }
    sending = true;
    const keys = undelivered.has(EVERY_KEY) ? [EVERY_KEY] : [...undelivered];
    Promise.allSettled(
      keys.map((k) =>
        redis.publish(channel, k).then(() => {
          undelivered.delete(k);
          if (k === EVERY_KEY) undelivered.clear();
        }),
      ),
    ).finally(() => {
      sending = false;
    });
  };
  const onReady = () => resend();
  redis.on('ready', onReady);

  return {
    publish(key) {
      on.changed(key);
      send(key);
    },
    pending: () => undelivered.size,
    async close() {
      closed = true;
      redis.off('ready', onReady);
      if (retry !== undefined) clearInterval(retry);
      subscriber.disconnect();
    },
  };
}
