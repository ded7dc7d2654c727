import type { TenantKey } from '../pipeline/RequestContext.js';
import type { Plan } from '../plans/Plan.js';
import { DatabaseUnavailableError } from '../store/DatabaseUnavailableError.js';
import type { KeyStore } from '../store/KeyStore.js';
import { KEY_FORMAT } from './secrets.js';
import { tenantOf } from './tenantOf.js';

/** Answers "which active key is this?" quickly: a small cache in front of the KeyStore. */
export interface KeyAuthenticator {
  /**
   * The active (not revoked) key with its effective plan and limits, or undefined. Rejects with
   * a {@link DatabaseUnavailableError} only for a key this instance has no last known state of
   * while the database is away.
   */
  authenticate(key: string): Promise<TenantKey | undefined>;
  /**
   * What `authenticate` would give at once, when the key was decided lately (a cached hit or
   * miss still fresh): `{ tenant }`; undefined when it would have to ask the store. Like
   * `authenticate`, a hit near its expiry starts reading the key again in the background.
   */
  peek(key: string): { readonly tenant: TenantKey | undefined } | undefined;
  /** Drops a key from the cache (after a change here, or a change notice from another instance). */
  forget(key: string): void;
  /**
   * Makes every cached key be read again on its next use (key-change notices may have been
   * missed: Redis was away). Their last known states stay as the answer should the database be
   * away when they are read.
   */
  forgetAll(): void;
  /**
   * Calls `listener` after each `forget` (with the key) and `forgetAll` (with `undefined`), so
   * what holds a key beyond one request (open WebSocket connections) checks it again. Returns
   * the function that removes the listener.
   */
  onChange(listener: (key: string | undefined) => void): () => void;
}

/**
 * The last part of a hit's life (a fraction of `hitTtlMs`) in which a request that uses it starts
 * reading the key again in the background, so a busy key's entry is renewed before it expires.
 */
const REFRESH_AHEAD = 0.2;

/**
 * A cached key lookup. Hits are kept `hitTtlMs`, misses `missTtlMs` (so a flood of random
 * keys does not reach the database). Ids that cannot be keys are refused without a lookup. A hit
 * used in the last {@link REFRESH_AHEAD} of its life is read again in the background while it
 * still answers (one read however many requests), so a key in steady use is never waited for;
 * an entry is never used past its expiry, so staleness stays bounded by `hitTtlMs`.
 * Changes take effect through `forget`, called for changes made in this process and for the
 * change notices other instances publish; the TTL bounds staleness if a notice is lost.
 *
 * **Stale while the database is away**: when a key's entry has expired and reading it again
 * fails because the database is away (a {@link DatabaseUnavailableError}: its deadline passed,
 * or its health is down and the read failed at once), the key's last known state answers:
 * a key seen active keeps working with its last known settings and limits, a key seen revoked
 * or unknown stays refused. A key with no last known state (never seen here, or `forget`ten
 * after a change: a change is never answered around) gets the 503. So while PostgreSQL is away,
 * known keys are served and nothing waits on it once its health is down.
 *
 * @example
 * const auth = createKeyAuthenticator(store, config.plans);
 * const tenant = await auth.authenticate(key); // { record, plan, limits } | undefined
 */
export function createKeyAuthenticator(
  store: KeyStore,
  plans: Readonly<Record<string, Plan>>,
  options: { hitTtlMs?: number; missTtlMs?: number; now?: () => number } = {},
): KeyAuthenticator {
  const hitTtl = options.hitTtlMs ?? 30_000;
  const missTtl = options.missTtlMs ?? 2_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { tenant: TenantKey | undefined; expires: number }>();
  const inflight = new Map<string, Promise<TenantKey | undefined>>();
  /** Bumped by forget(): a lookup that started before a change must not repopulate the cache. */
  let generation = 0;
  const listeners = new Set<(key: string | undefined) => void>();
  const changed = (key: string | undefined) => {
    for (const listener of listeners) listener(key);
  };
  /** Reads `key` from the store into the cache; concurrent callers share it through `inflight`. */
  const lookup = (key: string): Promise<TenantKey | undefined> => {
    const started = generation;
    const pending = store.find(key).then(
      (r) => {
        const tenant = r && r.revokedAt === null ? tenantOf(r, plans) : undefined;
        if (started === generation) {
          if (cache.size > 100_000) cache.clear();
          cache.set(key, { tenant, expires: now() + (tenant ? hitTtl : missTtl) });
        }
        return tenant;
      },
      (err: unknown) => {
        // stale while the database is away: the last known state, if there is one
        const last = err instanceof DatabaseUnavailableError ? cache.get(key) : undefined;
        if (last === undefined) throw err;
        return last.tenant;
      },
    );
    inflight.set(key, pending);
    pending.finally(() => inflight.delete(key)).catch(() => {});
    return pending;
  };
  /**
   * The key's entry while it has not expired; one used in the last part of its life starts
   * reading the key again in the background (a key in use never has its requests wait for the
   * lookup: the entry answers them until the new one replaces it, or until it expires).
   */
  const fresh = (key: string) => {
    const hit = cache.get(key);
    if (hit === undefined) return undefined;
    const left = hit.expires - now();
    if (left <= 0) return undefined;
    if (hit.tenant !== undefined && left <= hitTtl * REFRESH_AHEAD && !inflight.has(key)) {
      lookup(key).catch(() => {});
    }
    return hit;
  };
  return {
    peek(key) {
      // only well-formed keys are ever cached
      return fresh(key);
    },
    async authenticate(key) {
      if (!KEY_FORMAT.test(key)) return undefined;
      const hit = fresh(key);
      if (hit !== undefined) return hit.tenant;
      return inflight.get(key) ?? lookup(key);
    },
    forget(key) {
      generation += 1;
      cache.delete(key);
      inflight.delete(key);
      changed(key);
    },
    forgetAll() {
      generation += 1;
      // expired, not dropped: read again on next use, the last known state if the database is away
      for (const entry of cache.values()) entry.expires = 0;
      inflight.clear();
      changed(undefined);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
