import type { TenantKey } from '../pipeline/RequestContext.js';
import type { Plan } from '../plans/Plan.js';
import type { KeyStore } from '../store/KeyStore.js';
import { KEY_FORMAT } from './secrets.js';
import { tenantOf } from './tenantOf.js';

/** Answers "which active key is this?" quickly: a small cache in front of the KeyStore. */
export interface KeyAuthenticator {
  /** The active (not revoked) key with its effective plan and limits, or undefined. */
  authenticate(key: string): Promise<TenantKey | undefined>;
  /** Drops a key from the cache (after a change here, or a change notice from another instance). */
  forget(key: string): void;
}

/**
 * A cached key lookup. Hits are kept `hitTtlMs`, misses `missTtlMs` (so a flood of random
 * keys does not reach the database). Ids that cannot be keys are refused without a lookup.
 * Changes take effect through `forget`, called for changes made in this process and for the
 * change notices other instances publish; the TTL bounds staleness if a notice is lost.
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
  return {
    async authenticate(key) {
      if (!KEY_FORMAT.test(key)) return undefined;
      const hit = cache.get(key);
      if (hit && hit.expires > now()) return hit.tenant;
      let pending = inflight.get(key);
      if (!pending) {
        const started = generation;
        pending = store.find(key).then((r) => {
          const tenant = r && r.revokedAt === null ? tenantOf(r, plans) : undefined;
          if (started === generation) {
            if (cache.size > 100_000) cache.clear();
            cache.set(key, { tenant, expires: now() + (tenant ? hitTtl : missTtl) });
          }
          return tenant;
        });
        inflight.set(key, pending);
        pending.finally(() => inflight.delete(key)).catch(() => {});
      }
      return pending;
    },
    forget(key) {
      generation += 1;
      cache.delete(key);
      inflight.delete(key);
    },
  };
}
