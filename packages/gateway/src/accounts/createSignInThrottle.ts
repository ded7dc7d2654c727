import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { throttleAddress } from './throttleAddress.js';

/** Who an attempt is counted against: the client's address, and the email it names (if any). */
export interface ThrottleSubjects {
  readonly address: string;
  readonly email?: string | undefined;
}

/** An attempt that was counted and may go on to the password check. */
export interface ThrottleTicket {
  readonly ok: true;
  /** The attempt succeeded (or never reached the password check): it stops counting. */
  giveBack(): Promise<void>;
}

/** An attempt refused before any password work: a subject is at its limit for this window. */
export interface ThrottleRefusal {
  readonly ok: false;
  readonly retryAfterSeconds: number;
  /** Which limit refused it. */
  readonly scope: 'address' | 'email';
}

/** Counts sign-in attempts (and other password checks) per client address and per email. */
export interface SignInThrottle {
  /**
   * Counts one attempt against each subject, atomically, before any password is checked; refused
   * when a subject is over its limit. Concurrent attempts each see the count the others made.
   */
  take(subjects: ThrottleSubjects): Promise<ThrottleTicket | ThrottleRefusal>;
  /** Where counts live now: `redis`, or `memory` (no Redis configured, or Redis is away). */
  readonly store: 'redis' | 'memory';
}

/** The throttle's limits and, for many instances, its Redis. */
export interface SignInThrottleOptions {
  /** Attempts per client address per window (default 20). */
  readonly maxPerAddress?: number | undefined;
  /** Attempts per email per window, from any address (default 10). */
  readonly maxPerEmail?: number | undefined;
  /** The window (default 15 minutes); it starts at a subject's first attempt. */
  readonly windowMs?: number | undefined;
  /** Counts shared by every instance; without it they live in this process. */
  readonly redis?: Redis | undefined;
  /** Prefix of the Redis keys (default `nodegate:`). */
  readonly prefix?: string | undefined;
  /** A Redis call's deadline (default 500 ms); past it, or on an error, this attempt is counted in memory. */
  readonly redisTimeoutMs?: number | undefined;
  /** Subjects kept in memory at most (default 100,000); the oldest window goes first beyond it. */
  readonly maxEntries?: number | undefined;
  /**
   * Redis's shared health (`watchRedis`): while it is down, attempts are counted in memory at once
   * (no call waits for its deadline first), and a Redis failure seen here is reported to it.
   */
  readonly health?: { up(): boolean; failed(err: unknown): void } | undefined;
  /** Told once when Redis stops answering (counts go local) and once when it answers again. */
  readonly log?: { warn(msg: string, fields?: Record<string, unknown>): void } | undefined;
}

// Counts each key and starts its window on the first count; answers count and time left per key.
const TAKE = `
local out = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if n == 1 or ttl < 0 then
    redis.call('PEXPIRE', key, ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  out[#out + 1] = n
  out[#out + 1] = ttl
end
return out`;
// Takes one count back from each key that still exists (an expired window is not recreated).
const GIVE_BACK = `
for i, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then redis.call('DECR', key) end
end
return 0`;

interface Entry {
  count: number;
  resetAt: number;
}

/**
 * The sign-in throttle: each attempt is counted per client address and per email **before** the
 * password is checked (in Redis one Lua script, in memory one synchronous step), so a burst of
 * concurrent attempts cannot all pass on a count read before any of them finished. A succeeded
 * attempt is given back; failures count until the window ends. Emails are counted by their
 * SHA-256 (never stored in clear), IPv6 addresses by their /64.
 *
 * With Redis the counts hold across instances; every Redis call has a deadline, and while Redis
 * is away (error or deadline) attempts are counted in this process's memory instead (a local
 * limit per instance, logged once), never let through uncounted.
 *
 * @example
 * const throttle = createSignInThrottle({ redis, prefix: 'nodegate:' });
 * const t = await throttle.take({ address: req.ip, email });
 * if (!t.ok) return reply.header('retry-after', t.retryAfterSeconds).code(429).send();
 */
