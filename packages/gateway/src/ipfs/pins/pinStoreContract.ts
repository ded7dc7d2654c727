import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PinStore } from './PinStore.js';

/**
 * The contract every {@link PinStore} implementation passes. `open` returns a store (keys and CIDs
 * are random, so runs may share storage); `reopen` opens the same storage again (durability).
 *
 * @example
 * pinStoreContract('PGlite', () => createSqlPinStore(pgliteQuery), () => createSqlPinStore(pgliteQuery));
 */
export function pinStoreContract(name: string, open: () => Promise<PinStore>, reopen: () => Promise<PinStore>) {
  const key = () => randomBytes(16).toString('hex');
  const cid = () => `bafk${randomBytes(12).toString('hex')}`;

  describe(`PinStore contract: ${name}`, () => {
    it('records, finds and lists a key’s pins; other keys see none of them', async () => {
      const pins = await open();
      const [a, b] = [key(), key()];
      const [c1, c2] = [cid(), cid()];
      await pins.add(a, [
        { cid: c1, type: 'recursive', size: 1000 },
        { cid: c2, type: 'direct', size: 20 },
      ]);
      expect(await pins.get(a, c1)).toMatchObject({ cid: c1, type: 'recursive', size: 1000 });
      expect((await pins.get(a, c1))?.createdAt).toBeInstanceOf(Date);
      expect(await pins.get(b, c1)).toBeUndefined();
      expect((await pins.list(a)).map((p) => p.cid).sort()).toEqual([c1, c2].sort());
      expect((await pins.list(a, 'direct')).map((p) => p.cid)).toEqual([c2]);
      expect((await pins.list(a, 'recursive')).map((p) => p.cid)).toEqual([c1]);
      expect(await pins.list(b)).toEqual([]);
      expect(await pins.storedBytes(a)).toBe(1020);
      expect(await pins.storedBytes(b)).toBe(0);
    });

    it('two keys pinning one CID both own it; removing one pin leaves the other', async () => {
      const pins = await open();
      const [a, b] = [key(), key()];
      const c = cid();
      await pins.add(a, [{ cid: c, type: 'recursive', size: 500 }]);
      await pins.add(b, [{ cid: c, type: 'recursive', size: 500 }]);
      expect(await pins.owners(c)).toBe(2);
      expect(await pins.remove(b, c)).toBe(true);
      expect(await pins.remove(b, c)).toBe(false);
      expect(await pins.owners(c)).toBe(1);
      expect(await pins.get(a, c)).toMatchObject({ type: 'recursive' });
      expect(await pins.storedBytes(b)).toBe(0);
      expect(await pins.storedBytes(a)).toBe(500);
      expect(await pins.owners(cid())).toBe(0);
    });

    it('pinning again keeps one row: recursive replaces direct, direct never downgrades recursive', async () => {
      const pins = await open();
      const a = key();
      const c = cid();
      await pins.add(a, [{ cid: c, type: 'direct', size: 10 }]);
      await pins.add(a, [{ cid: c, type: 'recursive', size: 900 }]);
      expect(await pins.get(a, c)).toMatchObject({ type: 'recursive', size: 900 });
      await pins.add(a, [{ cid: c, type: 'direct', size: 10 }]);
      expect(await pins.get(a, c)).toMatchObject({ type: 'recursive', size: 900 });
      expect(await pins.list(a)).toHaveLength(1);
      expect(await pins.storedBytes(a)).toBe(900);
    });

    it('sums sizes past 2^32 exactly', async () => {
      const pins = await open();
      const a = key();
      await pins.add(a, [
        { cid: cid(), type: 'recursive', size: 3 * 2 ** 31 },
        { cid: cid(), type: 'recursive', size: 2 ** 33 + 7 },
      ]);
      expect(await pins.storedBytes(a)).toBe(3 * 2 ** 31 + 2 ** 33 + 7);
    });

    it('unpinned bytes count in storedBytes until a collection that began after them ends', async () => {
      const pins = await open();
      const [a, b] = [key(), key()];
      await pins.add(a, [{ cid: cid(), type: 'recursive', size: 100 }]);
      await pins.addUnpinned(a, 40);
      await pins.addUnpinned(a, 2);
      await pins.addUnpinned(a, 0);
      expect(await pins.unpinnedBytes(a)).toBe(42);
      expect(await pins.storedBytes(a)).toBe(142);
      expect(await pins.storedBytes(b)).toBe(0);
      const mark = await pins.beginCollection();
      // recorded while the collection runs: the node may keep it, so it counts until the next one
      await pins.addUnpinned(a, 7);
      await pins.addUnpinned(b, 5);
      await pins.endCollection(mark);
      expect(await pins.unpinnedBytes(a)).toBe(7);
      expect(await pins.storedBytes(a)).toBe(107);
      expect(await pins.storedBytes(b)).toBe(5);
      const next = await pins.beginCollection();
      expect(next).toBeGreaterThan(mark);
      await pins.endCollection(next);
      expect(await pins.storedBytes(a)).toBe(100);
      expect(await pins.storedBytes(b)).toBe(0);
    });

    it('pinnedCids lists each pinned CID once, recursive when any key pins it so', async () => {
      const pins = await open();
      const [a, b] = [key(), key()];
      const [both, onlyDirect] = [cid(), cid()];
      await pins.add(a, [{ cid: both, type: 'direct', size: 1 }]);
      await pins.add(b, [{ cid: both, type: 'recursive', size: 1 }]);
      await pins.add(b, [{ cid: onlyDirect, type: 'direct', size: 1 }]);
      const listed = new Map((await pins.pinnedCids()).map((p) => [p.cid, p.type]));
      expect(listed.get(both)).toBe('recursive');
      expect(listed.get(onlyDirect)).toBe('direct');
      await pins.remove(b, both);
      expect(new Map((await pins.pinnedCids()).map((p) => [p.cid, p.type])).get(both)).toBe('direct');
    });

    it('pins survive reopening the storage', async () => {
      const pins = await open();
      const a = key();
      const c = cid();
      await pins.add(a, [{ cid: c, type: 'recursive', size: 77 }]);
      const again = await reopen();
      expect(await again.get(a, c)).toMatchObject({ cid: c, type: 'recursive', size: 77 });
      expect(await again.storedBytes(a)).toBe(77);
    });
  });
}
