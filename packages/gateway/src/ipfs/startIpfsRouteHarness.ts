import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { IpfsSettings } from '../config/types.js';
import type { EmbeddedProcess } from '../embedded/startAnvil.js';
import { startIpfsNode } from '../embedded/startIpfsNode.js';
import type { SqlQuery } from '../store/createSqlKeyStore.js';
import { createIpfsRoute, type IpfsRoute } from './createIpfsRoute.js';
import { DEFAULT_IPFS_ALLOW } from './ipfsCommands.js';
import { createSqlPinStore } from './pins/createSqlPinStore.js';
import type { PinStore } from './pins/PinStore.js';
import { writeIpfsError } from './writeIpfsError.js';

/** A test key: id, secret and its `Authorization` header. */
export interface HarnessKey {
  readonly key: string;
  readonly secret: string;
  readonly authorization: string;
}

/** The IPFS route alone, in front of a real node, for multi-key tests. */
export interface IpfsRouteHarness {
  /** `{ipfs_url}`: the API is under `${ipfsUrl}/api/v0/`. */
  readonly ipfsUrl: string;
  /** The node behind the route (`http`: its own API base, for checks the gateway refuses). */
  readonly node: EmbeddedProcess;
  readonly route: IpfsRoute;
  readonly pins: PinStore;
  readonly repo: string;
  readonly pinsDir: string;
  /** A new key the harness accepts. */
  createKey(): HarnessKey;
  /** Stops server, node and database; `keepData` leaves repo and database for a restart. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Starts the embedded IPFS node (its own process, repo `repo`) and a raw node:http server that
 * authenticates `Basic key:secret` against the keys it created and hands every `/ipfs/…` request,
 * with its path exactly as sent, to `route.serve` (the post-authentication entry point). Pins are
 * kept in PGlite in `pinsDir`, so a restart over the same directories keeps them.
 *
 * @example
 * const h = await startIpfsRouteHarness();
 * const a = h.createKey();
 * await fetch(`${h.ipfsUrl}/api/v0/pin/ls`, { method: 'POST', headers: { authorization: a.authorization } });
 */
export async function startIpfsRouteHarness(
  options: { repo?: string; pinsDir?: string; keys?: readonly HarnessKey[]; ipfs?: Partial<IpfsSettings> } = {},
): Promise<IpfsRouteHarness> {
  const repo = options.repo ?? (await mkdtemp(join(tmpdir(), 'nodegate-ipfs-harness-repo-')));
  const pinsDir = options.pinsDir ?? (await mkdtemp(join(tmpdir(), 'nodegate-ipfs-harness-pins-')));
  const [node, db] = await Promise.all([startIpfsNode({ repo }), PGlite.create(pinsDir)]);
  const pins = await createSqlPinStore(((sql: string, params?: unknown[]) => db.query(sql, params)) as SqlQuery);
  const settings: IpfsSettings = {
    hosts: [],
    pathPrefix: '/ipfs',
    upstream: { name: 'ipfs-node', http: node.http, timeoutMs: 300_000 },
    allow: DEFAULT_IPFS_ALLOW,
    maxRequestBytes: 1024 ** 3,
    maxStoredBytesPerKey: 10 * 1024 ** 3,
    resetOnStreamError: false,
    creditsPerServedMiB: 10,
    // collections run when a test asks (route.collect())
    gc: { intervalMs: 0, timeoutMs: 60_000, unpinUnowned: true },
    ...options.ipfs,
  };
  const route = createIpfsRoute({ settings, upstreamUrl: node.http, pins });
  const secrets = new Map<string, string>((options.keys ?? []).map((k) => [k.key, k.secret]));
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith('/ipfs/')) return writeIpfsError(req, res, 404, 'not found', 1);
    const m = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [key, secret] = Buffer.from(m?.[1] ?? '', 'base64')
      .toString('utf8')
      .split(':');
    if (key === undefined || secret === undefined || secrets.get(key) !== secret) {
      return writeIpfsError(req, res, 401, 'invalid credentials', 1);
    }
    route.serve(key, req, res, url.slice('/ipfs'.length));
  });
  // as the gateway does: idle connections outlive the clients' keep-alive (no reset of a reused socket)
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ipfsUrl: `http://127.0.0.1:${port}/ipfs`,
    node,
    route,
    pins,
    repo,
    pinsDir,
    createKey() {
      const key = randomBytes(16).toString('hex');
      const secret = randomBytes(16).toString('hex');
      secrets.set(key, secret);
      return { key, secret, authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` };
    },
    async stop(stopOptions = {}) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await route.close?.();
      await node.stop();
      await db.close();
      if (!stopOptions.keepData) {
        await rm(repo, { recursive: true, force: true });
        await rm(pinsDir, { recursive: true, force: true });
      }
    },
  };
}
