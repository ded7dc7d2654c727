import type { ApiKeyRecord, KeyStore } from '../store/KeyStore.js';
import { KEY_FORMAT } from './secrets.js';

/** Answers "is this key active?" quickly: a small cache in front of the KeyStore. */
export interface KeyAuthenticator {
  /** The active (not revoked) key, or undefined. */
  authenticate(key: string): Promise<ApiKeyRecord | undefined>;
  /** Drops a key from the cache (after create/revoke in this process). */
  forget(key: string): void;
}

/**
 * A cached key lookup. Hits are kept `hitTtlMs`, misses `missTtlMs` (so a flood of random
 * keys does not reach the database). Ids that cannot be keys are refused without a lookup.
 * Revocations made in this process take effect at once (via `forget`); those made by another
 * process sharing a PostgreSQL store take effect within `hitTtlMs`.
 */
export function createKeyAuthenticator(
  store: KeyStore,
  options: { hitTtlMs?: number; missTtlMs?: number; now?: () => number } = {},
): KeyAuthenticator {
  const hitTtl = options.hitTtlMs ?? 10_000;
  const missTtl = options.missTtlMs ?? 2_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { record: ApiKeyRecord | undefined; expires: number }>();
  const inflight = new Map<string, Promise<ApiKeyRecord | undefined>>();
  return {
    async authenticate(key) {
      if (!KEY_FORMAT.test(key)) return undefined;
      const hit = cache.get(key);
      if (hit && hit.expires > now()) return hit.record;
      let pending = inflight.get(key);
      if (!pending) {
        pending = store.find(key).then((r) => {
          const record = r && r.revokedAt === null ? r : undefined;
          if (cache.size > 100_000) cache.clear();
          cache.set(key, { record, expires: now() + (record ? hitTtl : missTtl) });
          return record;
        });
        inflight.set(key, pending);
        pending.finally(() => inflight.delete(key)).catch(() => {});
      }
      return pending;
    },
    forget(key) {
      cache.delete(key);
    },
  };
}
