import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MfsRootStore } from './MfsRootStore.js';

/**
 * The contract every {@link MfsRootStore} implementation passes. `open` returns a store (keys and
 * CIDs are random, so runs may share storage); `reopen` opens the same storage again (durability).
 *
 * @example
 * mfsRootStoreContract('PGlite', () => createSqlMfsRootStore(query), () => createSqlMfsRootStore(query));
 */
export function mfsRootStoreContract(
  name: string,
  open: () => Promise<MfsRootStore>,
  reopen: () => Promise<MfsRootStore>,
) {
  const key = () => randomBytes(16).toString('hex');
  const cid = () => `bafy${randomBytes(12).toString('hex')}`;

  describe(`MfsRootStore contract: ${name}`, () => {
    it('a key without a row has none; the first swap (version 0) makes it, version 1', async () => {
      const roots = await open();
      const [a, b] = [key(), key()];
      const root = cid();
      expect(await roots.get(a)).toBeUndefined();
      expect(await roots.swap(a, 0, root, 123)).toBe(true);
      expect(await roots.get(a)).toEqual({ root, size: 123, version: 1 });
      expect(await roots.get(b)).toBeUndefined();
      // a second "first" change lost the race
      expect(await roots.swap(a, 0, cid(), 1)).toBe(false);
      expect((await roots.get(a))?.root).toBe(root);
    });

    it('a swap from a stale version changes nothing; from the current one it moves the version on', async () => {
      const roots = await open();
      const a = key();
      const [r1, r2, r3] = [cid(), cid(), cid()];
      await roots.swap(a, 0, r1, 10);
      expect(await roots.swap(a, 1, r2, 20)).toBe(true);
      expect(await roots.swap(a, 1, r3, 30)).toBe(false);
      expect(await roots.get(a)).toEqual({ root: r2, size: 20, version: 2 });
      expect(await roots.swap(a, 2, r3, 2 ** 40)).toBe(true);
      expect(await roots.get(a)).toEqual({ root: r3, size: 2 ** 40, version: 3 });
    });

    it('of many swaps from one version at once, exactly one lands', async () => {
      const roots = await open();
      const a = key();
      await roots.swap(a, 0, cid(), 1);
      const candidates = Array.from({ length: 8 }, cid);
      const outcomes = await Promise.all(candidates.map((c) => roots.swap(a, 1, c, 5)));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const winner = candidates[outcomes.indexOf(true)];
      expect(await roots.get(a)).toEqual({ root: winner, size: 5, version: 2 });
    });

    it('roots lists every distinct root; owners counts the keys whose root a CID is', async () => {
      const roots = await open();
      const [a, b, c] = [key(), key(), key()];
      const [shared, own] = [cid(), cid()];
      await roots.swap(a, 0, shared, 4);
      await roots.swap(b, 0, shared, 4);
      await roots.swap(c, 0, own, 4);
      expect(await roots.owners(shared)).toBe(2);
      expect(await roots.owners(own)).toBe(1);
      expect(await roots.owners(cid())).toBe(0);
      const listed = await roots.roots();
      expect(listed).toEqual(expect.arrayContaining([shared, own]));
      expect(listed.filter((r) => r === shared)).toHaveLength(1);
      await roots.swap(a, 1, own, 4);
      expect(await roots.owners(shared)).toBe(1);
    });

    it('survives reopening', async () => {
      const a = key();
      const root = cid();
      await (await open()).swap(a, 0, root, 77);
      expect(await (await reopen()).get(a)).toEqual({ root, size: 77, version: 1 });
    });
  });
}
