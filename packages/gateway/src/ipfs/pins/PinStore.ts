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
 * pin sizes is what it stores (the upload quota).
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
  /** Bytes the key stores: the sum of its pins' sizes (0 without pins). */
  storedBytes(key: string): Promise<number>;
}
