import type { FilterEntry, FilterStore } from './FilterStore.js';

/**
 * A {@link FilterStore} in this process's memory (no Redis configured, or while Redis is away):
 * entries by id, and each owner's ids for the per-key bound. Entries idle past `timeoutMs` are
 * gone for every call at once and leave memory at the next `sweep`.
 *
 * @example
 * const store = createMemoryFilterStore({ timeoutMs: 300_000 });
 * await store.add(entry, 100); // false when entry.owner already holds 100 live filters
 */
export function createMemoryFilterStore(options: { timeoutMs: number }): FilterStore & {
  /** Whether `id` is kept here (live or not yet swept). */
  has(id: string): boolean;
} {
  const { timeoutMs } = options;
  const byId = new Map<string, FilterEntry>();
  const byOwner = new Map<string, Set<string>>();
  const live = (e: FilterEntry, now: number) => now - e.polledAt <= timeoutMs;
  const drop = (e: FilterEntry) => {
    byId.delete(e.id);
    const ids = byOwner.get(e.owner);
    ids?.delete(e.id);
    if (ids?.size === 0) byOwner.delete(e.owner);
  };
  const count = (owner: string, now: number) => {
    let n = 0;
    for (const id of byOwner.get(owner) ?? []) {
      const e = byId.get(id);
      if (e !== undefined && live(e, now)) n += 1;
    }
    return n;
  };

  return {
    has: (id) => byId.has(id),
    async add(entry, maxPerOwner) {
      if (byId.has(entry.id) || count(entry.owner, entry.polledAt) >= maxPerOwner) return false;
      byId.set(entry.id, entry);
      let ids = byOwner.get(entry.owner);
      if (ids === undefined) {
        ids = new Set();
        byOwner.set(entry.owner, ids);
      }
      ids.add(entry.id);
      return true;
    },
    async get(id, now) {
      const e = byId.get(id);
      return e !== undefined && live(e, now) ? e : undefined;
    },
    async touch(id, owner, now) {
      const e = byId.get(id);
      if (e === undefined || e.owner !== owner || !live(e, now)) return false;
      byId.set(id, { ...e, polledAt: Math.max(e.polledAt, now) });
      return true;
    },
    async remove(id, owner, now) {
      const e = byId.get(id);
      if (e === undefined || e.owner !== owner || !live(e, now)) return false;
      drop(e);
      return true;
    },
    count: async (owner, now) => count(owner, now),
    async sweep(now, limit) {
      const out: FilterEntry[] = [];
      for (const e of byId.values()) {
        if (out.length >= limit) break;
        if (!live(e, now)) out.push(e);
      }
      for (const e of out) drop(e);
      return out;
    },
  };
}
