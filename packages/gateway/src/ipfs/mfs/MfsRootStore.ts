/** A key's MFS root as stored: the directory's CID, its stored size, and its version. */
export interface MfsRootRecord {
  /** The root directory's CID, canonical text (CIDv0 base58btc, CIDv1 base32). */
  readonly root: string;
  /** Bytes the tree makes the node store (each block once: the node's `dag/stat`). */
  readonly size: number;
  /** Grows by one with every change: the compare-and-set of {@link MfsRootStore.swap} reads it. */
  readonly version: number;
}

/**
 * Where the gateway keeps each key's MFS root (one row per key that ever changed its MFS). The
 * root is replaced by compare-and-set on its version, so two gateway instances changing one key's
 * MFS at once never lose either change: the second sees a newer version and starts over.
 */
export interface MfsRootStore {
  /** The key's root, or undefined while it has never changed its MFS (the empty directory). */
  get(key: string): Promise<MfsRootRecord | undefined>;
  /**
   * Sets the key's root to `root` (of `size` bytes) if its version is still `version` (0: the key
   * has no row yet). True when it was set; false when another change came first.
   */
  swap(key: string, version: number, root: string, size: number): Promise<boolean>;
  /** Every distinct MFS root of every key (the collection keeps them). */
  roots(): Promise<string[]>;
  /** How many keys have `cid` as their MFS root. */
  owners(cid: string): Promise<number>;
}
