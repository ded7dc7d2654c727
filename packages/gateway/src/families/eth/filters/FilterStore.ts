import type { FilterKind } from '../../types.js';

/** One eth filter the gateway answered an id for, and where its state really lives. */
export interface FilterEntry {
  /** The gateway's id (`0x` + up to 32 hex digits, lowercase): what the client holds. */
  readonly id: string;
  /** The API key that installed it: the only key that may read or remove it. */
  readonly owner: string;
  /** The network it was installed on (another network's calls never find it). */
  readonly network: string;
  /** The upstream that holds it (by its configured name), and the id that upstream gave it. */
  readonly upstream: string;
  readonly upstreamId: string;
  readonly kind: FilterKind;
  /**
   * Log filters: the contracts it names, for the key's contract allowlist at each read (`[]`:
   * every contract, also when the list was too long to keep). Absent for block and pending
   * transaction filters, which name none.
   */
  readonly contracts?: readonly string[] | undefined;
  /** Epoch ms it was installed, and last read (a read keeps it alive). */
  readonly createdAt: number;
  readonly polledAt: number;
}

/**
 * Where the gateway keeps its filters: in memory (one instance) or in Redis (every instance
 * behind a load balancer sees the same). One contract suite (`filterStoreContract.ts`) runs
 * against each. A filter idle for longer than the store's timeout is gone for `get`, `touch`,
 * `remove` and `count` at once, and `sweep` hands it out once so its upstream filter can be
 * removed too. Every method may reject when its backing store is away (Redis).
 */
export interface FilterStore {
  /**
   * Keeps `entry` unless its owner already holds `maxPerOwner` live filters (then `false`,
   * nothing kept). Atomic: concurrent adds of one owner never pass the bound together.
   */
  add(entry: FilterEntry, maxPerOwner: number): Promise<boolean>;
  /** The live filter `id` names (whoever owns it), or undefined. */
  get(id: string, now: number): Promise<FilterEntry | undefined>;
  /** Marks the live filter `id` of `owner` read at `now`; false when there is none. */
  touch(id: string, owner: string, now: number): Promise<boolean>;
  /** Removes the live filter `id` if `owner` owns it; false when it had none by that id. */
  remove(id: string, owner: string, now: number): Promise<boolean>;
  /** Live filters `owner` holds. */
  count(owner: string, now: number): Promise<number>;
  /** Removes and returns up to `limit` filters idle past the timeout (each handed out once). */
  sweep(now: number, limit: number): Promise<FilterEntry[]>;
}
