import { mkdir } from 'node:fs/promises';
import Fastify from 'fastify';
import { defaultPlanTable } from '../accounts/defaultPlanTable.js';
import { ensureOperator } from '../accounts/ensureOperator.js';
import type { GatewayConfig } from '../config/types.js';
import type { Plan } from '../plans/Plan.js';
import { acquireDataDirLock } from '../store/acquireDataDirLock.js';
import { openDatabase } from '../store/openDatabase.js';
import { type AdminClient, type AdminTransport, adminClient } from './adminClient.js';
import { registerAdminApi } from './registerAdminApi.js';
import { createSqlGatewayStore } from '../ipfsGateway/store/createSqlGatewayStore.js';

/** An admin API served in this process over the database, and how to close it. */
export interface LocalAdminApi {
  readonly client: AdminClient;
  close(): Promise<void>;
}

/**
 * The admin API in-process, for when no gateway runs on the data directory: takes the
 * data-directory lock, opens the database, makes sure the operator exists, and serves the
 * same routes through `app.inject` (no port is opened). The CLI uses it offline.
 *
 * @example
 * const local = await openLocalAdminApi(config, dataDir);
 * try { await local.client.listKeys(); } finally { await local.close(); }
 */
export async function openLocalAdminApi(config: GatewayConfig, dataDir: string): Promise<LocalAdminApi> {
  await mkdir(dataDir, { recursive: true });
  const unlock = await acquireDataDirLock(dataDir);
  const cleanups: Array<() => Promise<void>> = [unlock];
  const close = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  try {
    const db = await openDatabase(config, dataDir);
    cleanups.push(() => db.close());
    // links name where the gateway will be: its public URL, else its listen address
    const host = config.listen.host === '0.0.0.0' || config.listen.host === '::' ? '127.0.0.1' : config.listen.host;
    const baseUrl =
      config.publicUrl ??
      `${config.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${config.listen.port}`;
    const { adminToken } = await ensureOperator({ accounts: db.accounts, dataDir, baseUrl, signIn: false });
    const configured = (config as { plans?: Readonly<Record<string, Plan>> }).plans;
    // dedicated gateways are kept in the same database (the CLI's `nodegate gateways …` offline)
    const gatewaySettings = config.ipfs?.gateways;
    const gateways = gatewaySettings?.enabled
      ? { store: await createSqlGatewayStore(db.sql), settings: gatewaySettings, baseUrl: () => baseUrl }
      : undefined;
    const app = Fastify();
    await registerAdminApi(app, {
      keys: db.keys,
      accounts: db.accounts,
      plans: configured ?? defaultPlanTable(),
      onKeyChanged: () => {},
      baseUrl: () => baseUrl,
      gateways,
    });
    await app.ready();
    cleanups.push(() => app.close());
    const transport: AdminTransport = async (url, init) => {
      const u = new URL(url);
      const res = await app.inject({
        method: init.method as 'GET',
        url: `${u.pathname}${u.search}`,
        headers: init.headers,
        ...(init.body === undefined ? {} : { payload: init.body }),
      });
      return new Response(res.statusCode === 204 ? null : res.body, {
        status: res.statusCode,
        headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
      });
    };
    return { client: adminClient('http://in-process', adminToken, { transport }), close };
  } catch (err) {
    await close();
    throw err;
  }
}
