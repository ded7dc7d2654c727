/** A block as a head tracker reads it: its height, its hash and (when the chain says) its parent's hash. */
export interface ReadBlock {
  readonly number: number;
  readonly hash: string;
  readonly parentHash?: string;
}

/**
 * Reads one block of a network for the head tracker: the head (`latest`), the newest final block
 * (`finalized`), or the canonical block at a height; undefined when the network has none (yet).
 * A reader bounds its own calls so one slow answer never holds the polls that follow.
 */
export type BlockReader = (at: 'latest' | 'finalized' | number) => Promise<ReadBlock | undefined>;
