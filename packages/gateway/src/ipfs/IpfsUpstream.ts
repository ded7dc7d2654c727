import type { Agent } from 'node:http';
import type { CID } from 'multiformats/cid';

/** The Kubo-compatible node behind the route, as the route's parts reach it. */
export interface IpfsUpstream {
  /** Base URL (`http://host:port`); commands under `/api/v0/`. */
  readonly url: URL;
  /** Keep-alive connection pool to it. */
  readonly agent: Agent;
  /** Extra headers sent with every request (e.g. the upstream's own credentials). */
  readonly headers: Readonly<Record<string, string>>;
  /** Socket idle timeout. */
  readonly idleTimeoutMs: number;
  /**
   * Small blocks already read, by content (the dedicated gateways' `createBlockCache`): block
   * reads look here before they ask the node, and keep what they read.
   */
  readonly blocks?: {
    get(cid: CID): Uint8Array | undefined;
    set(cid: CID, bytes: Uint8Array): void;
  };
}
