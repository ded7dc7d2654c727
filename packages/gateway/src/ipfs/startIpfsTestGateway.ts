import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminClient } from '../admin/adminClient.js';
import { validateConfig } from '../config/validateConfig.js';
import { type RunningGateway, startGateway } from '../main.js';

/** A gateway serving only the IPFS family, for tests and benchmarks. */
export interface IpfsTestGateway {
  readonly gw: RunningGateway;
  /** `{ipfs_url}`: the API is under `${ipfsUrl}/api/v0/`. */
  readonly ipfsUrl: string;
  readonly dataDir: string;
  readonly key: string;
  readonly secret: string;
  /** `Basic base64(key:secret)` of the development key. */
  readonly authorization: string;
  /** Creates another key through the running gateway's admin API (on `plan` when given). */
  createKey(options?: { plan?: string }): Promise<{ key: string; secret: string; authorization: string }>;
  /** Revokes a key through the admin API (takes effect at once). */
  revokeKey(key: string): Promise<void>;
  /** Stops the gateway; `keepData` leaves the data directory for a restart. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** `Basic base64(key:secret)`. */
export function basicAuth(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

/**
 * Starts a gateway whose only family is IPFS under `/ipfs`: in front of `upstreamUrl`, or of
 * the embedded node it starts itself (the default path). `ipfs` adds settings (allow, limits).
 *
 * @example
 * const t = await startIpfsTestGateway({ ipfs: { maxRequestBytes: 65536 } });
 * await fetch(`${t.ipfsUrl}/api/v0/version`, { method: 'POST', headers: { authorization: t.authorization } });
 */
export async function startIpfsTestGateway(
  options: {
    upstreamUrl?: string;
    dataDir?: string;
    ipfs?: Record<string, unknown>;
    /** More config (plans, limits…). */
    extra?: Record<string, unknown>;
  } = {},
): Promise<IpfsTestGateway> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'nodegate-ipfs-test-')));
  const config = validateConfig({
    listen: '127.0.0.1:0',
    dataDir,
    devKey: true,
    networks: [],
    ipfs: {
      pathPrefix: '/ipfs',
      upstream: options.upstreamUrl
        ? { name: 'kubo', http: options.upstreamUrl }
        : { name: 'ipfs-node', embedded: 'ipfs-node' },
      ...options.ipfs,
    },
    ...options.extra,
  });
  const gw = await startGateway(config);
  // the running gateway's admin API, with the admin token it keeps in the data directory
  const admin = adminClient(gw.url, await readFile(join(dataDir, 'admin-token'), 'utf8'));
  const { key, secret } = gw.devKey!;
  return {
    gw,
    ipfsUrl: gw.ipfs!,
    dataDir,
    key,
    secret,
    authorization: basicAuth(key, secret),
    async createKey(keyOptions = {}) {
      const created = await admin.createKey({ name: 'test', ...(keyOptions.plan ? { plan: keyOptions.plan } : {}) });
      return { key: created.key, secret: created.secret, authorization: basicAuth(created.key, created.secret) };
    },
    async revokeKey(k) {
      await admin.revokeKey(k);
    },
    async stop(stopOptions = {}) {
      await gw.close();
      if (!stopOptions.keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
