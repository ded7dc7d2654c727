import type { PinStore, PinType } from '../pins/PinStore.js';
import type { MfsRootStore } from './MfsRootStore.js';

/**
 * The key's pins seen together with the keys' MFS roots, for everything that decides what the
 * node keeps and what a key stores: `storedBytes` adds the key's MFS tree (its stored size),
 * `pinnedCids` adds every MFS root as a recursive pin (the collection pins it on the node before
 * collecting), `owners` counts the keys whose MFS root a CID is. Listing, adding and removing
 * pins are the pin store's own: an MFS root never shows in `pin/ls` (as in Kubo).
 *
 * @example
 * const pins = withMfsRoots(await createSqlPinStore(db.sql), await createSqlMfsRootStore(db.sql));
 */
export function withMfsRoots(pins: PinStore, roots: MfsRootStore): PinStore {
  return {
    add: (key, list) => pins.add(key, list),
    get: (key, cid) => pins.get(key, cid),
    list: (key, type) => pins.list(key, type),
    remove: (key, cid) => pins.remove(key, cid),
    addUnpinned: (key, bytes) => pins.addUnpinned(key, bytes),
    unpinnedBytes: (key) => pins.unpinnedBytes(key),
    beginCollection: () => pins.beginCollection(),
    endCollection: (mark) => pins.endCollection(mark),
    async owners(cid) {
      const [pinned, mfs] = await Promise.all([pins.owners(cid), roots.owners(cid)]);
      return pinned + mfs;
    },
    async storedBytes(key) {
      const [pinned, mfs] = await Promise.all([pins.storedBytes(key), roots.get(key)]);
      return pinned + (mfs?.size ?? 0);
    },
    async pinnedCids() {
      const [pinned, mfs] = await Promise.all([pins.pinnedCids(), roots.roots()]);
      const byCid = new Map<string, PinType>(pinned.map((p) => [p.cid, p.type]));
      for (const root of mfs) byCid.set(root, 'recursive');
      return [...byCid].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([cid, type]) => ({ cid, type }));
    },
  };
}
