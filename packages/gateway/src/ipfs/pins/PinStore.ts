/** How a key pins a CID: its whole DAG (`recursive`) or only its root block (`direct`). */
export type PinType = 'recursive' | 'direct';

/** One pin a key owns. */
export interface OwnedPin {
  /** The CID in canonical text (CIDv0 base58btc, CIDv1 base32). */
  readonly cid: string;
  readonly type: PinType;
  /** Bytes the pin keeps stored: the DAG's cumulative size (the block's size for a direct pin). */
  readonly size: number;
}

/** An owned pin as stored, with when it was first recorded. */
export interface StoredPin extends OwnedPin {
  readonly createdAt: Date;
}

/**
 * Which key pins which CID, kept by the gateway so keys sharing one Kubo-compatible node see and
 * remove only their own pins. Two keys pinning the same CID both own it. The sum of a key's
 * pin sizes, plus the bytes it made the node store unpinned until the node collects them, is
 * what it stores (the storage quota). These records decide what the node keeps: the scheduled
 * collection pins every recorded CID on the node before it collects the rest.
 */
export interface PinStore {
  /**
   * Records pins of a key. Pinning again keeps one row; a recursive pin replaces a direct one
   * (type and size), a direct pin never downgrades a recursive one.
   */
  add(key: string, pins: readonly OwnedPin[]): Promise<void>;
  /** The key's pin of `cid`, or undefined. */
  get(key: string, cid: string): Promise<StoredPin | undefined>;
  /** The key's pins (of one type when given), oldest first. */
  list(key: string, type?: PinType): Promise<StoredPin[]>;
  /** Deletes the key's pin of `cid`; false when the key did not pin it. */
  remove(key: string, cid: string): Promise<boolean>;
  /** How many keys pin `cid`. */
  owners(cid: string): Promise<number>;
  /**
   * Bytes the key makes the node store: the sum of its pins' sizes plus its unpinned bytes not
   * yet collected (0 without either). The storage quota reads this.
   */
  storedBytes(key: string): Promise<number>;
  /**
   * Records bytes the key made the node store that none of its pins keeps (an unpinned upload,
   * an upload cut short, a pin it removed): they count in `storedBytes` until a collection that
   * began after this call ends.
   */
  addUnpinned(key: string, bytes: number): Promise<void>;
  /** The key's unpinned bytes not yet collected. */
  unpinnedBytes(key: string): Promise<number>;
  /**
   * Starts a collection: unpinned bytes recorded from now on belong to the next one. Returns the
   * collection's mark, for {@link PinStore.endCollection} once the node's garbage collection ran.
   */
  beginCollection(): Promise<number>;
  /** The node collected everything unpinned before `mark` was taken: those bytes stop counting. */
  endCollection(mark: number): Promise<void>;
  /** Every CID some key pins, with the strongest type any key pins it with (recursive over direct). */
  pinnedCids(): Promise<Array<{ cid: string; type: PinType }>>;
}
