import { request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import { type AdminClient, adminClient } from '../admin/adminClient.js';
import { type IpfsTestGateway, startIpfsTestGateway } from '../ipfs/startIpfsTestGateway.js';
import type { GatewayView } from './admin/gatewaySchemas.js';

/** An answer read whole. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** A gateway with IPFS and dedicated gateways on `localhost`, and what tests of them use. */
export interface GatewayTestbed {
  readonly t: IpfsTestGateway;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly admin: AdminClient;
  /** kubo-rpc-client on the development key. */
  readonly kubo: KuboRPCClient;
  /** The development account's gateway (`dev`). */
  readonly dev: GatewayView;
  /** A kubo-rpc-client on another key's credentials. */
  kuboOf(authorization: string): KuboRPCClient;
  /** GET (or another method) with any Host header, read whole, redirects not followed. */
  get(path: string, options?: { host?: string; headers?: Record<string, string>; method?: string }): Promise<RawAnswer>;
  stop(): Promise<void>;
}

/**
 * Starts a gateway (IPFS only, the embedded node) whose dedicated gateways have the domain
 * `localhost` (`dev.ipfs.localhost`, `<cid>.ipfs.dev.ipfs.localhost`), with kubo-rpc-client and the
 * admin API on the development key's account, and a raw HTTP client that sends any Host header.
 *
 * @example
 * const tb = await startGatewayTestbed();
 * const { cid } = await tb.kubo.add('hello');
 * (await tb.get(`/ipfs-gateway/dev/ipfs/${cid}`)).body.toString(); // 'hello'
 */
export async function startGatewayTestbed(
  options: {
    extra?: Record<string, unknown>;
    gateways?: Record<string, unknown>;
    /** A node of the test's own (e.g. a hop in front of one) instead of the embedded node. */
    upstreamUrl?: string;
  } = {},
): Promise<GatewayTestbed> {
  const t = await startIpfsTestGateway({
    ipfs: { gateways: { domain: 'localhost', ...options.gateways } },
    ...(options.extra ? { extra: options.extra } : {}),
    ...(options.upstreamUrl ? { upstreamUrl: options.upstreamUrl } : {}),
  });
  const url = t.gw.url;
  const port = Number(new URL(url).port);
  const admin = adminClient(url, await readFile(join(t.dataDir, 'admin-token'), 'utf8'));
  const kuboOf = (authorization: string) => create({ url: `${t.ipfsUrl}/api/v0`, headers: { authorization } });
  const dev = (await admin.request<GatewayView[]>('GET', '/gateways')).find((g) => g.name === 'dev');
  if (!dev) throw new Error('the development gateway is missing');
  return {
    t,
    url,
    port,
    admin,
    kubo: kuboOf(t.authorization),
    dev,
    kuboOf,
    get: (path, o = {}) =>
      new Promise((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path,
            method: o.method ?? 'GET',
            headers: { host: o.host ?? `127.0.0.1:${port}`, ...o.headers },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            );
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end();
      }),
    stop: () => t.stop(),
  };
}
