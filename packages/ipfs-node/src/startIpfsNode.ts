import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestHandler } from './http/createRequestHandler.js';
import { Repo } from './repo/Repo.js';
import { NODE_VERSION } from './version.js';

/** Options of {@link startIpfsNode}. */
export interface IpfsNodeOptions {
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Port; `0` (the default) picks a free one. */
  port?: number;
  /** Repo directory (created if missing): blocks, pins and identity live there. */
  repo: string;
  /**
   * When a stream fails after the 200 headers went out, reset the connection instead of ending
   * the body with the `X-Stream-Error` trailer, so clients that ignore trailers notice. Default false.
   */
  resetOnStreamError?: boolean;
  /** Receives unexpected internal failures (no request data). */
  onInternalError?: (err: unknown) => void;
  /**
   * Directories whose links' size estimate exceeds this many bytes are stored HAMT-sharded, as
   * Kubo's `Internal.UnixFSShardingSizeThreshold` (default 256 KiB, as Kubo).
   */
  shardingThresholdBytes?: number;
}

/** A running node. */
export interface IpfsNode {
  /** Base URL, e.g. `http://127.0.0.1:5001`; the Kubo RPC API is under `${apiUrl}/api/v0/`. */
  apiUrl: string;
  /** Stops accepting requests, ends open connections and releases the repo. */
  close(): Promise<void>;
}

/**
 * Opens the repo and serves the Kubo RPC API over HTTP.
 *
 * @example
 * ```ts
 * const node = await startIpfsNode({ repo: '/var/lib/nodegate/ipfs', port: 0 });
 * const res = await fetch(`${node.apiUrl}/api/v0/version`, { method: 'POST' });
 * await node.close();
 * ```
 */
export async function startIpfsNode(options: IpfsNodeOptions): Promise<IpfsNode> {
  const repo = await Repo.open(options.repo);
  const handler = createRequestHandler({
    repo,
    facts: {
      version: NODE_VERSION,
      agentVersion: `nodegate-ipfs-node/${NODE_VERSION}`,
      shardingThresholdBytes: options.shardingThresholdBytes ?? 262144,
    },
    resetOnStreamError: options.resetOnStreamError ?? false,
    ...(options.onInternalError === undefined ? {} : { onInternalError: options.onInternalError }),
  });
  // Uploads of any size stream through: no whole-request timeout. Idle keep-alive connections
  // stay open longer than proxies keep idle upstream sockets (Node's agent: 5 s), so a proxy
  // never reuses a socket the node is closing at that moment.
  const server = createServer({ requestTimeout: 0, keepAliveTimeout: 65_000, headersTimeout: 66_000 }, handler);
  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await repo.close();
    throw err;
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    apiUrl: `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost === '[::]' ? '[::1]' : shownHost}:${address.port}`,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await repo.close();
      })();
      return closing;
    },
  };
}
