import type { Logger } from '../log/createLogger.js';
import type { IpfsGcReport } from './collectIpfsGarbage.js';
import type { UploadLedger } from './createUploadLedger.js';
import type { Mfs } from './mfs/createMfs.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import type { PinStore } from './pins/PinStore.js';

/** Per-key limits of the IPFS route (default: the settings' values). */
export interface IpfsLimits {
  readonly maxRequestBytes: number;
  readonly maxStoredBytesPerKey: number;
}

/** What serving one authenticated IPFS command needs (built once by `createIpfsRoute`). */
export interface IpfsCommandContext {
  readonly upstream: IpfsUpstream;
  /** The upstream URL's path, without a trailing slash (`''` for `http://host:port`). */
  readonly basePath: string;
  /** The commands offered (`ipfs.allow`). */
  readonly allowed: ReadonlySet<string>;
  readonly limits: IpfsLimits;
  readonly resetOnStreamError: boolean;
  /** Which key pins what: the source of each key's stored bytes. */
  readonly pins: PinStore;
  /**
   * The key's uploads in progress in this process: their bytes count in its stored bytes until
   * they are recorded, so concurrent uploads of one key cannot each use the same room.
   */
  readonly uploads: UploadLedger;
  /** Where failures to record usage of storage are reported (they never fail the answer). */
  readonly log?: Logger | undefined;
  /**
   * The route's collection (`repo/gc`, when an operator allows it, runs this, never the node's
   * own: it keeps every key's pins and answers no other key's CIDs).
   */
  readonly collect?: (() => Promise<IpfsGcReport>) | undefined;
  /** Every key's own MFS (`files/*`), kept by the gateway. */
  readonly mfs?: Mfs | undefined;
}