export function createSignInThrottle(options: SignInThrottleOptions = {}): SignInThrottle {
  const maxPerAddress = options.maxPerAddress ?? 20;
  const maxPerEmail = options.maxPerEmail ?? 10;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const maxEntries = options.maxEntries ?? 100_000;
  const timeoutMs = options.redisTimeoutMs ?? 500;
  const prefix = `${options.prefix ?? 'nodegate:'}signin:`;
  const redis = options.redis;
  const memory = new Map<string, Entry>();
  let redisAway = false;

  const keysOf = (s: ThrottleSubjects) => {
    const keys = [`a:${throttleAddress(s.address)}`];
    if (s.email !== undefined) {
      const email = s.email.trim().toLowerCase();
      keys.push(`e:${createHash('sha256').update(email, 'utf8').digest('hex').slice(0, 32)}`);
    }
    return keys;
  };
  const limitOf = (key: string) => (key.startsWith('a:') ? maxPerAddress : maxPerEmail);

  const takeInMemory = (keys: string[]): Array<[number, number]> => {
    const now = Date.now();
    return keys.map((key) => {
      let entry = memory.get(key);
      if (!entry || entry.resetAt <= now) {
        memory.delete(key);
        if (memory.size >= maxEntries) memory.delete(memory.keys().next().value!);
        entry = { count: 0, resetAt: now + windowMs };
        memory.set(key, entry);
      }
      entry.count++;
      return [entry.count, entry.resetAt - now];
    });
  };
  const giveBackInMemory = (keys: string[]) => {
    for (const key of keys) {
      const entry = memory.get(key);
      if (entry && entry.count > 0) entry.count--;
    }
  };

  const withDeadline = <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  };
  const wentAway = (err: unknown) => {
    if (redisAway) return;
    redisAway = true;
    options.log?.warn('sign-in throttle: Redis is not answering; counting sign-in attempts in this instance', {
      error: (err as Error).message,
    });
  };
  const cameBack = () => {
    if (!redisAway) return;
    redisAway = false;
    options.log?.warn('sign-in throttle: Redis answers again; counting sign-in attempts in Redis');
  };

  /** Counts in Redis; undefined when Redis did not answer in time (then memory counts). */
  const takeInRedis = async (keys: string[]): Promise<Array<[number, number]> | undefined> => {
    if (!redis) return undefined;
    if (options.health && !options.health.up()) {
      wentAway(new Error('Redis is down'));
      return undefined;
    }
    try {
      const out = (await withDeadline(
        redis.eval(TAKE, keys.length, ...keys.map((k) => prefix + k), String(windowMs)),
      )) as number[];
      cameBack();
      return keys.map((_, i) => [Number(out[2 * i]), Number(out[2 * i + 1])]);
    } catch (err) {
      options.health?.failed(err);
      wentAway(err);
      return undefined;
    }
  };

  return {
    get store() {
      return redis && !redisAway ? 'redis' : 'memory';
    },
    async take(subjects) {
      const keys = keysOf(subjects);
      const fromRedis = await takeInRedis(keys);
      const counts = fromRedis ?? takeInMemory(keys);
      for (let i = 0; i < keys.length; i++) {
        const [count, leftMs] = counts[i]!;
        if (count > limitOf(keys[i]!)) {
          return {
            ok: false,
            retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)),
            scope: keys[i]!.startsWith('a:') ? 'address' : 'email',
          };
        }
      }
      let given = false;
      return {
        ok: true,
        async giveBack() {
          if (given) return;
          given = true;
          if (!fromRedis) return giveBackInMemory(keys);
          await withDeadline(redis!.eval(GIVE_BACK, keys.length, ...keys.map((k) => prefix + k))).catch(wentAway);
        },
      };
    },
  };
}
