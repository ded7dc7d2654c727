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
}
