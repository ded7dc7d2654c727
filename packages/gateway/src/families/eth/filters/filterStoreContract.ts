import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { FilterEntry, FilterStore } from './FilterStore.js';
import { newFilterId } from './newFilterId.js';

/** The idle timeout every store of the suite is made with. */
export const CONTRACT_TIMEOUT_MS = 1_000;

/** A filter entry of `owner` read last at `at`. */
function entry(owner: string, at: number, over: Partial<FilterEntry> = {}): FilterEntry {
  return {
    id: newFilterId(),
    owner,
    network: 'eth-devnet',
    upstream: 'anvil',
    upstreamId: '0x66636539786f364158664f3337585451',
    kind: 'blocks',
    createdAt: at,
    polledAt: at,
    ...over,
  };
}

/**
 * The one suite every {@link FilterStore} passes (memory, Redis, Redis with its memory
 * fallback). `make` returns a fresh, empty store whose idle timeout is
 * {@link CONTRACT_TIMEOUT_MS}, and what cleans it up. Time is passed to the store explicitly,
 * so expiry is tested without waiting.
 *
 * @example
 * filterStoreContract('memory', async () => ({ store: createMemoryFilterStore({ timeoutMs: CONTRACT_TIMEOUT_MS }) }));
 */
export function filterStoreContract(
  name: string,
  make: () => Promise<{ store: FilterStore; cleanup?: () => Promise<void> }>,
): void {
  describe(`FilterStore contract: ${name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0)) await c();
    });
    const fresh = async () => {
      const made = await make();
      if (made.cleanup) cleanups.push(made.cleanup);
      return made.store;
    };
    const owner = () => `key-${randomUUID().slice(0, 8)}`;

    it('keeps an entry with every field, and finds nothing for an unknown id', async () => {
      const store = await fresh();
      const t = Date.now();
      const logs = entry(owner(), t, { kind: 'logs', contracts: ['0x5fbdb2315678afecb367f032d93f642f64180aa3'] });
      const blocks = entry(owner(), t);
      expect(await store.add(logs, 10)).toBe(true);
      expect(await store.add(blocks, 10)).toBe(true);
      expect(await store.get(logs.id, t)).toEqual(logs);
      expect(await store.get(blocks.id, t)).toEqual(blocks);
      expect((await store.get(blocks.id, t))?.contracts).toBeUndefined();
      expect(await store.get(newFilterId(), t)).toBeUndefined();
      // an id never goes to a second entry
      expect(await store.add({ ...blocks, owner: owner() }, 10)).toBe(false);
      expect((await store.get(blocks.id, t))?.owner).toBe(blocks.owner);
    });

    it('bounds the filters of each owner, not those of the others; a removal frees a place', async () => {
      const store = await fresh();
      const t = Date.now();
      const a = owner();
      const b = owner();
      const mine = [entry(a, t), entry(a, t), entry(a, t)];
      for (const e of mine) expect(await store.add(e, 3)).toBe(true);
      expect(await store.add(entry(a, t), 3)).toBe(false);
      expect(await store.count(a, t)).toBe(3);
      expect(await store.add(entry(b, t), 3)).toBe(true);
      expect(await store.count(b, t)).toBe(1);
      expect(await store.remove(mine[0]!.id, a, t)).toBe(true);
      expect(await store.add(entry(a, t), 3)).toBe(true);
      expect(await store.count(a, t)).toBe(3);
    });

    it('never lets concurrent adds of one owner pass the bound together', async () => {
      const store = await fresh();
      const t = Date.now();
      const a = owner();
      const added = await Promise.all(Array.from({ length: 20 }, () => store.add(entry(a, t), 5)));
      expect(added.filter(Boolean)).toHaveLength(5);
      expect(await store.count(a, t)).toBe(5);
    });

    it('removes and touches only for the owner', async () => {
      const store = await fresh();
      const t = Date.now();
      const a = owner();
      const e = entry(a, t);
      await store.add(e, 10);
      expect(await store.remove(e.id, owner(), t)).toBe(false);
      expect(await store.touch(e.id, owner(), t + 10)).toBe(false);
      expect((await store.get(e.id, t + 10))?.polledAt).toBe(t);
      expect(await store.touch(e.id, a, t + 10)).toBe(true);
      expect((await store.get(e.id, t + 10))?.polledAt).toBe(t + 10);
      expect(await store.remove(e.id, a, t + 10)).toBe(true);
      expect(await store.get(e.id, t + 10)).toBeUndefined();
      expect(await store.remove(e.id, a, t + 10)).toBe(false);
      expect(await store.touch(e.id, a, t + 10)).toBe(false);
    });

    it('forgets a filter idle past the timeout, unless a read kept it alive; the sweep hands it out once', async () => {
      const store = await fresh();
      const t = Date.now();
      const a = owner();
      const idle = entry(a, t);
      const read = entry(a, t);
      await store.add(idle, 10);
      await store.add(read, 10);
      const half = t + CONTRACT_TIMEOUT_MS / 2;
      expect(await store.touch(read.id, a, half)).toBe(true);
      const past = t + CONTRACT_TIMEOUT_MS + 1;
      expect(await store.get(idle.id, past)).toBeUndefined();
      expect(await store.touch(idle.id, a, past)).toBe(false);
      expect(await store.remove(idle.id, a, past)).toBe(false);
      expect(await store.count(a, past)).toBe(1);
      expect((await store.get(read.id, past))?.id).toBe(read.id);
      // the expired one no longer counts against the bound
      expect(await store.add(entry(a, past), 2)).toBe(true);
      const swept = await store.sweep(past, 100);
      expect(swept.map((e) => e.id)).toEqual([idle.id]);
      expect(swept[0]).toEqual(idle);
      expect(await store.sweep(past, 100)).toEqual([]);
      expect((await store.sweep(half + CONTRACT_TIMEOUT_MS + 1, 100)).map((e) => e.id)).toEqual([read.id]);
    });

    it('sweeps at most `limit` filters a call', async () => {
      const store = await fresh();
      const t = Date.now();
      const a = owner();
      for (let i = 0; i < 5; i++) await store.add(entry(a, t), 10);
      const past = t + CONTRACT_TIMEOUT_MS + 1;
      expect(await store.sweep(past, 2)).toHaveLength(2);
      expect(await store.sweep(past, 2)).toHaveLength(2);
      expect(await store.sweep(past, 2)).toHaveLength(1);
      expect(await store.sweep(past, 2)).toHaveLength(0);
    });
  });
}
