import type { EventEmitter } from 'node:events';
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
  /**
   * Connections for answers streamed on whole (a file's `cat`), read without a copy
   * (the dedicated gateways' `createStreamConnections`); absent, or `full` (all its connections
   * busy), those go through `agent`.
   */
  readonly streams?: {
    open(
      command: string,
      params: Record<string, string>,
      signal: AbortSignal,
      lifetime?: AbortSignal,
    ): Promise<UpstreamBody>;
    readonly full: boolean;
    close(): void;
  };
  readonly blocks?: {
    get(cid: CID): Uint8Array | undefined;
    set(cid: CID, bytes: Uint8Array): void;
  };
}

/**
 * A streamed answer's body as the gateway reads it: the part of a `Readable` it uses (`data`,
 * `end`, `error`, `close`; `pause`/`resume`; `destroy`). With `release`, each chunk refers to a
 * read buffer the connection reuses: give it back once nothing refers to it (its write completed).
 */
export interface UpstreamBody extends EventEmitter {
  /** The answer's head fields, lower-cased (e.g. `x-content-length` of a `cat`). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly readableEnded: boolean;
  readonly destroyed: boolean;
  pause(): this;
  resume(): this;
  isPaused(): boolean;
  destroy(error?: Error): this;
  release?(chunk: Uint8Array): void;
}
